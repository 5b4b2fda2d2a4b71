"""Real Milvus standalone (PyPI ``milvus`` 2.3.x) for bench_scale.py; runs INSIDE bench/.work/milvus-venv.

Usage: ``python milvus_server.py BASE_DIR PORT``. Starts ``milvus.default_server`` with its data under
BASE_DIR listening on PORT, prints ``READY <port>`` on stdout once it answers, and keeps it running
until stdin closes or SIGTERM arrives, then stops it.
"""

from __future__ import annotations

import signal
import sys
import threading


def main() -> int:
    from milvus import default_server

    base, port = sys.argv[1], int(sys.argv[2])
    default_server.set_base_dir(base)
    default_server.listen_port = port
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    default_server.start()
    print(f"READY {default_server.listen_port}", flush=True)

    def watch_stdin() -> None:
        sys.stdin.read()
        stop.set()

    threading.Thread(target=watch_stdin, daemon=True).start()
    stop.wait()
    default_server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
