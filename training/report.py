"""What the trainers' reports share: the out-of-fold errors of a binary head and the printed JSON report.

Contracts:

- ``out_of_fold_errors(rows, oof)``: each row whose out-of-fold probability falls on the other side of 0.5
  from its ``label`` (1 positive), as ``"text (p, label L)"``, the most confident errors first.
- ``emit_report(report, path)``: the report as indented JSON (non-ASCII kept) on stdout and, when ``path`` is
  given, in that file with a closing newline.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt


def out_of_fold_errors(rows: Sequence[Mapping[str, Any]], oof: npt.NDArray[np.float64]) -> list[str]:
    """The rows the out-of-fold probabilities ``oof`` read wrong at 0.5, most confident first."""
    errors = sorted(((r["text"], round(float(q), 3), r["label"]) for r, q in zip(rows, oof, strict=True)
                     if (q >= 0.5) != (r["label"] == 1)), key=lambda e: -abs(e[1] - 0.5))
    return [f"{t} ({q}, label {lab})" for t, q, lab in errors]


def emit_report(report: Mapping[str, Any], path: Path | None) -> None:
    """Print ``report`` as indented JSON and write it to ``path`` when one is given."""
    text = json.dumps(report, ensure_ascii=False, indent=1)
    if path is not None:
        path.write_text(text + "\n", encoding="utf-8")
    print(text)
