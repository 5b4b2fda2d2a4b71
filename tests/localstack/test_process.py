"""Process and port helpers of the local stack."""

from __future__ import annotations

import socket
import subprocess
import sys
import time

import pytest

from localstack.process import StackError, ensure_port_free, is_alive, port_bindable, stop_pid


def test_listening_port_is_refused_at_once() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        t0 = time.monotonic()
        with pytest.raises(StackError, match=f"port {port} is in use"):
            ensure_port_free("127.0.0.1", port, "Kafka", "set KAFKA_BOOTSTRAP_SERVERS", timeout=5)
        assert time.monotonic() - t0 < 2


def test_port_held_by_a_bound_socket_is_waited_for_then_reported() -> None:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))  # bound, not listening: like an outgoing connection's port
        port = holder.getsockname()[1]
        assert not port_bindable("127.0.0.1", port)
        with pytest.raises(StackError, match="stayed bound"):
            ensure_port_free("127.0.0.1", port, "Kafka", "hint", timeout=1)
    assert port_bindable("127.0.0.1", port)
    ensure_port_free("127.0.0.1", port, "Kafka", "hint", timeout=1)


def test_stop_pid_checks_the_marker_and_stops_the_process() -> None:
    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert is_alive(proc.pid, "time.sleep")
        assert not is_alive(proc.pid, "kafka.Kafka")
        stop_pid(proc.pid, "kafka.Kafka", timeout=1)  # wrong marker: not ours, left alone
        assert proc.poll() is None
        assert stop_pid(proc.pid, "time.sleep", timeout=10) is False  # SIGTERM was enough
        proc.wait(5)
        assert not is_alive(proc.pid)
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_process_inside_execve_is_looked_at_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Right after ``Popen`` returns, /proc/PID/cmdline can still be empty (measured: 25 of 300
    starts here): the child's arguments are set up after the point where the parent resumes."""
    from localstack import process

    proc = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    real = process.cmdline
    reads = {"n": 0}

    def mid_exec_first(pid: int) -> str:
        reads["n"] += 1
        return "" if reads["n"] <= 3 else real(pid)

    monkeypatch.setattr(process, "cmdline", mid_exec_first)
    try:
        assert is_alive(proc.pid, "time.sleep")
        assert reads["n"] >= 4
    finally:
        proc.kill()
        proc.wait()
