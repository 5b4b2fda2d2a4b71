"""``pai-memory run api``: serve the HTTP API with uvicorn on ``API_HOST:API_PORT``.

Start-up refuses (``InsecureBindError``) to bind a non-loopback address without ``API_TOKEN``.
"""

from __future__ import annotations

import logging
import signal
from types import FrameType

import uvicorn

from api.auth import check_bind
from core.config import Settings

log = logging.getLogger(__name__)


def serve(settings: Settings) -> None:
    """Run the API in the foreground until SIGINT/SIGTERM (uvicorn handles the signals)."""
    from api.app import create_app

    token = settings.API_TOKEN.get_secret_value() if settings.API_TOKEN is not None else None
    check_bind(settings.API_HOST, token)
    app = create_app(settings)
    config = uvicorn.Config(app, host=settings.API_HOST, port=settings.API_PORT, log_config=None,
                            access_log=True, server_header=False, proxy_headers=False,
                            timeout_graceful_shutdown=10)
    log.info("pai-memory API listening on http://%s:%d", settings.API_HOST, settings.API_PORT)
    _Server(config).run()


class _Server(uvicorn.Server):
    """uvicorn's server, except that SIGTERM ends in a normal exit (status 0) after the graceful
    shutdown, like the other pai-memory processes (uvicorn would re-raise the signal)."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        captured = getattr(self, "_captured_signals", None)
        if sig == signal.SIGTERM and isinstance(captured, list) and sig in captured:
            captured.remove(sig)
