"""A small TLS-terminating reverse proxy for tests (asyncio), in front of a local HTTP server.

It stands for the nginx/Caddy an operator puts before the console: it accepts HTTPS with a
self-signed certificate made at test time (``openssl`` CLI), and forwards each request to the backend
over plain HTTP with ``X-Forwarded-Proto: https``, ``X-Forwarded-Host`` (the browser's ``Host``) and
``X-Forwarded-For`` (the browser's address), replacing any such headers the client sent. One request
per backend connection (``Connection: close``); the response is piped back as is.
"""

from __future__ import annotations

import asyncio
import shutil
import ssl
import subprocess
import threading
from pathlib import Path

HOP_HEADERS = {b"connection", b"keep-alive", b"x-forwarded-proto", b"x-forwarded-host", b"x-forwarded-for",
               b"forwarded", b"proxy-connection"}


def self_signed_cert(folder: Path, host: str = "localhost") -> tuple[Path, Path]:
    """(certificate, key) for ``host`` and 127.0.0.1, made with the ``openssl`` CLI."""
    openssl = shutil.which("openssl")
    if openssl is None:
        raise FileNotFoundError("openssl is not installed")
    cert, key = folder / "proxy.crt", folder / "proxy.key"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", f"/CN={host}",
                    "-addext", f"subjectAltName=DNS:{host},IP:127.0.0.1"],
                   check=True, capture_output=True, timeout=60)
    return cert, key


class TlsProxy:
    """HTTPS on ``127.0.0.1:port`` -> HTTP ``backend_host:backend_port``, in a background thread."""

    def __init__(self, port: int, backend_port: int, cert: Path, key: Path,
                 backend_host: str = "127.0.0.1") -> None:
        self.port = port
        self.backend = (backend_host, backend_port)
        self._ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self._ctx.load_cert_chain(str(cert), str(key))
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="tls-proxy", daemon=True)
        self._server: asyncio.base_events.Server | None = None

    def start(self) -> TlsProxy:
        self._thread.start()
        if not self._ready.wait(30):
            raise RuntimeError("the TLS proxy did not start")
        return self

    def stop(self) -> None:
        async def close() -> None:
            if self._server is not None:
                self._server.close()
        asyncio.run_coroutine_threadsafe(close(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(
            asyncio.start_server(self._handle, "127.0.0.1", self.port, ssl=self._ctx))
        self._ready.set()
        self._loop.run_forever()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = writer.get_extra_info("peername")[0]
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head[:-4].split(b"\r\n")
            headers = [line.split(b":", 1) for line in lines[1:] if b":" in line]
            host = next((v.strip() for k, v in headers if k.strip().lower() == b"host"), b"")
            length = next((int(v) for k, v in headers if k.strip().lower() == b"content-length"), 0)
            body = await reader.readexactly(length) if length else b""
            kept = [b"%s:%s" % (k, v) for k, v in headers if k.strip().lower() not in HOP_HEADERS]
            added = [b"X-Forwarded-Proto: https", b"X-Forwarded-Host: " + host,
                     b"X-Forwarded-For: " + peer.encode(), b"Connection: close"]
            up_reader, up_writer = await asyncio.open_connection(*self.backend)
            up_writer.write(b"\r\n".join([lines[0], *kept, *added]) + b"\r\n\r\n" + body)
            await up_writer.drain()
            while chunk := await up_reader.read(65536):
                writer.write(chunk)
                await writer.drain()
            up_writer.close()
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError, ValueError):
            pass
        finally:
            writer.close()
