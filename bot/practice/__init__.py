"""Private practice in direct messages, interview style."""
