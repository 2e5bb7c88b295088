"""What the bot does, apart from how Telegram delivers it: a learner's private session, a timed round in a
group or channel, and an instructor's revision. Engines take the process state, a `Sender` for what
goes out and a clock; they never see a Telegram update, so they are tested without the Bot API."""
