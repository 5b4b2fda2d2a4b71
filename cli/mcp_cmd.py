"""``pai-memory mcp --transport stdio|http``: serve the memory tools to MCP clients (``api.mcp_server``)."""

from __future__ import annotations

import argparse

from core.config import load_settings


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("mcp", help="MCP server: the memory tools and retrieval for MCP clients")
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio",
                        help="stdio (default; a desktop client starts this command) or streamable HTTP on "
                             "MCP_HOST:MCP_PORT at /mcp (requires API_TOKEN)")
    parser.add_argument("--user", default=None,
                        help="act for this user only (sets MCP_USER_ID; tools then take no user_id)")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from api.mcp_server import serve_http, serve_stdio
    from producers.tracing import setup_tracing

    settings = load_settings(**({"MCP_USER_ID": args.user} if args.user else {}))
    setup_tracing(settings, "mcp")  # OTEL_ENABLED: a span per tool call, exported over OTLP
    if args.transport == "stdio":
        serve_stdio(settings)
    else:
        serve_http(settings)
    return 0
