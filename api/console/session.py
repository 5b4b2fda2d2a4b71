"""Console sessions and CSRF tokens, signed with a key derived from the API token, and revocable.

- The operator proves knowledge of ``API_TOKEN`` once, in the body of the login form (never in a URL);
  the console then sets a session cookie ``v1.<issued>.<nonce>.<mac>`` (HttpOnly, SameSite=Strict,
  path ``/console``, Secure over HTTPS), where ``mac`` is HMAC-SHA256 over ``v1.<issued>.<nonce>``
  with a key derived from the token (``session_key``). Changing the token invalidates every session;
  a session expires ``SESSION_MAX_AGE_SEC`` after login.
- Server-side: each login is a row of ``console_sessions`` named by the nonce (``core.keys``), with
  the key that logged in. A cookie is a session only while its row is live: logout revokes it for
  every API process at once, and so do the expiry and revoking the admin key that logged in.
- Every state-changing request is a POST carrying ``csrf`` = HMAC of the session's nonce under the
  same key: a page of the console can produce it, another site cannot (it cannot read the cookie).
- Comparisons are constant-time (``hmac.compare_digest``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

COOKIE_NAME = "pai_console"
COOKIE_PATH = "/console"
SESSION_MAX_AGE_SEC = 8 * 3600
_VERSION = "v1"


def session_key(token: str) -> bytes:
    """The signing key of console sessions: HMAC-SHA256(token, label). Never the token itself."""
    return hmac.new(token.encode("utf-8"), b"pai-memory console session key v1", hashlib.sha256).digest()


@dataclass(frozen=True)
class ConsoleSession:
    issued: int
    nonce: str
    key_id: str = "env"  # the key that logged in (``env``: API_TOKEN)


class SessionSigner:
    """Issues and checks session cookie values and CSRF tokens for one API token."""

    def __init__(self, token: str, clock: Callable[[], float] = time.time) -> None:
        self._token = token.encode("utf-8")
        self._key = session_key(token)
        self._clock = clock

    def token_matches(self, candidate: str) -> bool:
        return hmac.compare_digest(candidate.encode("utf-8"), self._token)

    def _mac(self, payload: str) -> str:
        return hmac.new(self._key, payload.encode("ascii"), hashlib.sha256).hexdigest()

    def issue(self) -> str:
        payload = f"{_VERSION}.{int(self._clock())}.{secrets.token_hex(16)}"
        return f"{payload}.{self._mac(payload)}"

    def verify(self, value: str | None) -> ConsoleSession | None:
        """The session of a cookie value, or ``None`` when missing, forged, malformed or expired."""
        if not value or len(value) > 200:
            return None
        parts = value.split(".")
        if len(parts) != 4 or parts[0] != _VERSION or not parts[1].isdigit():
            return None
        payload = ".".join(parts[:3])
        if not hmac.compare_digest(parts[3], self._mac(payload)):
            return None
        issued = int(parts[1])
        if not 0 <= self._clock() - issued <= SESSION_MAX_AGE_SEC:
            return None
        return ConsoleSession(issued, parts[2])

    def csrf_token(self, session: ConsoleSession) -> str:
        return self._mac(f"csrf.{session.nonce}")

    def csrf_ok(self, session: ConsoleSession, candidate: str | None) -> bool:
        return bool(candidate) and hmac.compare_digest(str(candidate), self.csrf_token(session))
