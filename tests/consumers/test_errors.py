"""Error classification of the consumers: every class of error has one answer."""

from __future__ import annotations

import psycopg
import pytest
from confluent_kafka import KafkaError
from sqlalchemy.exc import DataError, IntegrityError, OperationalError, ProgrammingError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from consumers.errors import ErrorClass, FatalConsumerError, classify, describe, kafka_error_is_fatal
from core.config import ConfigError
from core.indexing import IndexSyncFailed
from core.memory.errors import InvalidMemoryInput
from core.memory.processing import PermanentProcessingError, TransientProcessingError
from core.vectorstore import IndexModelMismatch
from schemas.errors import SchemaError

SQL = "INSERT INTO messages (content) VALUES (%(content)s)"
PARAMS = {"content": "my secret diary entry"}


def db_error(cls: type[Exception], orig: Exception) -> Exception:
    return cls(SQL, PARAMS, orig)


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (db_error(OperationalError, psycopg.OperationalError("connection refused")), ErrorClass.TRANSIENT),
        (PoolTimeoutError("QueuePool limit reached"), ErrorClass.TRANSIENT),
        (TransientProcessingError("LLM 503"), ErrorClass.TRANSIENT),
        (IndexSyncFailed("milvus", [1], [1], "down"), ErrorClass.TRANSIENT),
        (ConnectionResetError("reset"), ErrorClass.TRANSIENT),
        (TimeoutError("slow"), ErrorClass.TRANSIENT),
        (db_error(IntegrityError, psycopg.errors.UniqueViolation("duplicate key")), ErrorClass.PERMANENT),
        (db_error(DataError, psycopg.errors.StringDataRightTruncation("too long")), ErrorClass.PERMANENT),
        (SchemaError("bad event"), ErrorClass.PERMANENT),
        (InvalidMemoryInput("noise key"), ErrorClass.PERMANENT),
        (PermanentProcessingError("attempts exhausted"), ErrorClass.PERMANENT),
        (db_error(ProgrammingError, psycopg.errors.UndefinedTable("no such relation")), ErrorClass.FATAL),
        (db_error(OperationalError, psycopg.errors.InvalidPassword("password authentication failed")),
         ErrorClass.FATAL),
        (FatalConsumerError("dlq"), ErrorClass.FATAL),
        (IndexModelMismatch("other model"), ErrorClass.FATAL),
        (ConfigError("bad setting"), ErrorClass.FATAL),
        (RuntimeError("a bug"), ErrorClass.UNKNOWN),
        (KeyError("x"), ErrorClass.UNKNOWN),
        (db_error(ProgrammingError, psycopg.errors.SyntaxError("syntax")), ErrorClass.UNKNOWN),
    ],
    ids=lambda v: type(v).__name__ if isinstance(v, Exception) else str(v),
)
def test_classify(exc: Exception, expected: ErrorClass) -> None:
    assert classify(exc) is expected


def test_describe_names_the_class_and_never_the_sql_or_its_parameters() -> None:
    exc = db_error(IntegrityError, psycopg.errors.UniqueViolation("duplicate key value\nDETAIL: Key (x)=(1)"))
    text = describe(exc)
    assert text == "IntegrityError: UniqueViolation: duplicate key value"
    assert "secret diary" not in text and "INSERT" not in text
    assert describe(RuntimeError("a\nb\x00c")) == "RuntimeError: a b\\0c"
    assert describe(KeyError()) == "KeyError"


def test_kafka_authentication_and_authorisation_errors_are_fatal() -> None:
    assert kafka_error_is_fatal(KafkaError(KafkaError._AUTHENTICATION))
    assert kafka_error_is_fatal(KafkaError(KafkaError.TOPIC_AUTHORIZATION_FAILED))
    assert kafka_error_is_fatal(KafkaError(KafkaError._FATAL, fatal=True))
    assert not kafka_error_is_fatal(KafkaError(KafkaError._TRANSPORT))
    assert not kafka_error_is_fatal(KafkaError(KafkaError._ALL_BROKERS_DOWN))
