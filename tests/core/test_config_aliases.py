"""Renamed variables (``core.config.aliases.RENAMED``): every old name is still read, from the environment,
from ``.env`` and as a keyword, logs one deprecation warning naming the new variable, and loses to the new
name when both are set."""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

import pytest
from pydantic import AliasChoices, SecretStr

from core.config import RENAMED, Settings, load_settings

# old name -> (value set in the environment, the field's value expected)
OLD_VALUES: dict[str, tuple[str, Any]] = {
    "EXTRACTOR_MAX_IN_FLIGHT": ("7", 7),
    "EXTRACTOR_MAX_BUFFERED_RECORDS": ("123", 123),
    "COMMANDS_MAX_BATCH": ("9", 9),
    "MILVUS_TOKEN": ("tok-en", "tok-en"),
    "MILVUS_TIMEOUT_SEC": ("4.5", 4.5),
    "EXTRACTION_BURST_BUDGET_SEC": ("33", 33.0),
    "MEMORY_RULES_CLASSIFIER": ("false", False),
    "INDEXER_MAX_IN_FLIGHT_BATCHES": ("3", 3),
    "API_INGEST_TIMEOUT_SECONDS": ("2.5", 2.5),
    "API_JOBS_POLL_SECONDS": ("0.7", 0.7),
    "API_JOBS_LEASE_SECONDS": ("99", 99.0),
    "TRUSTED_PROXIES": ("10.0.0.0/8", "10.0.0.0/8"),
}

# a second valid value per old name, to see that the new name's value is the one taken
OTHER_VALUE: dict[str, str] = {old: "1" for old in OLD_VALUES} | {
    "MILVUS_TOKEN": "other", "MEMORY_RULES_CLASSIFIER": "true", "TRUSTED_PROXIES": "127.0.0.1/32",
}


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No pai-memory variable (new or old name) in the environment, run from an empty folder (no .env)."""
    for name in [*Settings.model_fields, *RENAMED]:
        for key in [k for k in os.environ if k.upper() == name]:
            monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _value(settings: Settings, name: str) -> Any:
    value = getattr(settings, name)
    return value.get_secret_value() if isinstance(value, SecretStr) else value


def _warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "core.config" and r.levelno == logging.WARNING]


def test_every_renamed_field_accepts_its_old_name() -> None:
    assert set(OLD_VALUES) == set(RENAMED)
    for old, new in RENAMED.items():
        assert old not in Settings.model_fields, old
        alias = Settings.model_fields[new].validation_alias
        assert isinstance(alias, AliasChoices) and alias.choices == [new, old], new


@pytest.mark.parametrize("old", sorted(RENAMED))
def test_an_old_name_in_the_environment_still_works_and_warns(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, old: str) -> None:
    raw, expected = OLD_VALUES[old]
    monkeypatch.setenv(old, raw)
    with caplog.at_level(logging.WARNING, logger="core.config"):
        settings = load_settings()
    assert _value(settings, RENAMED[old]) == expected
    warnings = _warnings(caplog)
    assert len(warnings) == 1, warnings
    assert old in warnings[0] and RENAMED[old] in warnings[0] and "deprecated" in warnings[0]


@pytest.mark.parametrize("old", sorted(RENAMED))
def test_the_new_name_alone_does_not_warn_and_wins_over_the_old(
        clean_env: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, old: str) -> None:
    raw, expected = OLD_VALUES[old]
    new = RENAMED[old]
    monkeypatch.setenv(new, raw)
    with caplog.at_level(logging.WARNING, logger="core.config"):
        assert _value(load_settings(), new) == expected
    assert _warnings(caplog) == []
    monkeypatch.setenv(old, OTHER_VALUE[old])
    assert _value(load_settings(), new) == expected


def test_an_old_name_in_dot_env_and_as_a_keyword(
        clean_env: Path, caplog: pytest.LogCaptureFixture) -> None:
    (clean_env / ".env").write_text("EXTRACTOR_MAX_IN_FLIGHT=5\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="core.config"):
        settings = load_settings(API_JOBS_POLL_SECONDS=1.5)
    assert (settings.CONSUMER_EXTRACTOR_MAX_IN_FLIGHT, settings.API_JOBS_POLL_SEC) == (5, 1.5)
    warnings = _warnings(caplog)
    assert len(warnings) == 2, warnings
    assert any("CONSUMER_EXTRACTOR_MAX_IN_FLIGHT" in w for w in warnings)
    assert any("API_JOBS_POLL_SEC" in w for w in warnings)
