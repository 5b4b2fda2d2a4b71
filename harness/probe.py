"""The retrieval prober of a driven pipeline and what its answers mean during a fault.

``RetrievalProbe`` calls ``POST /v1/retrieve`` every ``interval`` s and records every answer; a ``Window``
marks a stretch of a scenario during which an error is the honest answer (connection errors while the
API itself was killed, 503s while PostgreSQL, the truth, was down).
"""

from __future__ import annotations

import random
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import httpx


@dataclass
class Probe:
    at: float  # monotonic start of the call
    outcome: str  # ok | http_error | connection_error
    status: int | None
    served_by: str | None
    detail: str = ""
    ended: float = 0.0  # monotonic end of the call


class RetrievalProbe:
    """Calls ``POST /v1/retrieve`` (dense mode) every ``interval`` s and records every answer."""

    def __init__(self, base_url: str, token: str, users: Callable[[], Sequence[str]], *,
                 interval: float = 0.2, timeout: float = 8.0, seed: int = 0, vary: bool = False) -> None:
        self.base_url = base_url
        self.vary = vary  # a new question every call, so the API's query-vector cache never answers
        self.users = users
        self.interval = interval
        self.records: list[Probe] = []
        self._client = httpx.Client(base_url=base_url, timeout=timeout,
                                    headers={"authorization": f"Bearer {token}"})
        self._rng = random.Random(seed)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def call(self) -> Probe:
        users = self.users()
        user = self._rng.choice(list(users)) if users else "nobody"
        question = "Where do I live now?"
        if self.vary:
            question += f" (asked {len(self.records)} times)"
        started = time.monotonic()
        try:
            resp = self._client.post("/v1/retrieve", json={
                "user_id": user, "question": question, "mode": "dense", "limit": 3})
        except httpx.TransportError as exc:
            return Probe(started, "connection_error", None, None, type(exc).__name__, time.monotonic())
        if resp.status_code // 100 != 2:
            return Probe(started, "http_error", resp.status_code, None, resp.text[:200], time.monotonic())
        body = resp.json()
        reason = str(body.get("fallback_reason") or "")
        return Probe(started, "ok", resp.status_code, body.get("served_by"), reason, time.monotonic())

    def start(self) -> None:
        def loop() -> None:
            while not self._stop.is_set():
                t0 = time.monotonic()
                self.records.append(self.call())
                self._stop.wait(max(0.0, self.interval - (time.monotonic() - t0)))

        self._thread = threading.Thread(target=loop, name="reliability-retrieval", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(15)
        self._client.close()

    def between(self, t0: float, t1: float) -> list[Probe]:
        return [p for p in list(self.records) if t0 <= p.at <= t1]


@dataclass
class Window:
    """A stretch of a scenario during which a given retrieval outcome is the honest answer."""

    kind: str  # api_down (connection errors allowed) | storage_down (503 allowed) | vector_down (lexical)
    start: float
    end: float | None = None


def in_window(p: Probe, windows: Sequence[Window], kind: str) -> bool:
    """Whether the call was in flight at some moment of a ``kind`` window (a request the server was
    handling when it was killed fails too)."""
    return any(w.kind == kind and p.at <= (w.end or float("inf")) and max(p.ended, p.at) >= w.start
               for w in windows)


def summarise_probes(probes: Sequence[Probe], windows: Sequence[Window]) -> dict[str, Any]:
    served: dict[str, int] = defaultdict(int)
    for p in probes:
        if p.outcome == "ok":
            served[p.served_by or "?"] += 1
    return {
        "calls": len(probes),
        "ok": sum(p.outcome == "ok" for p in probes),
        "errors": sum(p.outcome != "ok" for p in probes),
        "connection_errors_api_down": sum(
            p.outcome == "connection_error" and in_window(p, windows, "api_down") for p in probes),
        "errors_storage_down": sum(
            p.outcome != "ok" and in_window(p, windows, "storage_down") for p in probes),
        "served_by": dict(served),
    }


def retrieval_problems(probes: Sequence[Probe], windows: Sequence[Window]) -> list[str]:
    """Errors outside the windows that excuse them: connection errors only while the API itself was
    killed; errors (503) only while PostgreSQL, the truth, was down."""
    bad = []
    for p in probes:
        if p.outcome == "ok":
            continue
        if p.outcome == "connection_error" and in_window(p, windows, "api_down"):
            continue
        if in_window(p, windows, "storage_down"):
            continue
        bad.append(p)
    if not bad:
        return []
    sample = [asdict(p) for p in bad[:3]]
    return [f"retrieval returned {len(bad)} errors outside an excused window, e.g. {sample}"]

