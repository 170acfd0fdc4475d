"""Members' time away: no reminders or notifications meanwhile, and streaks excused."""
