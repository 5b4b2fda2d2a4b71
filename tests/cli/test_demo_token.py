"""The demo's token: ``API_TOKEN`` wins; otherwise one generated once into ``PAI_MEMORY_HOME/api_token``."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from cli.demo_cmd import TOKEN_FILE, ensure_token


def test_a_generated_token_is_private_and_reused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("API_TOKEN", raising=False)
    assert ensure_token(tmp_path / "home") == str(tmp_path / "home" / TOKEN_FILE)
    first = os.environ["API_TOKEN"]
    path = tmp_path / "home" / TOKEN_FILE
    assert len(first) >= 32 and path.read_text().strip() == first
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    monkeypatch.delenv("API_TOKEN")
    ensure_token(tmp_path / "home")  # a later demo talks to the processes an earlier one left running
    assert os.environ["API_TOKEN"] == first


def test_api_token_from_the_environment_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("API_TOKEN", "mine")
    assert ensure_token(tmp_path) == "API_TOKEN"
    assert os.environ["API_TOKEN"] == "mine" and not (tmp_path / TOKEN_FILE).exists()
