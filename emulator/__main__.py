import sys

from emulator.server import main

sys.exit(main())
