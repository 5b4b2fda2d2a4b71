"""The relay's wake-up: LISTEN on the outbox channel (a trigger NOTIFYs on every outbox insert)."""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

import psycopg
from psycopg import sql
from sqlalchemy import make_url

log = logging.getLogger(__name__)

NOTIFY_CHANNEL = "pai_memory_outbox"


def libpq_conninfo(database_url: str) -> str:
    """A libpq URI (for psycopg) from the SQLAlchemy URL ``postgresql+psycopg://...``."""
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


class NotificationListener:
    """LISTENs on the outbox channel on its own autocommit psycopg connection (opened lazily).

    ``wait(timeout)`` returns True when a notification arrived (pending ones are consumed too), or
    after (re)connecting, since notifications may have been missed meanwhile; False on timeout.
    """

    def __init__(self, conninfo: str, channel: str = NOTIFY_CHANNEL) -> None:
        self.conninfo = conninfo
        self.channel = channel
        self._conn: psycopg.Connection[Any] | None = None
        self.notifications = 0

    def _connect(self) -> None:
        conn = psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5)
        conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
        self._conn = conn

    def wait(self, timeout: float) -> bool:
        try:
            if self._conn is None or self._conn.closed:
                self._connect()
                return True
            assert self._conn is not None
            got = sum(1 for _ in self._conn.notifies(timeout=max(timeout, 0.0), stop_after=1))
            if got:
                got += sum(1 for _ in self._conn.notifies(timeout=0.0))
            self.notifications += got
            return got > 0
        except psycopg.Error as exc:
            log.warning("LISTEN %s connection failed (sweeps continue): %s", self.channel, exc)
            self.close()
            time.sleep(min(max(timeout, 0.0), 1.0))
            return False

    def close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(psycopg.Error):
                self._conn.close()
            self._conn = None
