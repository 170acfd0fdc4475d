"""Members' daily review reminders."""
