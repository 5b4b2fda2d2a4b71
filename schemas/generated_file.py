"""A file generated from the code and checked in (JSON Schemas, AsyncAPI, OpenAPI, the configuration
reference): one drift check, one writer and one ``--check`` command line for all of them.

Contract: ``stale`` is empty exactly when the file exists and equals ``render()`` byte for byte;
``write`` makes it so. Rendering must be deterministic (no clock, no environment).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path


def stale_file(path: Path, render: Callable[[], str], differs: str) -> list[str]:
    """Problems with the checked-in ``path``: ``"<name>: missing"`` or ``"<name>: <differs>"``."""
    if not path.exists():
        return [f"{path.name}: missing"]
    if path.read_text(encoding="utf-8") != render():
        return [f"{path.name}: {differs}"]
    return []


def write_file(path: Path, render: Callable[[], str]) -> Path:
    path.write_text(render(), encoding="utf-8")
    return path


def check_or_write(prog: str, description: str, stale: Callable[[], list[str]],
                   write: Callable[[], object], argv: list[str] | None = None) -> int:
    """``prog [--check]``: with ``--check`` print each problem to stderr and exit 1 when there is one;
    otherwise write the file(s) and print what ``write`` returned (a path or a list of paths)."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--check", action="store_true", help="only check; exit 1 when stale")
    args = parser.parse_args(argv)
    if args.check:
        problems = stale()
        for line in problems:
            print(line, file=sys.stderr)
        return 1 if problems else 0
    written = write()
    for path in written if isinstance(written, list) else [written]:
        print(path)
    return 0
