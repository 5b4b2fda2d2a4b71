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
from core.text import regex as re  # linear time: a long query-parameter name cost 1 s with stdlib re

log = logging.getLogger(__name__)

# query parameters whose name says they carry a credential (access_token, api_key, password...)
_CREDENTIAL_PARAM = re.compile(r"(?i)([?&;][^=&;#\s]*(?:token|key|secret|passw|auth)[^=&;#\s]*=)[^&;#\s]*")


class RedactQueryCredentials(logging.Filter):
    """Masks credential-like query parameters in uvicorn's access log lines.

    The API never accepts a token in the query string (401), but a client that sends one anyway
    must not get it written to the logs: ``?access_token=s3cr3t`` is logged as ``?access_token=***``.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) >= 3 and isinstance(args[2], str):
            record.args = (*args[:2], _CREDENTIAL_PARAM.sub(r"\1***", args[2]), *args[3:])
        return True


def serve(settings: Settings) -> None:
    """Run the API in the foreground until SIGINT/SIGTERM (uvicorn handles the signals)."""
    from api.app import create_app

    token = settings.API_TOKEN.get_secret_value() if settings.API_TOKEN is not None else None
    check_bind(settings.API_HOST, token)
    app = create_app(settings)
    logging.getLogger("uvicorn.access").addFilter(RedactQueryCredentials())
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
