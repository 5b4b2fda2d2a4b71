"""Configuration: the original design's defaults, one-line errors naming the variable, masked secrets."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.config import ConfigError, Settings, load_settings

SEED_DEFAULTS = {
    "LONG_TERM_MEMORY_ENABLED": True,
    "LONG_TERM_MEMORY_RETRIEVE_MODE": "full_inject",
    "LONG_TERM_MEMORY_MIN_CONFIDENCE": 0.75,
    "LONG_TERM_MEMORY_MAX_WRITE_ITEMS": 6,
    "LONG_TERM_MEMORY_RETRIEVE_LIMIT": 6,
    "LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT": 80,
    "LONG_TERM_MEMORY_DEFAULT_TTL_DAYS": 180,
    "LONG_TERM_MEMORY_DEBOUNCE_SEC": 12,
    "LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC": 90,
    "LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC": 90,
    "LONG_TERM_MEMORY_EXTRACT_CONTEXT_MAX_CHARS": 8000,
    "LONG_TERM_MEMORY_SCAN_ENABLED": True,
    "LONG_TERM_MEMORY_SCAN_INTERVAL_SEC": 120,
    "MEMORY_INDEX_WORKER_ENABLED": False,
    "MEMORY_INDEX_WORKER_INTERVAL_SEC": 30,
    "MEMORY_INDEX_WORKER_BATCH_SIZE": 32,
    "MEMORY_EMBEDDING_MODEL": "text-embedding-3-small",
    "MEMORY_EMBEDDING_DIM": 1536,
    "MEMORY_MILVUS_ENABLED": False,
    "MEMORY_MILVUS_URI": None,
    "MEMORY_MILVUS_COLLECTION": "memory_text_v1",
}

BAD_VALUES = [
    ("LONG_TERM_MEMORY_RETRIEVE_MODE", "sparse"),
    ("LONG_TERM_MEMORY_DEFAULT_TTL_DAYS", "-5"),
    ("DATABASE_URL", "not a url"),
    ("DATABASE_URL", "mysql://root@db/x"),
    ("MEMORY_MILVUS_URI", "ftp://milvus:19530"),
    ("LLM_BASE_URL", "localhost:8000/v1"),
    ("KAFKA_BOOTSTRAP_SERVERS", "broker-without-port"),
    ("LONG_TERM_MEMORY_MIN_CONFIDENCE", "1.5"),
]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> dict[str, str]:
    """An environment without any pai-memory variable, run from an empty folder (no .env)."""
    for name in Settings.model_fields:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)
    return {k: v for k, v in os.environ.items() if k.upper() not in Settings.model_fields}


def _cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    repo = Path(__file__).resolve().parents[2]
    env = {**env, "PYTHONPATH": str(repo)}
    return subprocess.run([sys.executable, "-m", "cli.main", *args], env=env, capture_output=True, text=True,
                          timeout=60)


def test_seed_defaults(clean_env: dict[str, str]) -> None:
    settings = load_settings()
    for name, value in SEED_DEFAULTS.items():
        actual = getattr(settings, name)
        assert (actual.value if hasattr(actual, "value") else actual) == value, name


@pytest.mark.parametrize(("name", "value"), BAD_VALUES)
def test_invalid_value_fails_with_one_line_naming_the_variable(
        clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as info:
        load_settings()
    message = str(info.value)
    assert name in message
    assert "\n" not in message


@pytest.mark.parametrize(("name", "value"), BAD_VALUES[:3] + BAD_VALUES[4:6])
def test_config_show_exits_2_with_one_line(clean_env: dict[str, str], name: str, value: str) -> None:
    result = _cli({**clean_env, name: value}, "config", "show")
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert name in lines[0]
    assert "Traceback" not in result.stderr


def test_config_show_masks_secrets(clean_env: dict[str, str]) -> None:
    secret = "pl4nted-S3cret-value"
    env = {
        **clean_env,
        "DATABASE_URL": f"postgresql://app:{secret}@db.example:5432/pai",
        "LLM_BASE_URL": "https://llm.example/v1",
        "LLM_API_KEY": secret,
        "MEMORY_EMBEDDING_API_KEY": secret,
        "KAFKA_SASL_PASSWORD": secret,
        "KAFKA_CLIENT_OPTIONS": json.dumps({"ssl.key.password": secret, "client.id": "x"}),
        "MEMORY_MILVUS_TOKEN": secret,
        "API_TOKEN": secret,
    }
    result = _cli(env, "config", "show")
    assert result.returncode == 0, result.stderr
    assert secret not in result.stdout + result.stderr
    shown = json.loads(result.stdout)
    assert shown["LLM_API_KEY"] == "**********"
    assert shown["KAFKA_CLIENT_OPTIONS"]["client.id"] == "x"
    assert shown["effective"]["database_url"].startswith("postgresql+psycopg://app:")
    assert shown["LONG_TERM_MEMORY_DEFAULT_TTL_DAYS"] == 180


@pytest.mark.parametrize(("env", "indexer", "sweep"), [
    ({}, False, False),
    ({"MEMORY_INDEX_WORKER_ENABLED": "true"}, True, True),  # the deprecated alias sets both
    ({"MEMORY_INDEXER_ENABLED": "true"}, True, False),
    ({"MEMORY_INDEX_SWEEP_ENABLED": "true"}, False, True),
    ({"MEMORY_INDEX_WORKER_ENABLED": "true", "MEMORY_INDEX_SWEEP_ENABLED": "false"}, True, False),
    ({"MEMORY_INDEX_WORKER_ENABLED": "false", "MEMORY_INDEXER_ENABLED": "true"}, True, False),
])
def test_one_switch_for_the_indexer_and_one_for_the_sweep(
    clean_env: dict[str, str], monkeypatch: pytest.MonkeyPatch, env: dict[str, str], indexer: bool,
    sweep: bool,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings = load_settings()
    assert (settings.indexer_enabled, settings.index_sweep_enabled) == (indexer, sweep)
    assert settings.masked()["effective"]["indexer_enabled"] is indexer
