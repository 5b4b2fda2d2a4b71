"""Rewriting lookarounds for a linear-time engine (part of ``core.text.regex``, importable from there).

Contracts: ``not_followed_by(*words)`` / ``not_preceded_by(*words)`` return a pattern (Python syntax)
that matches where the text does not start (end) with any of ``words``, consuming at most the longest
word's length, and matching at the end (start) of the text; ``finditer_core`` yields the spans of the
non-overlapping matches measured on one group; ``Unless`` searches a pattern except where a rejected
pattern matches at the start of a group.
"""

from __future__ import annotations

from collections.abc import Iterator

from core.text.compiled import Match, Pattern
from core.text.pattern_syntax import escape

# A negative lookaround over literal words is a regular condition on the next (previous) few
# characters, so it can be *consumed*: ``X(?!ab|c)`` matches where ``X(?:$|[^ac]|a(?:$|[^b]))``
# does. A search's truth value is unchanged; where the match's extent matters, put the part that
# counts in a group (``core``) and read the group (``finditer_core`` resumes at its end, as ``re``
# does after a lookahead).


def _class_of(chars: set[str]) -> str:
    return "[" + "".join(escape(c) if c not in "^]" else "\\" + c for c in sorted(chars)) + "]"


def not_followed_by(*words: str) -> str:
    """A pattern (Python syntax) for "the text here does not start with any of ``words``" that
    consumes at most ``max(len(w))`` characters; it matches at the end of the text."""
    if not words or any(not w for w in words):
        raise ValueError("not_followed_by needs non-empty words")
    firsts = {w[0] for w in words}
    branches = ["$", "[^" + _class_of(firsts)[1:]]
    for c in sorted(firsts):
        tails = [w[1:] for w in words if w[0] == c]
        if "" not in tails:
            branches.append(escape(c) + not_followed_by(*tails))
    return "(?:" + "|".join(branches) + ")"


def not_preceded_by(*words: str) -> str:
    """A pattern (Python syntax) for "the text before here does not end with any of ``words``" that
    consumes at most ``max(len(w))`` characters before; it matches at the start of the text."""
    if not words or any(not w for w in words):
        raise ValueError("not_preceded_by needs non-empty words")
    lasts = {w[-1] for w in words}
    branches = ["^", "[^" + _class_of(lasts)[1:]]
    for c in sorted(lasts):
        heads = [w[:-1] for w in words if w[-1] == c]
        if "" not in heads:
            branches.append(not_preceded_by(*heads) + escape(c))
    return "(?:" + "|".join(branches) + ")"


def finditer_core(pattern: Pattern[str], string: str, group: str = "core") -> Iterator[tuple[int, int]]:
    """Spans of the non-overlapping matches of ``pattern`` in ``string`` measured on ``group`` (the
    whole match when the group did not take part); each search resumes at the end of that span, so
    context consumed around the group (a rewritten lookaround) is free for the next match."""
    pos = 0
    has_group = group in pattern.groupindex
    while pos <= len(string):
        m = pattern.search(string, pos)
        if m is None:
            return
        start, end = m.span(group) if has_group and m.start(group) != -1 else m.span()
        yield start, end
        pos = end if end > start else end + 1


class Unless:
    """``pattern`` except where ``reject`` matches at the start of group ``group``: ``search`` is
    ``re``'s ``...(?!reject)(?P<group>...)``, trying the next start after a rejected one."""

    __slots__ = ("group", "pattern", "reject")

    def __init__(self, pattern: Pattern[str], group: str, reject: Pattern[str]) -> None:
        if group not in pattern.groupindex:
            raise ValueError(f"pattern has no group {group!r}")
        self.pattern, self.group, self.reject = pattern, group, reject

    @property
    def groupindex(self) -> dict[str, int]:
        return self.pattern.groupindex

    def search(self, string: str, pos: int = 0) -> Match[str] | None:
        while pos <= len(string):
            m = self.pattern.search(string, pos)
            if m is None or m.start(self.group) == -1 or not self.reject.match(string, m.start(self.group)):
                return m
            pos = m.start() + 1
        return None
