"""``pai-memory schemas list|show|generate|check``: the event contract's JSON Schema files and its
AsyncAPI document (``schemas/asyncapi.yaml``), the export document's schema (``schemas/export.schema.json``)
and the HTTP API's OpenAPI document (``schemas/openapi.json``)."""

from __future__ import annotations

import argparse
import sys

from schemas import EVENT_TYPES, asyncapi, export
from schemas.generate import render, stale_files, write_files


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("schemas", help="event JSON Schemas: list, show, generate, check")
    cmds = parser.add_subparsers(dest="schemas_command", required=True)
    cmds.add_parser("list", help="list the event types").set_defaults(func=_list)
    show = cmds.add_parser("show", help="print the JSON Schema of one event type")
    show.add_argument("type", choices=sorted(EVENT_TYPES))
    show.set_defaults(func=_show)
    cmds.add_parser("generate", help="rewrite schemas/json/*.json and schemas/asyncapi.yaml from the code "
                    "(in a source checkout)"
                    ).set_defaults(func=_generate)
    cmds.add_parser("check",
                    help="exit 1 if schemas/json/*.json or schemas/asyncapi.yaml differ from the code"
                    ).set_defaults(func=_check)


def _list(args: argparse.Namespace) -> int:
    for name in sorted(EVENT_TYPES):
        print(name)
    return 0


def _show(args: argparse.Namespace) -> int:
    sys.stdout.write(render(args.type))
    return 0


def _generate(args: argparse.Namespace) -> int:
    for path in write_files():
        print(path)
    print(asyncapi.write())
    print(export.write())
    from api import openapi_doc

    print(openapi_doc.write())
    return 0


def _check(args: argparse.Namespace) -> int:
    from api import openapi_doc

    problems = stale_files() + asyncapi.stale() + export.stale() + openapi_doc.stale()
    for line in problems:
        print(line, file=sys.stderr)
    return 1 if problems else 0
