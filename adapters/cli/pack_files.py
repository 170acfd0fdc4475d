"""Writing pack files from the command line: nothing half-written, nothing overwritten
unless asked."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from bot.kernel.errors import QuizError
from questions.loader import PackError, parse_pack
from questions.pack import Pack
from questions.seed_import import pack_to_yaml

SCHEMA_HINT = "# A quizbot question pack; check it with `quizbot packs validate FILE`.\n"


class PackWriteFailed(QuizError):
    """A pack could not be made or written; the message says why."""


def write_new_file(path: Path, text: str, *, overwrite: bool) -> None:
    """Write via a temporary file and a rename, so a failure leaves nothing half-written."""
    if path.exists() and not overwrite:
        raise PackWriteFailed(f"{path} already exists; pass --force to overwrite it")
    for folder in (path.parent, *path.parent.parents):
        if folder.exists() and not folder.is_dir():
            raise PackWriteFailed(f"{folder} is a file, not a directory")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PackWriteFailed(f"{path.parent}: cannot create: {exc.strerror}") from None
    mode = _file_mode(path)
    try:
        handle, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".tmp"
        )
    except OSError as exc:  # a folder this user may not write
        raise PackWriteFailed(f"{path}: cannot write: {exc.strerror}") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.chmod(temporary, mode)  # mkstemp makes it 0600, readable by its owner alone
        os.replace(temporary, path)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise PackWriteFailed(f"{path}: cannot write: {exc.strerror}") from None


def _file_mode(path: Path) -> int:
    """The mode of the file being replaced, or a new file's: 0666 less the umask."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def pack_text(pack: Pack, out: Path) -> str:
    """The YAML of ``pack``, checked to load back as the same pack."""
    text = SCHEMA_HINT + pack_to_yaml(pack)
    try:
        reloaded: Pack | None = parse_pack(text, out)
    except PackError:
        reloaded = None
    if reloaded != pack:
        raise PackWriteFailed("internal error: the generated YAML does not load back identically")
    return text
