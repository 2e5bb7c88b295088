"""Learner progress engines: statistics, the 30-day chart, spaced review of missed questions, preferences
and reminders, question difficulty. Plain code over the store with the store's clock; nothing here knows
Telegram, so handlers stay thin and every engine is tested without the emulator."""
