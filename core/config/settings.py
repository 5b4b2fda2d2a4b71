"""``Settings``: every section combined, the cross-section checks and the effective values derived
from them; ``load_settings()`` / ``get_settings()`` build it from the environment (and ``.env``).

Invariant: ``load_settings()`` either returns a fully valid ``Settings`` or raises
``ConfigError`` whose message is one line naming the offending variable.
"""

from __future__ import annotations

import json
from enum import StrEnum
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from pydantic import SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import SettingsConfigDict

from core.config.aliases import warn_old_names
from core.config.choices import EmbeddingProvider, ExtractorProvider
from core.config.dedup import DEDUP_THRESHOLDS
from core.config.errors import ConfigError
from core.config.local import (
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
from core.redaction import mask_client_options, mask_url, mask_value, redact_credentials, register_settings

ENV_FILE = ".env"


def _check_url(name: str, value: str, schemes: tuple[str, ...]) -> str:
    parsed = urlparse(value)
    if parsed.scheme not in schemes or not (parsed.hostname or parsed.path):
        raise ValueError(f"{name} must be a URL with scheme {'/'.join(schemes)}, got {value!r}")
    return value


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
    """Effective configuration of every pai-memory process: the sections of ``core.config.sections``, one
    class per area (a new variable goes into its area's section; the variable name is the environment
    variable), plus the cross-section validation and the effective values that read several sections."""

    model_config = SettingsConfigDict(
        env_file=ENV_FILE,
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
        populate_by_name=True,
    )

    @model_validator(mode="before")
    @classmethod
    def _old_names(cls, data: Any) -> Any:
        """Log a deprecation warning for each renamed variable still set under its old name."""
        given = data.keys() if isinstance(data, dict) else ()
        warn_old_names(given, ENV_FILE)
        return data

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
        """The effective per-burst extraction budget (see ``MEMORY_EXTRACTOR_BURST_BUDGET_SEC``)."""
        if self.MEMORY_EXTRACTOR_BURST_BUDGET_SEC is not None:
            return self.MEMORY_EXTRACTOR_BURST_BUDGET_SEC
        if self.extractor_provider is ExtractorProvider.OPENAI:
            return 2 * self.LONG_TERM_MEMORY_EXTRACT_TIMEOUT_SEC + 10
        return 20.0

    @property
    def extractor_provider(self) -> ExtractorProvider:
        """``openai`` when an LLM endpoint is configured, else the offline ``rules`` extractor."""
        if self.MEMORY_EXTRACTOR_PROVIDER is not None:
            return self.MEMORY_EXTRACTOR_PROVIDER
        return ExtractorProvider.OPENAI if self.LLM_BASE_URL else ExtractorProvider.RULES

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
        password = local_postgres_password(Path(self.PAI_MEMORY_HOME))
        user = f"postgres:{password}" if password else "postgres"
        return f"postgresql+psycopg://{user}@127.0.0.1:{LOCAL_POSTGRES_PORT}/pai_memory"

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
            else f" (got {redact_credentials(json.dumps(value, default=str))[:80]})"
        )
        msg = redact_credentials(first.get("msg", "invalid value").removeprefix("Value error, "))
        raise ConfigError(f"invalid configuration: {loc}: {msg}{shown}") from None
    register_settings(settings)
    return settings


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """Process-wide settings, loaded once."""
    return load_settings()
