"""Reading results files and formatting numbers and Markdown tables for ``bench/RESULTS.md``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

KS = (1, 5, 10)


def load(results: Path, name: str) -> dict[str, Any] | None:
    """``results/NAME.json`` parsed, or None when the benchmark left no file."""
    path = results / f"{name}.json"
    if not path.exists():
        return None
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def fmt(v: Any, digits: int = 1) -> str:
    if v is None:
        return "n/a"
    if isinstance(v, float):
        return f"{v:.{digits}f}"
    return str(v)


def pct(v: Any) -> str:
    return "n/a" if v is None else f"{100 * v:.1f}%"


def table(header: list[str], rows: list[list[Any]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def failed(data: dict[str, Any] | None, name: str) -> str | None:
    if data is None:
        return f"_{name}: not run in this suite run._"
    if "error" in data:
        return f"_{name} FAILED: {data['error']}._\n\n```\n{data.get('stderr_tail', '')[-1500:]}\n```"
    if "skipped" in data:
        return f"_{name} skipped: {data['skipped']}._"
    return None
