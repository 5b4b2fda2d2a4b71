"""Helpers for the operations tests (verify, lifecycle, erasure, replay, reindex): run the real relay
and indexer in threads, export settings to the environment for the CLI, wait for the index to settle."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from enum import Enum

import pytest
from pydantic import SecretStr
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session, sessionmaker

from consumers.processes import indexer_loop
from core.config import Settings
from core.storage.models import VectorCollection
from core.vectorstore import MilvusMemoryIndex
from localstack.process import wait_until
from localstack.settle import pipeline_progress
from producers.outbox_relay import OutboxRelay
from tests.support.pipeline import running


@contextmanager
def relay_running(settings: Settings, interval: float = 0.2) -> Iterator[OutboxRelay]:
    """The real outbox relay draining the outbox every ``interval`` seconds in a thread."""
    relay = OutboxRelay(settings)
    stop = threading.Event()
    errors: list[BaseException] = []

    def loop() -> None:
        try:
            while not stop.is_set():
                relay.drain(stop)
                stop.wait(interval)
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    thread = threading.Thread(target=loop, daemon=True, name="test-relay")
    thread.start()
    try:
        yield relay
    finally:
        stop.set()
        thread.join(30)
        relay.close()
        if errors:
            raise errors[0]


@contextmanager
def index_pipeline(settings: Settings) -> Iterator[None]:
    """Relay + indexer consumer running for the duration of the block."""
    with ExitStack() as stack:
        stack.enter_context(relay_running(settings))
        stack.enter_context(running(indexer_loop(settings)))
        yield


def wait_settled(engine: Engine, timeout: float = 90.0) -> None:
    """Every memory SYNCED and the outbox drained (``localstack.settle``); ``WaitTimeout`` otherwise."""
    sessions = sessionmaker(engine)
    wait_until(lambda: pipeline_progress(sessions).indexed, timeout,
               what="every memory SYNCED and the outbox drained")


def export_settings(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """Put every non-default field of ``settings`` in the environment, so ``load_settings()`` (the CLI)
    sees the same configuration."""
    defaults = Settings.model_construct()
    for name in Settings.model_fields:
        value = getattr(settings, name)
        if value == getattr(defaults, name, None) or value is None:
            continue
        if isinstance(value, SecretStr):
            text = value.get_secret_value()
        elif isinstance(value, Enum):
            text = str(value.value)
        elif isinstance(value, dict | list):
            text = json.dumps(value)
        elif isinstance(value, bool):
            text = "true" if value else "false"
        else:
            text = str(value)
        monkeypatch.setenv(name, text)


def drop_collections(settings: Settings, engine: Engine) -> None:
    """Drop every Milvus collection registered in the test database (and the configured one)."""
    index = MilvusMemoryIndex.from_settings(settings)
    try:
        with Session(engine) as s:
            names = set(s.scalars(select(VectorCollection.name)).all())
        names.add(settings.MEMORY_MILVUS_COLLECTION)
        names.add(settings.episode_collection)
        for name in names:
            if index.has_collection(name):
                index.drop_collection(name)
    finally:
        index.close()
