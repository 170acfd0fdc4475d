"""Errors raised by the storage layer, each with a message that says what to do."""

from __future__ import annotations

from bot.kernel.errors import QuizError


class StorageError(QuizError):
    """Base class of the errors the stores raise on purpose."""


class SchemaTooNewError(StorageError):
    """The database was migrated by a newer quizbot than this one."""


class MigrationError(StorageError):
    """The migration files are inconsistent, or one of them failed to apply."""


class NotFoundError(StorageError, LookupError):
    """A row the caller named by id does not exist."""


class StoreClosedError(StorageError):
    """The store was used after ``close()``."""


class StoreUnavailableError(StorageError):
    """The database server could not be reached or refused the connection."""
