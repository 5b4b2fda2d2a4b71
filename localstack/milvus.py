"""Milvus Lite server (PyPI ``milvus-lite``), or an external Milvus when ``MEMORY_MILVUS_URI`` is set.

Data lives in ``<PAI_MEMORY_HOME>/milvus``; the gRPC server listens on loopback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlparse

from core.redaction import mask_url
from localstack.base import LOOPBACK, Service
from localstack.process import (
    StackError,
    ensure_port_free,
    is_alive,
    port_open,
    spawn_detached,
    stop_pid,
    wait_ready,
)


def milvus_probe(uri: str, token: str = "", timeout: float = 3.0) -> str | None:
    """None when ``list_collections`` succeeds against ``uri``, else the reason.

    Uses a dedicated connection (not pymilvus's shared per-address one), so probing a server that
    restarted never reuses a dead channel.
    """
    import grpc
    from pymilvus import MilvusClient
    from pymilvus.exceptions import MilvusException

    parsed = urlparse(uri)
    if parsed.scheme in ("http", "https", "tcp", "grpc") and parsed.hostname and not port_open(
            parsed.hostname, parsed.port or 19530, min(timeout, 1.0)):
        return f"nothing listens on {parsed.hostname}:{parsed.port or 19530}"
    try:
        client = MilvusClient(uri=uri, token=token, timeout=timeout, dedicated=True)
    except (MilvusException, OSError, grpc.RpcError) as exc:
        return f"cannot connect: {exc}".splitlines()[0]
    try:
        client.list_collections(timeout=timeout)
    except (MilvusException, OSError, grpc.RpcError) as exc:  # pymilvus 3 lets a deadline's RpcError out
        return str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    finally:
        client.close()
    return None


def milvus_lite_command() -> list[str]:
    """The ``milvus-lite`` console script of this interpreter's environment."""
    script = Path(sys.executable).parent / "milvus-lite"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "milvus_lite"]


class MilvusService(Service):
    name = "milvus"
    marker = "milvus"

    @property
    def external(self) -> bool:
        return not self.settings.milvus_is_local

    @property
    def uri(self) -> str:
        return self.settings.milvus_uri if self.external else f"http://{LOOPBACK}:{self.ports.milvus}"

    @property
    def address(self) -> str:
        return mask_url(self.uri)  # printed by `stack status`: a token in the URI stays hidden

    @property
    def local_port(self) -> int:
        return self.ports.milvus

    def probe(self, timeout: float = 3.0) -> str | None:
        secret = self.settings.MEMORY_MILVUS_TOKEN
        token = secret.get_secret_value() if secret else ""
        return milvus_probe(self.uri, token if self.external else "", timeout)

    def start(self) -> int:
        ensure_port_free(LOOPBACK, self.ports.milvus, "Milvus", "set MEMORY_MILVUS_URI")
        data = self.dir / "data"
        data.mkdir(parents=True, exist_ok=True)
        pid = spawn_detached([*milvus_lite_command(), "server", "--data-dir", str(data), "--host", LOOPBACK,
                              "--port", str(self.ports.milvus)], self.log_path, cwd=self.dir)
        try:
            wait_ready(lambda: self.probe(2.0), 60, "Milvus Lite", alive=lambda: is_alive(pid),
                       log_path=self.log_path)
        except StackError:
            stop_pid(pid, self.marker, 10)
            raise
        return pid
