"""Data blocks for prompts: stored memories and user text fenced so they cannot pose as instructions.

A block is an opening tag line ``<label>``, one JSON value per line, and a closing tag line
``</label>``. Each value is encoded by ``encode_line``: standard JSON (non-ASCII kept readable)
whose strings additionally escape ``<``, ``>``, `````, ``&`` and every character that some reader
treats as a line break (U+0085, U+2028, U+2029; JSON already escapes the C0 controls). So no text
inside a value can start a line, close the block, open a code fence, or add a Markdown header:
whatever a user wrote, ``read_block`` returns exactly the values that were written.

Invariants: ``read_block(fenced_block(label, values), label) == values`` for any JSON-serialisable
values; every line between the tags starts with ``{``, ``[``, ``"`` or a JSON scalar, and the tags
occur once each.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

_LABEL = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
# characters escaped inside encoded values, beyond what json.dumps escapes
_EXTRA_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "`": "\\u0060", "&": "\\u0026",
                  "\u0085": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_EXTRA = re.compile("[" + re.escape("".join(_EXTRA_ESCAPES)) + "]")


class BlockFormatError(ValueError):
    """Text that is not a well-formed data block of the expected label."""


def encode_line(value: Any) -> str:
    """``value`` as one line of JSON that cannot close a block or break a line (see module doc)."""
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    # the extra characters only ever occur inside JSON strings, where \\uXXXX means the same character
    return _EXTRA.sub(lambda m: _EXTRA_ESCAPES[m[0]], text)


def fenced_block(label: str, values: Iterable[Any]) -> str:
    """``<label>``, one ``encode_line`` per value, ``</label>`` (empty values: just the two tags)."""
    if not _LABEL.match(label):
        raise ValueError(f"invalid block label {label!r}")
    return "\n".join([f"<{label}>", *(encode_line(v) for v in values), f"</{label}>"])


def read_block(text: str, label: str) -> list[Any]:
    """The values of the one ``label`` block inside ``text``; ``BlockFormatError`` if it is absent,
    repeated, or holds a line that is not one JSON value."""
    lines = text.split("\n")
    opening = [i for i, line in enumerate(lines) if line == f"<{label}>"]
    closing = [i for i, line in enumerate(lines) if line == f"</{label}>"]
    if len(opening) != 1 or len(closing) != 1 or closing[0] < opening[0]:
        raise BlockFormatError(f"expected exactly one <{label}> block, found {len(opening)} opening and "
                               f"{len(closing)} closing tag(s)")
    values = []
    for line in lines[opening[0] + 1: closing[0]]:
        try:
            values.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise BlockFormatError(f"line in <{label}> is not one JSON value: {exc}") from None
    return values
