"""The errors that stop a command before it does any work.

`python -m bot` turns a `StartupError` into one line, `cannot start: <message>`, and exit status 2: an
operator gets the reason and the remedy, never a traceback. Messages name settings, files and variables,
never the value of a secret.
"""

from __future__ import annotations


class StartupError(Exception):
    """A command cannot start; the message says what is wrong and what to do."""


class SettingsError(StartupError):
    """A configuration problem, worded for the person who has to fix it."""
