"""What the bot does, apart from how Telegram delivers it: a timed round in a group or channel
(`roundprep.py` writes it, `rounds.py` plays it), a learner's private session (`sessions.py`) and an
instructor's revision (`revisions.py`), with the process state they share. Engines take a `Sender` (or a
status) for what goes out and an injected clock; they never see a Telegram update, so they are tested
without the Bot API."""
