"""An HTTP transport for the CLI's own API clients (``pai-memory eval``) that honours ``429``.

The API rate-limits per user and per token (README "Per-user bounds"); a tool that sends many
requests for one user back to back (an evaluation case with many queries) waits ``Retry-After``
and sends the request again, as any well-behaved client of the API should.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import httpx


class RetryAfterTransport(httpx.HTTPTransport):
    """Resends a request answered ``429`` after its ``Retry-After`` (seconds), at most ``max_retries``
    times and never waiting longer than ``max_wait`` for one retry; then the 429 is returned."""

    def __init__(self, *, max_retries: int = 20, max_wait: float = 30.0,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        super().__init__()
        self.max_retries = max_retries
        self.max_wait = max_wait
        self._sleep = sleep

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.read()  # the body is sent again on a retry
        for _ in range(self.max_retries):
            response = super().handle_request(request)
            if response.status_code != 429:
                return response
            try:
                wait = float(response.headers.get("retry-after", "1"))
            except ValueError:
                wait = 1.0
            if wait > self.max_wait:
                return response
            response.close()
            self._sleep(max(0.0, wait))
        return super().handle_request(request)
