"""Classification of processing errors in the consumers: transient, permanent, fatal, unknown.

- ``TRANSIENT``: the world is briefly unwell (a connection, a timeout, a locked row): retry the same
  work with backoff; nothing is marked done meanwhile and the partition waits behind it.
- ``PERMANENT``: this record can never succeed (schema, integrity or data errors, a domain
  rejection): dead-letter it with the reason, mark it done, the partition moves on.
- ``FATAL``: the process cannot do its job (broker authentication, a dead-letter topic that cannot
  be written, a database without our tables, misconfiguration): stop with one clear log line and a
  non-zero exit code; nothing is marked done, so a restarted (fixed) process starts where this one
  stopped. A fatal error is never attributed to a record, so it cannot crash-loop on one.
- ``UNKNOWN``: anything else raised while processing one record: retried with backoff a bounded
  number of times (``CONSUMER_MAX_RECORD_ATTEMPTS``), then handled as permanent.
"""

from __future__ import annotations

import enum

from confluent_kafka import KafkaError
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from core.config import ConfigError
from core.embedding.base import EmbeddingError
from core.indexing import IndexSyncFailed
from core.memory.errors import InvalidMemoryInput
from core.memory.processing import PermanentProcessingError, TransientProcessingError
from core.vectorstore import IndexModelMismatch, VectorStoreError
from schemas.errors import SchemaError


class ErrorClass(enum.StrEnum):
    TRANSIENT = "transient"
    PERMANENT = "permanent"
    FATAL = "fatal"
    UNKNOWN = "unknown"


class FatalConsumerError(RuntimeError):
    """The consumer process must stop (see the module docstring); ``str`` is the one-line reason."""


# PostgreSQL SQLSTATE classes that mean the database is not the one we expect (not migrated, no
# privilege, wrong credentials): 42P01 undefined table, 42703 undefined column, 42501 insufficient
# privilege, 28xxx invalid authorization, 3D000 invalid catalog (database) name.
_FATAL_SQLSTATES = ("42P01", "42703", "42501", "28", "3D000")

# librdkafka errors that no retry will fix (the client's own retriable errors never reach us as fatal)
_FATAL_KAFKA_CODES = frozenset(
    {
        KafkaError._AUTHENTICATION,
        KafkaError.SASL_AUTHENTICATION_FAILED,
        KafkaError.TOPIC_AUTHORIZATION_FAILED,
        KafkaError.GROUP_AUTHORIZATION_FAILED,
        KafkaError.CLUSTER_AUTHORIZATION_FAILED,
        KafkaError._SSL,
        KafkaError._INVALID_ARG,
    }
)

_TRANSIENT = (
    OperationalError,
    InterfaceError,
    PoolTimeoutError,
    TransientProcessingError,
    IndexSyncFailed,
    VectorStoreError,
    EmbeddingError,
    ConnectionError,
    TimeoutError,
)
_PERMANENT = (SchemaError, IntegrityError, DataError, InvalidMemoryInput, PermanentProcessingError)
_FATAL = (FatalConsumerError, IndexModelMismatch, ConfigError)


def _sqlstate(exc: DBAPIError) -> str:
    return str(getattr(exc.orig, "sqlstate", None) or "")


def classify(exc: BaseException) -> ErrorClass:
    """The class of ``exc`` raised while processing one record (see the module docstring)."""
    if isinstance(exc, _FATAL):
        return ErrorClass.FATAL
    if isinstance(exc, DBAPIError):
        state = _sqlstate(exc)
        if state and any(state.startswith(prefix) for prefix in _FATAL_SQLSTATES):
            return ErrorClass.FATAL
        if exc.connection_invalidated:
            return ErrorClass.TRANSIENT
    if isinstance(exc, _PERMANENT):
        return ErrorClass.PERMANENT
    if isinstance(exc, _TRANSIENT):
        return ErrorClass.TRANSIENT
    return ErrorClass.UNKNOWN


def kafka_error_is_fatal(err: KafkaError) -> bool:
    """True for client errors no retry fixes (authentication/authorisation, bad configuration)."""
    return bool(err.fatal()) or err.code() in _FATAL_KAFKA_CODES


def describe(exc: BaseException, limit: int = 1000) -> str:
    """A one-line reason ``ExceptionClass: message`` for logs and dead letters.

    For database errors only the driver's first line is kept (never the SQL or its parameters,
    which may hold users' message content).
    """
    if isinstance(exc, DBAPIError):
        inner = exc.orig if exc.orig is not None else exc
        first = (str(inner).strip().splitlines() or [""])[0]
        text = f"{type(exc).__name__}: {type(inner).__name__}: {first}"
    else:
        message = " ".join(str(exc).split())
        text = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return text.replace("\x00", "\\0")[:limit]
