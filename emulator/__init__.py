"""A local Telegram Bot API emulator, its user-side API and a Python client, for offline demos and tests."""

from emulator.client import EmulatorClient, EmulatorError
from emulator.server import EmulatorServer
from emulator.state import DEFAULT_TOKEN, EmulatorOptions

__all__ = ["DEFAULT_TOKEN", "EmulatorClient", "EmulatorError", "EmulatorOptions", "EmulatorServer"]
