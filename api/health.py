"""Readiness checks: PostgreSQL must answer; Milvus and Kafka are reported, not required.

Each check runs with its own short timeout in a worker thread so a hung dependency cannot hang
``/readyz``; results of the optional checks are cached for a few seconds.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, text

from core.config import Settings
from core.vectorstore import MilvusMemoryIndex
from producers.kafka_config import client_config


@dataclass(frozen=True)
class CheckResult:
    ok: bool
    required: bool
    detail: str
    latency_ms: float

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "required": self.required, "detail": self.detail,
                "latency_ms": round(self.latency_ms, 2)}


class Readiness:
    """Runs the readiness checks for ``/readyz``."""

    def __init__(self, settings: Settings, engine: Engine, timeout_sec: float = 2.0,
                 cache_sec: float = 5.0) -> None:
        self.settings = settings
        self.engine = engine
        self.timeout = timeout_sec
        self.cache_sec = cache_sec
        self._pool = ThreadPoolExecutor(max_workers=3, thread_name_prefix="readyz")
        self._cache: dict[str, tuple[float, CheckResult]] = {}
        self._lock = threading.Lock()
        self._milvus: MilvusMemoryIndex | None = None
        self._admin: Any = None

    def check(self) -> tuple[bool, dict[str, dict[str, Any]]]:
        """``(ready, {name: result})``: ready when every required check passed."""
        futures = {
            "postgres": self._pool.submit(self._run, "postgres", True, self._postgres, False),
            "milvus": self._pool.submit(self._run, "milvus", False, self._milvus_check, True),
            "kafka": self._pool.submit(self._run, "kafka", False, self._kafka, True),
        }
        results: dict[str, CheckResult] = {}
        for name, future in futures.items():
            try:
                results[name] = future.result(timeout=self.timeout + 0.5)
            except FutureTimeout:
                results[name] = CheckResult(False, name == "postgres", f"no answer within {self.timeout:g}s",
                                            self.timeout * 1000)
        ready = all(r.ok for r in results.values() if r.required)
        return ready, {name: r.as_dict() for name, r in results.items()}

    def _run(self, name: str, required: bool, probe: Callable[[], str], cached: bool) -> CheckResult:
        now = time.monotonic()
        if cached:
            with self._lock:
                hit = self._cache.get(name)
            if hit is not None and now - hit[0] < self.cache_sec:
                return hit[1]
        started = time.perf_counter()
        try:
            detail, ok = probe(), True
        except Exception as exc:  # a readiness probe reports every failure instead of raising
            detail, ok = f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}", False
        result = CheckResult(ok, required, detail, (time.perf_counter() - started) * 1000)
        if cached:
            with self._lock:
                self._cache[name] = (time.monotonic(), result)
        return result

    def _postgres(self) -> str:
        with self.engine.connect() as conn:
            conn.execute(text(f"SET statement_timeout = {int(self.timeout * 1000)}"))
            conn.execute(text("SELECT 1"))
        return "answers"

    def _milvus_check(self) -> str:
        if not self.settings.MEMORY_MILVUS_ENABLED:
            return "disabled (MEMORY_MILVUS_ENABLED=false); retrieval uses the lexical path"
        if self._milvus is None:
            self._milvus = MilvusMemoryIndex(self.settings.milvus_uri, self.settings.MEMORY_MILVUS_COLLECTION,
                                             self.settings.embedding_dim, timeout=self.timeout,
                                             token=(self.settings.MEMORY_MILVUS_TOKEN.get_secret_value()
                                                    if self.settings.MEMORY_MILVUS_TOKEN is not None
                                                    else None))
        self._milvus.ping()
        return "answers"

    def _kafka(self) -> str:
        from confluent_kafka.admin import AdminClient

        if self._admin is None:
            conf = {**client_config(self.settings), "socket.timeout.ms": int(self.timeout * 1000),
                    "logger": _SilentLogger()}
            self._admin = AdminClient(conf)
        metadata = self._admin.list_topics(timeout=self.timeout)
        return f"{len(metadata.brokers)} broker(s)"

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        if self._milvus is not None:
            self._milvus.close()


class _SilentLogger:
    """librdkafka log sink for the probe: a down broker is reported in the result, not spammed."""

    def log(self, *_args: Any, **_kwargs: Any) -> None:
        return None
