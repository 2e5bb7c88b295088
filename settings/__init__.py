"""Typed settings read from config.toml with environment overrides."""

from settings.errors import SettingsError, StartupError
from settings.load import load_settings
from settings.model import Settings

__all__ = ["Settings", "SettingsError", "StartupError", "load_settings"]
