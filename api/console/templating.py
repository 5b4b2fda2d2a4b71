"""How the console renders a page: the Jinja2 templates (``templates/``), the security headers every
response carries, bidi control characters made visible in every printed value, and page links."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

PREFIX = "/console"
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; "
                               "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",  # "no-referrer" makes browsers send "Origin: null" on POST
    "cache-control": "no-store",
}

_templates = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))

# bidirectional control characters (U+202E RIGHT-TO-LEFT OVERRIDE...) in user text would reorder what
# the operator reads ("gnp.exe" shown as "exe.png"): every value a template prints shows them as a
# visible "[U+202E]" instead (issue 26)
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_BIDI_VISIBLE = {ord(ch): f"[U+{ord(ch):04X}]" for ch in BIDI_CONTROLS}


def neutralise_bidi(value: Any) -> Any:
    """``value`` with bidi control characters made visible (Markup stays Markup, other types as is)."""
    if isinstance(value, Markup):
        return Markup(str(value).translate(_BIDI_VISIBLE))
    if isinstance(value, str):
        return value.translate(_BIDI_VISIBLE)
    return value


_templates.env.finalize = neutralise_bidi


def render_template(request: Request, name: str, status: int, csrf: str | None, logged_in: bool,
                    **context: Any) -> HTMLResponse:
    """Template ``name`` with the page context (``csrf``, ``logged_in``, ``prefix``) and the security
    headers."""
    values = {"csrf": csrf, "logged_in": logged_in, "prefix": PREFIX, **context}
    response = _templates.TemplateResponse(request, name, values, status_code=status)
    response.headers.update(SECURITY_HEADERS)
    return response


def link(path: str, **params: Any) -> str:
    """``path`` with the non-empty ``params`` as its query string (``page=1`` left out)."""
    kept = {k: v for k, v in params.items() if v not in (None, "") and not (k == "page" and v == 1)}
    return path + ("?" + urlencode(kept) if kept else "")
