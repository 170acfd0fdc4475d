"""When each channel's questions are posted: schedule specs and the scheduler."""
