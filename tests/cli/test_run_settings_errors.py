"""`quizbot run` with settings it cannot use: one line per problem, naming the setting or the
file, never a traceback or a validation library's own report."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.cli.main import main


@pytest.fixture(autouse=True)
def _isolated_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no stray .env
    for name in ("PLATFORM", "TIMEZONE", "GRACE_HOURS", "DB_PATH"):
        monkeypatch.delenv(f"QUIZBOT_{name}", raising=False)


def test_a_bad_value_names_its_setting_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "quizbot.toml"
    config.write_text('timezone = "Mars/Olympus"\ngrace_hours = "soon"\n')
    assert main(["run", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert "quizbot: QUIZBOT_TIMEZONE: " in err and "unknown timezone 'Mars/Olympus'" in err
    assert "quizbot: QUIZBOT_GRACE_HOURS: " in err
    assert "errors.pydantic.dev" not in err


def test_a_config_file_that_is_not_toml_is_named_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "quizbot.toml"
    config.write_text("x = [\n")
    assert main(["run", "--config", str(config)]) == 2
    assert f"quizbot: {config} is not valid TOML" in capsys.readouterr().err
