"""What the browser sees when the console is behind a reverse proxy: scheme, host and client address.

``CONSOLE_TRUSTED_PROXIES`` lists addresses or CIDRs (comma-separated). Only when the TCP peer is one of them
are the forwarded headers believed, in this order:

- ``Forwarded`` (RFC 7239): the last element (the one our proxy appended): ``proto``, ``host``,
  ``for``;
- else ``X-Forwarded-Proto``, ``X-Forwarded-Host`` (last value of a list) and ``X-Forwarded-For``
  (the right-most address that is not itself a trusted proxy).

A value that is not a plain ``http``/``https``, a host name with an optional port, or an IP address
is ignored (the peer's own value is kept). From any other peer the headers are ignored entirely: a
client cannot claim HTTPS or another host. The console uses the view for its Origin check of the
login and for the ``Secure`` flag of the session cookie, and the client address for the failed-login
limit and the audit log.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass

from starlette.requests import Request

from core.config import ConfigError

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
_HOST_RE = re.compile(r"^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])"
                      r"(?::\d{1,5})?$")
_DEFAULT_PORTS = {"http": ":80", "https": ":443"}


class InvalidTrustedProxies(ConfigError):
    """``CONSOLE_TRUSTED_PROXIES`` holds something that is not an address or a CIDR."""


@dataclass(frozen=True)
class ClientView:
    """The request as the browser made it: ``scheme`` (http/https), ``host`` (host[:port]), ``client``."""

    scheme: str
    host: str
    client: str | None

    @property
    def origin(self) -> str:
        return normalise_origin(f"{self.scheme}://{self.host}")

    @property
    def secure(self) -> bool:
        return self.scheme == "https"


def parse_trusted(spec: str) -> tuple[Network, ...]:
    """The networks of a ``CONSOLE_TRUSTED_PROXIES`` value (empty string: none)."""
    nets: list[Network] = []
    for part in (p.strip() for p in spec.split(",")):
        if not part:
            continue
        try:
            nets.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise InvalidTrustedProxies(
                f"CONSOLE_TRUSTED_PROXIES: {part!r} is not an IP address or CIDR") from None
    return tuple(nets)


def _ip(value: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if not value:
        return None
    value = value.strip().strip('"')
    if value.startswith("[") and "]" in value:  # [v6]:port
        value = value[1:value.index("]")]
    elif value.count(":") == 1:  # v4:port
        value = value.split(":")[0]
    try:
        return ipaddress.ip_address(value)
    except ValueError:
        return None


def is_trusted(address: str | None, trusted: tuple[Network, ...]) -> bool:
    ip = _ip(address)
    return ip is not None and any(ip in net for net in trusted)


def normalise_origin(origin: str) -> str:
    """``scheme://host[:port]`` lower-cased, the scheme's default port dropped."""
    origin = origin.strip().lower().rstrip("/")
    scheme, _, rest = origin.partition("://")
    default = _DEFAULT_PORTS.get(scheme)
    if default and rest.endswith(default):
        rest = rest[: -len(default)]
    return f"{scheme}://{rest}"


def _forwarded_last(header: str) -> dict[str, str]:
    """The parameters of the last element of a ``Forwarded`` header (lower-cased names)."""
    element = header.split(",")[-1]
    params: dict[str, str] = {}
    for pair in element.split(";"):
        name, sep, value = pair.partition("=")
        if sep:
            params[name.strip().lower()] = value.strip().strip('"')
    return params


def client_view(request: Request, trusted: tuple[Network, ...]) -> ClientView:
    """The scheme, host and client address of ``request`` (forwarded values only from a trusted peer)."""
    peer = request.client.host if request.client else None
    scheme, host, client = request.url.scheme, request.headers.get("host") or request.url.netloc, peer
    if not is_trusted(peer, trusted):
        return ClientView(scheme, host, client)
    forwarded = request.headers.get("forwarded")
    if forwarded:
        params = _forwarded_last(forwarded)
        proto, fhost, ffor = params.get("proto"), params.get("host"), params.get("for")
    else:
        proto = _last(request.headers.get("x-forwarded-proto"))
        fhost = _last(request.headers.get("x-forwarded-host"))
        ffor = None
        for candidate in reversed((request.headers.get("x-forwarded-for") or "").split(",")):
            if candidate.strip() and not is_trusted(candidate, trusted):
                ffor = candidate.strip()
                break
    if proto and proto.lower() in ("http", "https"):
        scheme = proto.lower()
    if fhost and _HOST_RE.match(fhost):
        host = fhost
    ip = _ip(ffor)
    if ip is not None:
        client = str(ip)
    return ClientView(scheme, host, client)


def _last(value: str | None) -> str | None:
    if not value:
        return None
    return value.split(",")[-1].strip() or None
