"""Appending a hand-rows module's rows to a copy of the utterance corpus, as its ``--append`` does."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any


def appended_rows(main: Callable[[list[str]], int], corpus: Path, start: str) -> list[dict[str, Any]]:
    """Write ``start`` to ``corpus``, run ``main(["--append", "--corpus", corpus])`` (which must succeed) and
    return the rows it added after ``start``'s lines, in order."""
    corpus.write_text(start, encoding="utf-8")
    assert main(["--append", "--corpus", str(corpus)]) == 0
    lines = corpus.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[len(start.splitlines()):]]
