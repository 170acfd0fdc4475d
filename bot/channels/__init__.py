"""A channel's quiz settings: topics, schedule, pause, and the ``/quiz config`` settings."""
