"""The Milvus client under ``core.vectorstore``: one lazily created connection per server, and the
classification of its failures.

- ``ClientHolder``: a ``MilvusClient`` created on first use (no network in constructors), shared by the
  views of one server, reset after a connection failure so the next call connects again.
- ``is_unavailable``: does an exception mean the server is unreachable (connection refused, timeout)
  rather than refusing the request? Callers map it to ``VectorStoreUnavailable`` (retrieval may fall
  back to a lexical scan) and everything else to ``VectorStoreError``.
- ``is_not_loaded``: a collection released by a restarted server (load and retry once).
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any


class VectorStoreError(RuntimeError):
    """Milvus refused or failed an operation."""


class VectorStoreUnavailable(VectorStoreError):
    """Milvus cannot be reached (connection refused, timeout). Callers may fall back."""


class IndexModelMismatch(VectorStoreError):
    """The index was built with another embedding model or dimension than the configured one."""


GRPC_OPTIONS = {"grpc.keepalive_time_ms": 60_000, "grpc.keepalive_permit_without_calls": False}


def is_unavailable(exc: BaseException) -> bool:
    """Does this exception mean the server is unreachable (rather than refusing the request)?"""
    try:
        import grpc
    except ImportError:  # pragma: no cover - pymilvus depends on grpc
        grpc = None
    if grpc is not None and isinstance(exc, grpc.RpcError):
        code = exc.code() if callable(getattr(exc, "code", None)) else None
        return code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED, None)
    if isinstance(exc, TimeoutError | ConnectionError):
        return True
    from pymilvus.exceptions import ConnectError, MilvusException, MilvusUnavailableException

    if isinstance(exc, ConnectError | MilvusUnavailableException):
        return True
    if isinstance(exc, MilvusException):
        text = str(getattr(exc, "message", "") or exc).lower()
        return getattr(exc, "code", None) == 2 or any(
            s in text for s in ("fail connecting", "unavailable", "deadline", "timed out", "timeout",
                                "connection refused", "retry run out"))
    cause = exc.__cause__ or exc.__context__
    return cause is not None and cause is not exc and is_unavailable(cause)


def is_not_loaded(exc: BaseException) -> bool:
    text = str(getattr(exc, "message", "") or exc).lower()
    return "released" in text or "not loaded" in text or "call load()" in text


class ClientHolder:
    """Lazily created ``MilvusClient`` shared by the views of one server."""

    def __init__(self, uri: str, token: str | None, timeout: float) -> None:
        self.uri = uri
        self._token = token
        self.timeout = timeout
        self._client: Any = None
        self._lock = threading.Lock()

    def get(self) -> Any:
        with self._lock:
            if self._client is None:
                from pymilvus import MilvusClient

                # A dedicated channel: a shared one may be a dead channel after a server restart.
                # Keepalive pings only during calls, at most once a minute: pymilvus pings every 10 s
                # even when idle, and Milvus Lite's gRPC server answers with GOAWAY "too_many_pings"
                # (seen in benchmark logs). Every call has a timeout, so a dead connection is still
                # noticed (and the client reset) without idle pings.
                self._client = MilvusClient(uri=self.uri, token=self._token or "", timeout=self.timeout,
                                            dedicated=True, grpc_options=GRPC_OPTIONS)
            return self._client

    def reset(self) -> None:
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):  # closing a broken connection must not mask the real error
                client.close()

    def close(self) -> None:
        self.reset()
