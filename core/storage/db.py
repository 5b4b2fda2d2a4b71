"""Engine, sessions and schema migrations for the PostgreSQL truth."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS_DIR = Path(__file__).parent / "migrations"


def make_engine(url: str, pool_size: int = 5, max_overflow: int | None = None) -> Engine:
    """A pooled engine; connections are checked before use so a restarted server is survived.
    At most ``pool_size`` + ``max_overflow`` (default ``pool_size``) connections; the overflow ones are
    closed when returned, so a process whose concurrency hovers above ``pool_size`` opens and closes
    connections all the time (``max_overflow=0`` with a larger pool keeps them instead).

    ``hide_parameters``: errors never carry the bound parameters (users' message content); the
    logging filter of ``core.redaction`` also drops the server's DETAIL, which can quote a row.
    """
    return create_engine(
        url, pool_size=pool_size, max_overflow=pool_size if max_overflow is None else max_overflow,
        pool_pre_ping=True, pool_recycle=1800, future=True,
        hide_parameters=True,
    )


@lru_cache(maxsize=8)
def engine_for(url: str, pool_size: int = 5, max_overflow: int | None = None) -> Engine:
    """One engine per URL (and pool shape) per process."""
    return make_engine(url, pool_size, max_overflow)


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False, future=True)


@contextmanager
def transaction(factory: sessionmaker[Session]) -> Iterator[Session]:
    """One unit of work: commits on success, rolls back on any exception."""
    with factory() as session, session.begin():
        yield session


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS_DIR))
    cfg.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return cfg


def upgrade(url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str = "base") -> None:
    command.downgrade(alembic_config(url), revision)


def current_revision(url: str) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with make_engine(url).connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()
