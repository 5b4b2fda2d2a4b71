"""Linear-time regular expressions for every pattern that runs over user text or memory content.

Python's ``re`` backtracks: a pattern with overlapping alternatives under a repetition takes time
exponential in the input (with ``re``, ``"我住在上海" + "哈" * 24 + "x"`` took 10.6 s in the rules
extractor). This module runs patterns on RE2 (PyPI ``google-re2``), whose matching time is linear
in the input for every pattern, behind the subset of the ``re`` API the code uses, so modules import
it in place of ``re`` (``from core.text import regex as re``) and keep their pattern syntax.
``tests/core/text/test_regex_guard.py`` fails when a module under ``core/`` imports the stdlib
``re`` outside its allow-list.

Patterns are written in Python syntax and translated once at compile time:

- ``\\w \\d \\s`` and ``\\W \\D \\S`` keep Python's Unicode meaning (RE2's own are ASCII-only):
  ``\\w`` = letters, numbers and ``_``; ``\\d`` = decimal digits; ``\\s`` = ``str.isspace``;
- ``\\uXXXX``, ``\\UXXXXXXXX``, ``\\xXX`` become ``\\x{...}``; ``\\Z`` becomes ``\\z``; ``{,n}`` becomes
  ``{0,n}``; an escaped non-ASCII character is the character itself;
- ``\\b``/``\\B`` are *ASCII* word boundaries (RE2 has no Unicode ones): a Chinese character next
  to an English word counts as a boundary, as it does for a reader;
- ``$`` matches only at the very end of the text (Python's also before a final newline);
- what a linear-time engine cannot run raises ``UnsupportedPattern`` at compile time: lookahead and
  lookbehind, backreferences, atomic groups, possessive quantifiers, conditionals, verbose mode.
  Rewrite those into plain patterns plus code (see ``core/extraction/rules/patterns.py``).

Matching semantics are leftmost-first like ``re``: the same match and groups for every pattern the
translation accepts (checked against ``re`` in ``tests/core/text/test_regex.py``).

The parts: the syntax translation (``pattern_syntax``), compiled patterns and matches (``compiled``),
rewritten lookarounds (``lookaround``); this module is the ``re``-like face over them, and every name
above is importable from here.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

from core.text.compiled import Match, Pattern
from core.text.lookaround import Unless, finditer_core, not_followed_by, not_preceded_by
from core.text.pattern_syntax import (
    ASCII,
    DOTALL,
    IGNORECASE,
    MULTILINE,
    A,
    I,
    M,
    RegexFlag,
    S,
    UnsupportedPattern,
    escape,
)
from core.text.pattern_syntax import VERBOSE as VERBOSE  # refused, named as in re
from core.text.pattern_syntax import X as X
from core.text.pattern_syntax import translate as translate

__all__ = [
    "ASCII",
    "DOTALL",
    "IGNORECASE",
    "MULTILINE",
    "A",
    "I",
    "M",
    "Match",
    "Pattern",
    "RegexFlag",
    "S",
    "Unless",
    "UnsupportedPattern",
    "compile",
    "escape",
    "findall",
    "finditer",
    "finditer_core",
    "fullmatch",
    "match",
    "not_followed_by",
    "not_preceded_by",
    "search",
    "split",
    "sub",
    "subn",
]


@functools.lru_cache(maxsize=512)
def _compile(pattern: str, flags: int) -> Pattern[str]:
    return Pattern(pattern, flags)


def compile(pattern: str | Pattern[str], flags: int = 0) -> Pattern[str]:
    """``pattern`` compiled for linear-time matching (cached); ``UnsupportedPattern`` if it cannot be."""
    if isinstance(pattern, Pattern):
        if flags:
            raise ValueError("cannot process flags argument with a compiled pattern")
        return pattern
    return _compile(pattern, int(flags))


def search(pattern: str | Pattern[str], string: str, flags: int = 0) -> Match[str] | None:
    return compile(pattern, flags).search(string)


def match(pattern: str | Pattern[str], string: str, flags: int = 0) -> Match[str] | None:
    return compile(pattern, flags).match(string)


def fullmatch(pattern: str | Pattern[str], string: str, flags: int = 0) -> Match[str] | None:
    return compile(pattern, flags).fullmatch(string)


def finditer(pattern: str | Pattern[str], string: str, flags: int = 0) -> Iterator[Match[str]]:
    return compile(pattern, flags).finditer(string)


def findall(pattern: str | Pattern[str], string: str, flags: int = 0) -> list[Any]:
    return compile(pattern, flags).findall(string)


def split(pattern: str | Pattern[str], string: str, maxsplit: int = 0, flags: int = 0) -> list[str | Any]:
    return compile(pattern, flags).split(string, maxsplit)


def sub(pattern: str | Pattern[str], repl: str | Callable[[Match[str]], str], string: str, count: int = 0,
        flags: int = 0) -> str:
    return compile(pattern, flags).sub(repl, string, count)


def subn(pattern: str | Pattern[str], repl: str | Callable[[Match[str]], str], string: str, count: int = 0,
         flags: int = 0) -> tuple[str, int]:
    return compile(pattern, flags).subn(repl, string, count)
