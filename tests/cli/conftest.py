"""Fixtures for the CLI: the fake Discord that ``quizbot discord`` asks for the application id."""

from tests.discord.conftest import fake

__all__ = ["fake"]
