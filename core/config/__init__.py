"""The one place configuration lives.

The variables of the original design keep their names and defaults (``docs/design.md``, "Where
this differs from the original design"). Connection settings (Kafka, PostgreSQL, Milvus), providers,
topic names and process ports are added beside them. Values come from the environment (and an
optional ``.env`` file); secrets are ``SecretStr`` and never printed. The reference of every variable,
``docs/configuration.md``, is generated from the fields (``python -m core.config.docs``; a test fails
when it is stale).

Modules: ``sections`` (one section class per area: ``KafkaSettings``, ``StorageSettings``,
``ExtractionSettings``, ``LLMSettings``, ``EmbeddingSettings``, ``IndexingSettings``,
``RetrievalSettings``, ``LimitSettings``, ``ApiSettings``, ``ObservabilitySettings``), ``settings``
(``Settings`` combines them and holds the cross-section checks and the effective values;
``load_settings``/``get_settings``), ``aliases`` (renamed variables), ``local`` (the local stack's
ports and model), ``dedup`` (the semantic-dedup calibration), ``choices``, ``errors``, ``docs``.
Processes build one ``Settings``; a component that reads one area types its parameter with that
area's section (``Settings`` is every section, so callers pass it unchanged).

Naming rule (the environment variable is the field's name):

1. The original design's variables keep their names: they are the spec (``LONG_TERM_MEMORY_*``,
   ``MEMORY_INDEX_WORKER_*``, ``MEMORY_EMBEDDING_MODEL``/``_DIM``, ``MEMORY_MILVUS_ENABLED``/``_URI``/
   ``_COLLECTION``).
2. Names given by an outside convention or by the event contract keep theirs: ``DATABASE_URL``,
   ``KAFKA_*`` (librdkafka's client settings), ``OTEL_*`` (the OpenTelemetry SDK's), ``TOPIC_*``,
   ``GROUP_*`` and ``DLQ_TOPIC_SUFFIX`` (the constants of ``schemas.topics``).
3. Every other variable is ``<PREFIX>_<WHAT>[_<UNIT>]``, where PREFIX is the one prefix of the component
   it configures: consumer loops ``CONSUMER_`` (``CONSUMER_<GROUP>_`` for one group's own bounds),
   PostgreSQL ``DATABASE_``, Milvus ``MEMORY_MILVUS_``, the extractor ``MEMORY_EXTRACTOR_``, semantic
   dedup ``MEMORY_DEDUP_``, a message's attempts and re-drives ``MEMORY_MESSAGE_``, the LLM endpoint
   ``LLM_``, embeddings ``MEMORY_EMBEDDING_``, the index side ``MEMORY_INDEX_`` (``MEMORY_INDEXER_ENABLED``
   its process switch), the outbox relay ``OUTBOX_``, the dense read path ``RETRIEVAL_DENSE_``, episodes
   ``EPISODE_`` (``EPISODES_ENABLED`` their switch), per-user bounds ``LONG_TERM_MEMORY_MAX_``, the HTTP
   API ``API_``, the MCP server ``MCP_``, the console ``CONSOLE_``, metrics ``METRICS_``, process files
   ``PAI_MEMORY_``. Durations end in ``_SEC`` (``_HOURS``/``_DAYS`` when long), switches in ``_ENABLED``,
   caps in ``_MAX_<WHAT>``.

A variable renamed to follow the rule keeps its old name as a deprecated alias (``aliases.RENAMED``):
still read, one warning naming the new variable, listed in ``docs/configuration.md``.

``LONG_TERM_MEMORY_DEFAULT_TTL_DAYS`` defaults to 180 days; why not 730 is in the same section of
``docs/design.md``.

Invariant: ``load_settings()`` either returns a fully valid ``Settings`` or raises
``ConfigError`` whose message is one line naming the offending variable.
"""

from __future__ import annotations

from core.config.aliases import RENAMED
from core.config.choices import EmbeddingProvider, ExtractorProvider, RetrieveMode
from core.config.dedup import (
    DEDUP_CALIBRATION_PATH,
    DEDUP_LEXICAL_MERGE,
    DEDUP_LEXICAL_REUSE,
    DEDUP_THRESHOLDS,
    load_dedup_calibration,
)
from core.config.errors import ConfigError
from core.config.local import (
    LOCAL_EMBEDDING_DIM,
    LOCAL_EMBEDDING_MODEL,
    LOCAL_KAFKA_CONTROLLER_PORT,
    LOCAL_KAFKA_PORT,
    LOCAL_MILVUS_PORT,
    LOCAL_POSTGRES_PASSWORD_FILE,
    LOCAL_POSTGRES_PORT,
    local_postgres_password,
)
from core.config.sections import (
    ApiSettings,
    EmbeddingSettings,
    ExtractionSettings,
    IndexingSettings,
    KafkaSettings,
    LimitSettings,
    LLMSettings,
    ObservabilitySettings,
    RetrievalSettings,
    StorageSettings,
)
from core.config.settings import Settings, get_settings, load_settings

__all__ = [
    "DEDUP_CALIBRATION_PATH",
    "DEDUP_LEXICAL_MERGE",
    "DEDUP_LEXICAL_REUSE",
    "DEDUP_THRESHOLDS",
    "LOCAL_EMBEDDING_DIM",
    "LOCAL_EMBEDDING_MODEL",
    "LOCAL_KAFKA_CONTROLLER_PORT",
    "LOCAL_KAFKA_PORT",
    "LOCAL_MILVUS_PORT",
    "LOCAL_POSTGRES_PASSWORD_FILE",
    "LOCAL_POSTGRES_PORT",
    "RENAMED",
    "ApiSettings",
    "ConfigError",
    "EmbeddingProvider",
    "EmbeddingSettings",
    "ExtractionSettings",
    "ExtractorProvider",
    "IndexingSettings",
    "KafkaSettings",
    "LLMSettings",
    "LimitSettings",
    "ObservabilitySettings",
    "RetrievalSettings",
    "RetrieveMode",
    "Settings",
    "StorageSettings",
    "get_settings",
    "load_dedup_calibration",
    "load_settings",
    "local_postgres_password",
]
