"""What learners and instructors see of the practice so far: statistics and the 30-day chart, spaced review
of missed questions, preferences and reminders, question difficulty, past-paper practice, exports and class
statistics. Plain code over the store with the store's clock; nothing here knows Telegram, so handlers stay
thin and every engine is tested without the emulator."""
