"""Environments of the service child processes that tests start."""

from __future__ import annotations

import os
from pathlib import Path

from core.config import Settings
from localstack.process import free_port
from localstack.service import SERVICE_ENV, LocalService
from localstack.supervisor import FreePorts

ROUTING_FIELDS = (
    "KAFKA_BOOTSTRAP_SERVERS",
    "KAFKA_TOPIC_PARTITIONS",
    "TOPIC_CHAT_MESSAGES",
    "TOPIC_MEMORY_COMMANDS",
    "TOPIC_MEMORY_DIRTY",
    "GROUP_EXTRACTOR",
    "GROUP_COMMANDS",
    "GROUP_INDEXER",
    "MEMORY_MILVUS_COLLECTION",
)
"""The settings that decide which topics, groups and collection a process works on."""


def service_env(cfg: Settings, home: Path, **overrides: str) -> dict[str, str]:
    """Variables that point a child process at ``cfg``'s services, topics, groups and collection.

    ``PAI_MEMORY_HOME`` is ``home`` (the child's logs and state); ``API_PORT`` a free port (never the
    demo's 8080); ``overrides`` are applied last. Only these variables: the caller merges them over
    a base environment (see ``clean_env``).
    """
    env = {name: str(getattr(cfg, name)) for name in ROUTING_FIELDS}
    env.update(
        {
            "DATABASE_URL": cfg.database_url,
            "MEMORY_MILVUS_URI": cfg.milvus_uri,
            "PAI_MEMORY_HOME": str(home),
            "API_PORT": str(free_port()),
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.update(overrides)
    return env


def private_service(cfg: Settings, home: Path, **overrides: str) -> LocalService:
    """``LocalService`` for ``cfg`` whose processes bind only free ports (API and metrics), with
    ``service_env(cfg, home, **overrides)``: it runs beside the demo and a default deployment."""
    return LocalService(cfg, service_env(cfg, home, **overrides), metrics_port=FreePorts())


def clean_env(overrides: dict[str, str]) -> dict[str, str]:
    """This process's environment without any setting of the service, then ``overrides``.

    For a child started directly: no variable inherited from the test runner can point it elsewhere.
    """
    base = {k: v for k, v in os.environ.items() if k not in Settings.model_fields}
    return {**base, **overrides}


PIPELINE_ENV: dict[str, str] = {
    **SERVICE_ENV,
    "LONG_TERM_MEMORY_DEBOUNCE_SEC": "0.3",
    "OUTBOX_SWEEP_INTERVAL_SEC": "1",
}
"""The whole pipeline as the demo runs it (``SERVICE_ENV``: indexing on) with test-short intervals."""
