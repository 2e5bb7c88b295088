import sys

from bot.emulator.server import main

sys.exit(main())
