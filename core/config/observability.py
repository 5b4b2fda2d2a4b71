"""``ObservabilitySettings``: the metrics endpoint, traces, the working and cache folders (a section of
``Settings``, in its own module to keep ``sections.py`` within its size; re-exported there)."""

from __future__ import annotations

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings


class ObservabilitySettings(BaseSettings):
    """Observability and process files: the metrics endpoint, the working and cache folders."""

    METRICS_PORT: int | None = Field(None, ge=1, le=65535, description="Prometheus `/metrics` port; unset: "
                                                                       "off")
    METRICS_HOST: str = Field("127.0.0.1", description="`/metrics` bind address; 0.0.0.0 in containers so "
                                                       "Prometheus can scrape")
    OTEL_ENABLED: bool = Field(
        False, description="traces (OpenTelemetry): each process exports its spans over OTLP/HTTP and W3C "
                           "trace context rides in Kafka headers")
    OTEL_EXPORTER_OTLP_ENDPOINT: str | None = Field(
        None, description="OTLP/HTTP collector; unset: the SDK's http://localhost:4318 (spans go to "
                          "/v1/traces)")
    OTEL_SERVICE_NAME: str | None = Field(None, min_length=1, max_length=255,
                                          description="service name of the spans; unset: "
                                                      "`pai-memory-<process>`")
    PAI_MEMORY_HOME: str = Field("var", validation_alias=AliasChoices("PAI_MEMORY_HOME"),
                                 description="working folder of the local stack (data, logs, the PostgreSQL "
                                             "password file)")
    PAI_MEMORY_CACHE_DIR: str | None = Field(
        None, description="downloaded Kafka jars; unset: `$XDG_CACHE_HOME/pai-memory`")
