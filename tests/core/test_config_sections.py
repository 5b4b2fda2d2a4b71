"""The configuration sections: ``Settings`` is every section, so a component typed with a section takes
the whole ``Settings`` unchanged, and a section built alone gives that component the same answer."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from core.config import (
    ApiSettings,
    EmbeddingSettings,
    ExtractionSettings,
    IndexingSettings,
    KafkaSettings,
    LimitSettings,
    LLMSettings,
    ObservabilitySettings,
    RetrievalSettings,
    Settings,
    StorageSettings,
    load_settings,
)
from core.config.docs import SECTIONS
from localstack.topics import service_topics
from producers.kafka_config import client_config

ALL_SECTIONS = (KafkaSettings, StorageSettings, ExtractionSettings, LLMSettings, EmbeddingSettings,
                IndexingSettings, RetrievalSettings, LimitSettings, ApiSettings, ObservabilitySettings)


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in Settings.model_fields:
        for key in [k for k in os.environ if k.upper() == name]:
            monkeypatch.delenv(key)
    monkeypatch.chdir(tmp_path)


def test_settings_is_every_section_and_each_variable_has_one_section() -> None:
    assert {section for _, section in SECTIONS} == set(ALL_SECTIONS)
    for section in ALL_SECTIONS:
        assert issubclass(Settings, section)
    owners = [name for section in ALL_SECTIONS for name in section.model_fields]
    assert len(owners) == len(set(owners)) == len(Settings.model_fields)


def test_a_section_alone_answers_as_the_whole_settings(clean_env: None) -> None:
    whole = load_settings()
    kafka = KafkaSettings()
    assert service_topics(kafka) == service_topics(whole)
    assert client_config(kafka) == client_config(whole)
    assert kafka.dlq_topic("g") == whole.dlq_topic("g") == "g.dlq"
    storage = StorageSettings()
    assert (storage.milvus_uri, storage.milvus_is_local) == (whole.milvus_uri, whole.milvus_is_local)
    embedding = EmbeddingSettings()
    assert (embedding.embedding_provider, embedding.embedding_model, embedding.embedding_dim) == (
        whole.embedding_provider, whole.embedding_model, whole.embedding_dim)
    indexing = IndexingSettings(MEMORY_INDEX_WORKER_ENABLED=True, MEMORY_INDEX_SWEEP_ENABLED=False)
    assert (indexing.indexer_enabled, indexing.index_sweep_enabled) == (True, False)
