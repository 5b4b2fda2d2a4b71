"""``last_accessed_at`` of returned memories, written off the request path (best effort)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence

from sqlalchemy import text
from sqlalchemy.orm import Session, sessionmaker

from core.memory.reader import touch
from core.redaction import one_line_error
from core.storage.db import transaction

log = logging.getLogger("core.retrieval")  # the retrieval's one logger name, as before the split

TOUCH_LOCK_TIMEOUT_MS = 200


class Toucher:
    """Writes ``last_accessed_at`` in a background thread, batching ids of many retrievals.

    Best effort by design: a full queue drops updates, a row locked by a writer is skipped after
    ``TOUCH_LOCK_TIMEOUT_MS`` instead of waited for, and pending updates are flushed on ``close``.
    """

    def __init__(self, sessions: sessionmaker[Session], max_pending: int = 10_000) -> None:
        self._sessions = sessions
        self._max_pending = max_pending
        self._pending: set[int] = set()
        self._cond = threading.Condition()
        self._busy = False
        self._closed = False
        self._thread: threading.Thread | None = None

    def submit(self, ids: Sequence[int]) -> None:
        with self._cond:
            if self._closed or len(self._pending) >= self._max_pending:
                return
            self._pending.update(ids)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="retrieval-touch", daemon=True)
                self._thread.start()
            self._cond.notify_all()

    def flush(self, timeout: float) -> bool:
        """Wait until every submitted id is written (or skipped); False on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self._pending or self._busy:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._cond.wait(remaining)
        return True

    def close(self, timeout: float = 5.0) -> None:
        self.flush(timeout)
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._pending and not self._closed:
                    self._cond.wait()
                if self._closed and not self._pending:
                    return
                batch, self._pending = sorted(self._pending), set()
                self._busy = True
            try:
                with transaction(self._sessions) as session:
                    session.execute(text(f"SET LOCAL lock_timeout = '{TOUCH_LOCK_TIMEOUT_MS}ms'"))
                    touch(session, batch)
            except Exception as exc:  # best effort: never let bookkeeping kill the thread
                log.info("skipped last_accessed_at update of %d memories: %s", len(batch),
                         one_line_error(exc))
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
