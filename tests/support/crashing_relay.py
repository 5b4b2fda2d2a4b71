"""TEST-ONLY: the relay process with a checkpoint that kills it at one point of its first non-empty batch.

``python -m tests.support.crashing_relay after_claim|after_flush`` runs ``RelayService`` on the
settings of the environment (as ``pai-memory run relay`` does) with ``OutboxRelay(checkpoint=...)``
exiting the process with ``CRASH_EXIT_CODE`` (``os._exit``: no cleanup, no marking) at that point.
The product has no crash hook of its own: the seam is the injected checkpoint.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable

CRASH_EXIT_CODE = 70


def crash_at(point: str) -> Callable[[str], None]:
    def checkpoint(name: str) -> None:
        if name == point:
            logging.getLogger(__name__).critical("TEST: crash at %s, claimed rows not marked", name)
            logging.shutdown()
            os._exit(CRASH_EXIT_CODE)

    return checkpoint


def main(argv: list[str]) -> int:
    from core.config import load_settings
    from producers.outbox_relay import OutboxRelay
    from producers.relay_service import RelayService

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    settings = load_settings()
    service = RelayService(settings, OutboxRelay(settings, checkpoint=crash_at(argv[0])))
    service.install_signal_handlers()
    service.run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
