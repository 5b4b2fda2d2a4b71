"""Process helpers for the local stack: detached start, liveness by pid, stop by pid, port checks,
free ports, and the one polling loop (``wait_until``) used by the stack, the tests and the benchmarks.

Invariant: nothing here ever signals a process that the caller did not name by pid, and a pid is
only treated as "ours" when its command line still contains the expected marker (guards against
pid reuse after a reboot or a crash).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

# Popen objects of children started by this process. Kept referenced so they are not garbage
# collected with a "still running" warning; reaped in ``is_alive``/``stop_pid``.
_CHILDREN: dict[int, subprocess.Popen[bytes]] = {}


class StackError(RuntimeError):
    """A local service could not be started, reached or stopped. The message says which and why."""


def spawn_detached(cmd: Sequence[str], log_path: Path, cwd: Path | None = None,
                   env: dict[str, str] | None = None) -> int:
    """Start ``cmd`` in its own session with stdout/stderr appended to ``log_path``; return its pid."""
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(list(cmd), stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                cwd=cwd, env=env, start_new_session=True)
    _CHILDREN[proc.pid] = proc
    return proc.pid


def _reap(pid: int) -> None:
    proc = _CHILDREN.get(pid)
    if proc is not None and proc.poll() is not None:
        _CHILDREN.pop(pid, None)


_EXEC_GRACE_SEC = 1.0


def cmdline(pid: int) -> str:
    """The process's command line joined by spaces, or '' when it is gone or unreadable."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()


def is_alive(pid: int | None, marker: str | None = None) -> bool:
    """True when ``pid`` runs (not a zombie) and, if given, its command line contains ``marker``."""
    if not pid or pid <= 0:
        return False
    _reap(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, owned by another user (e.g. postgres run as pai_pg)
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
        if status.rsplit(")", 1)[1].split()[0] == "Z":
            return False
    except (OSError, IndexError):
        pass
    if marker is None:
        return True
    line = cmdline(pid)
    deadline = time.monotonic() + _EXEC_GRACE_SEC
    while not line and time.monotonic() < deadline:
        # an empty command line is a process inside execve (its arguments are not set up yet; a
        # parent's Popen can return in that window) or one that just exited: look again shortly
        time.sleep(0.01)
        line = cmdline(pid)
    return marker in line


def stop_pid(pid: int, marker: str | None = None, timeout: float = 30.0) -> bool:
    """SIGTERM ``pid``, wait up to ``timeout`` s, then SIGKILL. Returns True if it had to be killed."""
    if not is_alive(pid, marker):
        return False
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not is_alive(pid):
            return False
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and is_alive(pid):
        time.sleep(0.05)
    return True


def port_open(host: str, port: int, timeout: float = 0.5) -> bool:
    """True when something accepts TCP connections on host:port."""
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def port_bindable(host: str, port: int) -> bool:
    """True when a listening socket could bind host:port now (nothing listens on it and no other
    socket, e.g. an outgoing connection that got it as its ephemeral port, holds it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


_PORTS_LOCK = threading.Lock()
_PORTS_HANDED_OUT: set[int] = set()


def free_ports(n: int, host: str = "127.0.0.1") -> list[int]:
    """``n`` distinct ports on ``host`` that were free a moment ago and never handed out before by this
    process. A port comes from the kernel (``bind(port 0)``: only ports nobody listens on); remembering
    the ones handed out keeps two children started back to back from getting the same port before the
    first has bound it. For everything a test or benchmark binds beside the demo's fixed ports."""
    out: list[int] = []
    with _PORTS_LOCK:
        while len(out) < n:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                sock.bind((host, 0))
                port = int(sock.getsockname()[1])
            if port not in _PORTS_HANDED_OUT:
                _PORTS_HANDED_OUT.add(port)
                out.append(port)
    return out


def free_port(host: str = "127.0.0.1") -> int:
    """One port on ``host`` that was free a moment ago (see ``free_ports``)."""
    return free_ports(1, host)[0]


def ensure_port_free(host: str, port: int, service: str, hint: str, timeout: float = 30.0) -> None:
    """Raise ``StackError`` if something listens on host:port; wait (up to ``timeout`` s) while the
    port is only held by another socket. The local ports lie in Linux's ephemeral range, so a busy
    machine's outgoing connections can hold one for a moment."""
    if port_open(host, port):
        raise StackError(f"port {port} is in use by a process that does not answer as {service}; "
                         f"stop it or {hint}")
    deadline = time.monotonic() + timeout
    while not port_bindable(host, port):
        if time.monotonic() > deadline:
            raise StackError(f"port {port} stayed bound by another socket for {timeout:.0f} s; {hint}")
        time.sleep(0.5)


class WaitTimeout(TimeoutError):
    """``wait_until`` gave up: the condition did not hold within the time budget."""


def wait_until(predicate: Callable[[], bool], timeout: float = 60.0, interval: float = 0.2,
               what: str = "condition") -> float:
    """Poll ``predicate`` every ``interval`` s until it is true; return the monotonic time it became
    true. Raise ``WaitTimeout`` naming ``what`` after ``timeout`` s. An exception from ``predicate``
    propagates (a check that can fail for good raises instead of returning False)."""
    deadline = time.monotonic() + timeout
    while True:
        if predicate():
            return time.monotonic()
        if time.monotonic() > deadline:
            raise WaitTimeout(f"timed out after {timeout:.0f}s waiting for {what}")
        time.sleep(interval)


def wait_ready(check: Callable[[], str | None], timeout: float, what: str, interval: float = 0.25,
               alive: Callable[[], bool] | None = None, log_path: Path | None = None) -> None:
    """Wait for a starting service: ``check`` returns None when it answers, else the reason it does not.
    Raise ``StackError`` (with the log's last lines) when ``alive`` says it died or on timeout."""
    reason: list[str | None] = ["not checked"]

    def ready() -> bool:
        reason[0] = check()
        if reason[0] is None:
            return True
        if alive is not None and not alive():
            raise StackError(f"{what} exited during start-up{log_hint(log_path)}")
        return False

    try:
        wait_until(ready, timeout, interval, what)
    except WaitTimeout:
        raise StackError(
            f"{what} did not answer within {timeout:.0f} s: {reason[0]}{log_hint(log_path)}") from None


def log_hint(log_path: Path | None, lines: int = 15) -> str:
    """'; last lines of LOG: ...' for error messages, or '' without a log."""
    if log_path is None or not log_path.exists():
        return ""
    try:
        tail = log_path.read_text(errors="replace").splitlines()[-lines:]
    except OSError:
        return f" (see {log_path})"
    return f" (see {log_path}); last lines:\n    " + "\n    ".join(tail)
