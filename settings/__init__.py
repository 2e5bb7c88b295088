"""Typed settings read from config.toml with environment overrides."""

from settings.load import SettingsError, load_settings
from settings.model import Settings

__all__ = ["Settings", "SettingsError", "load_settings"]
