"""Is a clause a question: ``patterns.QUESTION`` matches, or it ends in "X不X" ("去不去", "好不好"),
which ``re`` wrote as a backreference and a linear-time engine cannot (``patterns.A_NOT_A`` plus the
comparison here). Pure function over ``segment.normalise``d text.
"""

from __future__ import annotations

from core.extraction.rules import patterns


def is_question(text: str) -> bool:
    """QUESTION, or "X不X" at the end ("去不去", "好不好"): ``re`` wrote that as a backreference."""
    if patterns.QUESTION.search(text):
        return True
    m = patterns.A_NOT_A.search(text)
    return bool(m and m.group("a") == m.group("b"))
