"""Free loopback ports for everything a test binds or makes a child process bind.

The test suite must run beside the demo (``bash scripts/run.sh``) and a default deployment, which
own fixed ports (the stack's 24092/24093/24432/24530, the demo's metrics 24100-24149 and API 8080).
So a test never names a port: it asks here. A port comes from the kernel (``bind(port 0)``), which
hands out only ports nobody listens on; this module also never hands the same port out twice in
one test session, so two children started back to back cannot be given the same port before the
first one has bound it.
"""

from __future__ import annotations

import socket
import threading
from dataclasses import dataclass, field

_LOCK = threading.Lock()
_HANDED_OUT: set[int] = set()


def free_ports(n: int, host: str = "127.0.0.1") -> list[int]:
    """``n`` distinct ports on ``host`` that were free a moment ago and not handed out before."""
    out: list[int] = []
    with _LOCK:
        while len(out) < n:
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
                sock.bind((host, 0))
                port = int(sock.getsockname()[1])
            if port not in _HANDED_OUT:
                _HANDED_OUT.add(port)
                out.append(port)
    return out


def free_port(host: str = "127.0.0.1") -> int:
    """One port on ``host`` that was free a moment ago (see ``free_ports``)."""
    return free_ports(1, host)[0]


@dataclass
class FreePorts:
    """A port allocator for ``ServiceSupervisor(metrics_port=...)``: a free port per replica name,
    kept for that name so a restarted replica serves where it served before."""

    ports: dict[str, int] = field(default_factory=dict)

    def __call__(self, process: str, index: int) -> int:
        name = f"{process}-{index}"
        if name not in self.ports:
            self.ports[name] = free_port()
        return self.ports[name]
