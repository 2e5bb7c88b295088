"""The words every layer shares: kinds of question, mode and complaint, the records storage keeps, and the
callback data of the bot's buttons. It imports nothing of the project, so any package may import it and
the arrows between packages keep pointing one way."""
