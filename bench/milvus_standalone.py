"""A private real Milvus standalone for benchmarks, and bulk loading of synthetic vectors into it.

``RealMilvus`` runs PyPI ``milvus`` 2.3.x (``milvus.default_server``) from its own venv
(``bench/.work/milvus-venv``, created on first use) through ``milvus_server.py``: data under a fresh
``bench/.work/milvus-standalone-*`` directory (removed when it stops cleanly), listening on a port of
the caller's choosing. An optional RSS cap watches the server's process tree and stops it when it is
exceeded (the machine is shared: a runaway server must not take it down).

``load_milvus`` bulk-inserts rows ``start..stop-1`` (row ``i``: id ``i + 1``, user ``i % users + 1``)
whose VECTORS ARE SYNTHETIC: a copy of one of a few real e5 vectors plus Gaussian noise
(``vectors_for``), routed to the user's bucket partition when the collection has user buckets
(``core/vector_buckets.py``), as the product's writes are. Used by ``bench_scale.py`` and
``bench_episode_scale.py``.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from bench.common import WORK, log
from bench.machine import rss_mb

MILVUS_VENV = WORK / "milvus-venv"
REAL_MILVUS_PORT = 39750
NOISE = 0.02


def tree_rss(pid: int) -> float | None:
    """RSS (MiB) of a process and all its descendants."""
    total, seen = 0.0, False
    todo = [pid]
    while todo:
        p = todo.pop()
        r = rss_mb(p)
        if r is not None:
            total += r
            seen = True
        try:
            children = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            children = []
        todo.extend(int(c) for c in children)
    return round(total, 1) if seen else None


def tree_cpu_sec(pid: int) -> float | None:
    """CPU seconds (user + system, all threads) used so far by a process and all its descendants."""
    import os

    tick = os.sysconf("SC_CLK_TCK")
    total, seen = 0.0, False
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick  # utime, stime
            seen = True
            children = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except (OSError, IndexError, ValueError):
            children = []
        todo.extend(int(c) for c in children)
    return total if seen else None


def renice_tree(pid: int, niceness: int) -> int:
    """Set the niceness of every thread of a process and its descendants (niceness is per thread on
    Linux); returns the threads changed. A negative value needs the privilege to raise priority."""
    import os

    changed = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            tids = [int(t) for t in os.listdir(f"/proc/{p}/task")]
            children = Path(f"/proc/{p}/task/{p}/children").read_text().split()
        except OSError:
            continue
        for tid in tids:
            try:
                os.setpriority(os.PRIO_PROCESS, tid, niceness)
                changed += 1
            except OSError:
                pass
        todo.extend(int(c) for c in children)
    return changed


class RealMilvus:
    """A real Milvus standalone in a child process (see the module docstring)."""

    def __init__(self, port: int = REAL_MILVUS_PORT, max_rss_mib: float | None = None) -> None:
        self.port = port
        self.max_rss_mib = max_rss_mib
        self.proc: subprocess.Popen[str] | None = None
        self.base: Path | None = None
        self.uri = ""
        self.error: str | None = None
        self.start_sec: float | None = None
        self.peak_rss_mib: float | None = None
        self._watching = threading.Event()

    def start(self, timeout: float = 420.0) -> bool:
        python = MILVUS_VENV / "bin" / "python"
        try:
            ok = (
                python.exists()
                and subprocess.run([str(python), "-c", "import milvus"], capture_output=True).returncode == 0
            )
            if not ok:
                log(f"creating {MILVUS_VENV} and installing milvus 2.3.x (real Milvus standalone)")
                subprocess.run([sys.executable, "-m", "venv", str(MILVUS_VENV)], check=True)
                subprocess.run(
                    [str(python), "-m", "pip", "install", "-q", "milvus>=2.3,<2.4"], check=True, timeout=900
                )
        except (subprocess.SubprocessError, OSError) as exc:
            self.error = f"could not install the PyPI milvus package: {exc}"
            return False
        self.base = base = WORK / f"milvus-standalone-{uuid.uuid4().hex[:6]}"
        base.mkdir(parents=True)
        logf = open(base / "launcher.log", "w")  # noqa: SIM115 - kept open for the child's lifetime
        t0 = time.monotonic()
        self.proc = subprocess.Popen(
            [str(python), str(Path(__file__).with_name("milvus_server.py")), str(base), str(self.port)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=logf,
            text=True,
            start_new_session=True,
        )
        assert self.proc.stdout is not None
        import selectors

        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        while time.monotonic() - t0 < timeout:
            if self.proc.poll() is not None:
                self.error = (f"milvus standalone exited with {self.proc.returncode}; "
                              f"see {base / 'launcher.log'}")
                return False
            if sel.select(timeout=1.0):
                line = self.proc.stdout.readline()
                if line.startswith("READY"):
                    self.uri = f"http://127.0.0.1:{line.split()[1]}"
                    self.start_sec = round(time.monotonic() - t0, 1)
                    self._watching.set()
                    threading.Thread(target=self._watch, daemon=True).start()
                    return True
        self.error = f"milvus standalone did not start within {timeout:.0f}s; see {base / 'launcher.log'}"
        self.stop(keep_data=True)
        return False

    def _watch(self, every: float = 2.0) -> None:
        """Track the peak RSS of the server's process tree; stop the server above ``max_rss_mib``."""
        while self._watching.is_set():
            rss = self.rss()
            if rss is not None:
                self.peak_rss_mib = max(self.peak_rss_mib or 0.0, rss)
                if self.max_rss_mib is not None and rss > self.max_rss_mib:
                    self.error = (f"milvus standalone RSS {rss:.0f} MiB over the cap "
                                  f"{self.max_rss_mib:.0f} MiB: stopped")
                    log(self.error)
                    self.stop(keep_data=True)
                    return
            time.sleep(every)

    def rss(self) -> float | None:
        return tree_rss(self.proc.pid) if self.proc is not None else None

    def cpu_sec(self) -> float | None:
        return tree_cpu_sec(self.proc.pid) if self.proc is not None else None

    def stop(self, keep_data: bool = False) -> None:
        """Stop the server; remove its data directory unless ``keep_data`` or it did not stop cleanly."""
        self._watching.clear()
        clean = True
        if self.proc is not None and self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
                self.proc.wait(120)
            except (subprocess.TimeoutExpired, OSError):
                self.proc.kill()
                clean = False
        if clean and not keep_data and self.error is None and self.base is not None:
            shutil.rmtree(self.base, ignore_errors=True)


def vectors_for(ids: range, base: Any) -> Any:
    """Unit vectors for rows ``ids``: row ``i`` is ``base[i % len(base)]`` plus N(0, ``NOISE``) noise per
    dimension, renormalised (deterministic per ``ids.start``)."""
    import numpy as np

    rng = np.random.default_rng(ids.start)
    v = base[np.asarray(ids) % len(base)] + rng.normal(0, NOISE, (len(ids), base.shape[1])).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def load_milvus(uri: str, collection: str, users: int, start: int, stop: int, base: Any, batch: int = 10000,
                *, memory_type: str = "fact", buckets: int = 0) -> float:
    """Insert rows ``start..stop-1`` (module docstring) into ``collection``, each in its user's bucket
    partition when ``buckets`` > 0; flush at the end. Returns seconds."""
    from pymilvus import MilvusClient

    from core import vector_buckets
    from core.vectorstore import GRPC_OPTIONS

    # the product's keepalive options: pymilvus' default 10 s pings during these long inserts drew
    # GOAWAY "too many pings" from Milvus Lite and failed the 1M load
    client = MilvusClient(uri=uri, timeout=600, grpc_options=GRPC_OPTIONS)
    t0 = time.perf_counter()
    for s in range(start, stop, batch):
        ids = range(s, min(stop, s + batch))
        vecs = vectors_for(ids, base)
        groups: dict[str, list[dict[str, Any]]] = {}
        for j, i in enumerate(ids):
            user = i % users + 1
            part = vector_buckets.partition_of(user, buckets) if buckets else ""
            groups.setdefault(part, []).append(
                {"id": i + 1, "user_id": user, "memory_type": memory_type, "vector": vecs[j].tolist()})
        for part, rows in groups.items():
            client.insert(collection, rows, timeout=600, partition_name=part)
    client.flush(collection, timeout=600) if hasattr(client, "flush") else None
    sec = time.perf_counter() - t0
    client.close()
    return sec

