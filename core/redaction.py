"""Masking of secrets in anything the product prints or logs.

What counts as a secret, in one place:

- values typed ``SecretStr``;
- librdkafka client options whose name says they carry key material or a credential: every ``ssl.*``
  and ``sasl.*`` option except a short allow-list of non-secret ones (mechanism, method, file
  locations, endpoint identification, Kerberos service name, user name), and any option whose name
  contains ``password``, ``secret``, ``token``, ``key``, ``credential``, ``pem`` or ``jaas``;
- in URLs: the password of ``user:password@`` (and a lone ``TOKEN@`` user part, except for database
  URLs whose user part is a role name), and the values of key-like query/fragment parameters
  (``api-key``, ``api_key``, ``key``, ``token``, ``access_token``, ``sig``, ``signature``,
  ``password``, ``secret``... any name containing key, token, secret, passw, sig, auth or credential);
- ``Bearer <token>`` in free text;
- every secret value seen by ``load_settings`` (``register_settings``), wherever it appears.

Database errors are logged by class, SQLSTATE and constraint/table name only: their messages can
quote the failing row or the offending value (users' message content), so ``describe_db_error``
replaces them in log records (``RedactingFilter``), and the SQLAlchemy engines are created with
``hide_parameters=True``.

Invariant: ``redact_text(s)`` never contains a registered secret or a masked part of ``s``; masking is
idempotent.
"""

from __future__ import annotations

import logging
import re
import sys
import threading
import traceback
from collections.abc import Iterable, Mapping
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urlsplit

MASK = "**********"
_MIN_REGISTERED = 6  # shorter values (e.g. a password "pai") would mask ordinary words

# librdkafka options under ssl./sasl. that hold no secret (everything else there is masked)
_CLIENT_OPTION_ALLOWED = frozenset({
    "sasl.mechanism", "sasl.mechanisms", "sasl.username", "sasl.oauthbearer.method",
    "sasl.kerberos.service.name", "sasl.kerberos.principal", "ssl.endpoint.identification.algorithm",
    "ssl.ca.location", "ssl.certificate.location", "ssl.key.location", "ssl.keystore.location",
    "ssl.crl.location", "ssl.engine.location", "ssl.providers", "ssl.cipher.suites", "ssl.curves.list",
    "ssl.sigalgs.list", "ssl.ca.certificate.stores", "enable.ssl.certificate.verification",
})
_SENSITIVE_OPTION_WORDS = ("password", "secret", "token", "key", "credential", "pem", "jaas")
_SENSITIVE_PARAM = re.compile(r"key|token|secret|passw|pwd|sig|auth|credential|session|code", re.I)
_SCHEME_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]{1,30}://[^\s'\"<>`]+")
_USERINFO = re.compile(r"(?<=://)[^/@\s]+@")
_BEARER = re.compile(r"(?i)\b(bearer\s+)[^\s'\",;]+")
# parameters in text: ?name=value / &name=value / ;name=value / #name=value
_PARAM = re.compile(r"([?&;#])([^=&;#\s]+)=([^&;#\s'\"<>]*)")
_DB_DETAIL = re.compile(r"(?m)^(DETAIL|HINT|CONTEXT|WHERE):.*$|\[parameters: .*?\](?=\n|$)")

_registered: set[str] = set()
_lock = threading.Lock()


def is_sensitive_client_option(name: str) -> bool:
    """True when the librdkafka option ``name`` may hold key material or a credential."""
    lowered = name.strip().lower()
    if lowered in _CLIENT_OPTION_ALLOWED:
        return False
    if lowered.startswith(("ssl.", "sasl.", "ssl_", "sasl_")):
        return True
    return any(word in lowered for word in _SENSITIVE_OPTION_WORDS)


def mask_client_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` with the value of every sensitive option (by name or by type) replaced by ``MASK``."""
    return {k: (MASK if is_sensitive_client_option(k) or _is_secret_type(v) else mask_value(v))
            for k, v in options.items()}


def is_sensitive_param(name: str) -> bool:
    """True when a URL query/fragment parameter name says it carries a credential."""
    return bool(_SENSITIVE_PARAM.search(unquote(name)))


def _mask_params(text: str) -> str:
    return _PARAM.sub(lambda m: f"{m[1]}{m[2]}={MASK}" if m[3] and is_sensitive_param(m[2]) else m[0], text)


def mask_url(url: str) -> str:
    """``url`` with its credentials masked: userinfo secrets and key-like parameter values."""
    try:
        parts = urlsplit(url)
        password = parts.password
        username = parts.username
    except ValueError:  # unparsable (e.g. a bad port): mask any userinfo
        return _mask_params(_USERINFO.sub(MASK + "@", url))
    out = url
    if "@" in parts.netloc:
        userinfo, _, host = parts.netloc.rpartition("@")
        if password is not None:
            user, _, _ = userinfo.partition(":")
            masked_info = f"{user}:{MASK}"
        elif username and not parts.scheme.lower().startswith("postgres"):
            masked_info = MASK  # https://TOKEN@host: a lone user part is a token
        else:
            masked_info = userinfo
        out = out.replace(f"{parts.netloc}", f"{masked_info}@{host}", 1)
    return _mask_params(out)


def _is_secret_type(value: Any) -> bool:
    from pydantic import SecretBytes, SecretStr

    return isinstance(value, SecretStr | SecretBytes)


def mask_value(value: Any) -> Any:
    """A printable version of a configuration value: secrets by type, URLs by content, recursively."""
    if _is_secret_type(value):
        return MASK
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, Mapping):
        return {k: mask_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(mask_value(v) for v in value)
    return value


def register_secret(value: str | None) -> None:
    """Mask ``value`` in every later ``redact_text`` (values shorter than 6 characters are ignored)."""
    if value and len(value) >= _MIN_REGISTERED:
        with _lock:
            _registered.add(value)


def url_secrets(url: str) -> list[str]:
    """The secret parts of ``url``: userinfo password/token and key-like parameter values."""
    found: list[str] = []
    try:
        parts = urlsplit(url)
        if parts.password:
            found += [parts.password, unquote(parts.password)]
        elif parts.username and not parts.scheme.lower().startswith("postgres"):
            found += [parts.username, unquote(parts.username)]
    except ValueError:
        pass
    for m in _PARAM.finditer(url):
        if m[3] and is_sensitive_param(m[2]):
            found += [m[3], unquote(m[3])]
    return found


def secret_values(values: Iterable[tuple[str, Any]]) -> list[str]:
    """Secret strings inside named configuration values (by type, by option name, inside URLs)."""
    found: list[str] = []
    for _name, value in values:
        if _is_secret_type(value):
            raw = value.get_secret_value()
            found.append(raw if isinstance(raw, str) else raw.decode("utf-8", "replace"))
            if isinstance(raw, str) and "://" in raw:
                found += url_secrets(raw)
        elif isinstance(value, Mapping):
            for k, v in value.items():
                if is_sensitive_client_option(str(k)) and v is not None:
                    found.append(str(v))
                else:
                    found += secret_values([(str(k), v)])
        elif isinstance(value, str) and "://" in value:
            found += url_secrets(value)
    return found


def register_settings(settings: Any) -> None:
    """Register every secret of a ``Settings`` object (see ``secret_values``)."""
    for secret in secret_values((n, getattr(settings, n)) for n in type(settings).model_fields):
        register_secret(secret)


def redact_text(text: str) -> str:
    """``text`` with URLs' credentials, bearer tokens and registered secrets masked."""
    if not text:
        return text
    out = _SCHEME_URL.sub(lambda m: mask_url(m[0]), text)
    out = _mask_params(out) if ("=" in out and any(c in out for c in "?&#")) else out
    out = _BEARER.sub(lambda m: m[1] + MASK, out)
    with _lock:
        registered = sorted(_registered, key=len, reverse=True)
    for secret in registered:
        if secret in out:
            out = out.replace(secret, MASK)
    return out


def redact_credentials(text: str) -> str:
    """``redact_text``, then every URL user-info part masked whole (``MASK@``): also the ones
    ``mask_url`` keeps (a database role name, the user of ``user:password@``) or cannot parse.

    The one credential mask for free text shown to callers (configuration errors, retrieval's
    ``fallback_reason``); idempotent."""
    return _USERINFO.sub(MASK + "@", redact_text(text))


def one_line_error(exc: BaseException, limit: int = 300) -> str:
    """``exc`` as one line for logs and reasons: whitespace collapsed, ``redact_credentials``,
    at most ``limit`` characters."""
    return redact_credentials(" ".join(str(exc).split()))[:limit]


# --- database errors ------------------------------------------------------------------------------

def _db_error_types() -> tuple[type[BaseException], ...]:
    types: list[type[BaseException]] = []
    try:
        from sqlalchemy.exc import StatementError

        types.append(StatementError)
    except ImportError:  # pragma: no cover - SQLAlchemy is a dependency
        pass
    try:
        import psycopg

        types.append(psycopg.Error)
    except ImportError:  # pragma: no cover - psycopg is a dependency
        pass
    return tuple(types)


def is_db_error(exc: BaseException) -> bool:
    return isinstance(exc, _db_error_types())


def describe_db_error(exc: BaseException) -> str:
    """A database error without its message: class, SQLSTATE, constraint and table names only."""
    orig = getattr(exc, "orig", None) or exc
    parts = [type(exc).__name__]
    if orig is not exc:
        parts.append(f"({type(orig).__module__}.{type(orig).__name__})")
    sqlstate = getattr(orig, "sqlstate", None)
    if sqlstate:
        parts.append(f"sqlstate={sqlstate}")
    diag = getattr(orig, "diag", None)
    for attr in ("constraint_name", "table_name", "column_name"):
        value = getattr(diag, attr, None) if diag is not None else None
        if value:
            parts.append(f"{attr.removesuffix('_name')}={value}")
    return " ".join(parts) + " [message hidden: it may quote user data]"


def format_exception(exc_info: tuple[type[BaseException], BaseException, TracebackType | None]) -> str:
    """The traceback text of ``exc_info`` with database errors' messages replaced, then redacted."""
    te = traceback.TracebackException(*exc_info, compact=True)
    node: traceback.TracebackException | None = te
    exc: BaseException | None = exc_info[1]
    seen: set[int] = set()
    while node is not None and exc is not None and id(exc) not in seen:  # TracebackException's own walk
        seen.add(id(exc))
        if is_db_error(exc) and hasattr(node, "_str"):
            node._str = describe_db_error(exc)
        if exc.__cause__ is not None:
            node, exc = node.__cause__, exc.__cause__
        elif exc.__context__ is not None and not exc.__suppress_context__:
            node, exc = node.__context__, exc.__context__
        else:
            break
    return redact_text("".join(te.format()).rstrip("\n"))


class RedactingFilter(logging.Filter):
    """Rewrites every record it sees: message, arguments and traceback redacted (see module doc)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            if isinstance(record.args, tuple):
                record.args = tuple(describe_db_error(a) if isinstance(a, BaseException) and is_db_error(a)
                                    else a for a in record.args)
            message = record.getMessage()
        except Exception:  # a broken format string: keep the raw template, still redacted
            message = str(record.msg)
        message = _DB_DETAIL.sub("", message) if "DETAIL:" in message or "[parameters:" in message \
            else message
        record.msg = redact_text(message)
        record.args = None
        if record.exc_info and record.exc_info[1] is not None:
            exc_type, exc_value, tb = record.exc_info
            assert exc_type is not None
            record.exc_text = format_exception((exc_type, exc_value, tb))
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = redact_text(record.exc_text)
        if record.stack_info:
            record.stack_info = redact_text(record.stack_info)
        return True


_FILTER = RedactingFilter()


def install_log_redaction(logger: logging.Logger | None = None) -> None:
    """Attach the redacting filter to every handler of ``logger`` (root by default), idempotently,
    and route uncaught exceptions (main and other threads) through logging so they are redacted too."""
    target = logger or logging.getLogger()
    for handler in target.handlers:
        if _FILTER not in handler.filters:
            handler.addFilter(_FILTER)
    log = logging.getLogger("pai_memory.uncaught")

    def excepthook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc, tb)
            return
        log.critical("uncaught exception", exc_info=(exc_type, exc, tb))

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit or args.exc_value is None:
            return
        name = args.thread.name if args.thread is not None else "?"
        log.error("uncaught exception in thread %s", name,
                  exc_info=(args.exc_type, args.exc_value, args.exc_traceback))

    sys.excepthook = excepthook
    threading.excepthook = thread_hook
