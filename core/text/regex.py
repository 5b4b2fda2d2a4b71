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
"""

from __future__ import annotations

import enum
import functools
import re as _stdlib_re  # only to tokenise pattern text written in this repository, never user text
import unicodedata
from collections.abc import Callable, Iterator
from typing import Any, Generic, Protocol, TypeVar

import re2

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


class RegexFlag(enum.IntFlag):
    """The ``re`` flags this module understands (same values as ``re``'s)."""

    IGNORECASE = 2
    MULTILINE = 8
    DOTALL = 16
    ASCII = 256
    VERBOSE = 64  # refused: write the pattern on one line


IGNORECASE = I = RegexFlag.IGNORECASE  # noqa: E741 - the name re uses
MULTILINE = M = RegexFlag.MULTILINE
DOTALL = S = RegexFlag.DOTALL
ASCII = A = RegexFlag.ASCII
VERBOSE = X = RegexFlag.VERBOSE


class UnsupportedPattern(ValueError):
    """The pattern uses a construct a linear-time engine cannot run (or is not valid)."""


# Python's str classes (``str.isspace`` / ``str.isalnum`` / Nd) spelled with RE2's Unicode classes
_WORD = r"\p{L}\p{N}_"
_SPACE = r"\p{Z}\t\n\x{b}\x{c}\r\x{1c}-\x{1f}\x{85}"
_DIGIT = r"\p{Nd}"
_HEX = "0123456789abcdefABCDEF"
_PLAIN_RUN = _stdlib_re.compile(r"[^\\\[\](){}*+?.^$|\s]+")
_MAX_MEM = 64 << 20  # per compiled pattern; the lexicon alternations need more than RE2's default 8 MiB


def _hex_escape(code: int) -> str:
    return f"\\x{{{code:x}}}"


def _literal(ch: str) -> str:
    """``ch`` as an RE2 literal (inside or outside a class)."""
    if ord(ch) < 128 and not ch.isalnum() and ch != "_":
        return "\\" + ch if not ch.isspace() else _hex_escape(ord(ch))
    if ord(ch) < 128:
        return ch
    return ch if ch.isprintable() else _hex_escape(ord(ch))


class _Translator:
    """One pass over a Python pattern, emitting the RE2 pattern with the same meaning."""

    def __init__(self, pattern: str, ascii_classes: bool) -> None:
        self.p = pattern
        self.i = 0
        self.out: list[str] = []
        self.ascii = ascii_classes

    def fail(self, what: str) -> UnsupportedPattern:
        return UnsupportedPattern(f"{what} at position {self.i} of pattern {self.p[:200]!r}: a linear-time "
                                  "engine cannot run it; rewrite it (see core/text/regex.py)")

    def run(self) -> str:
        p = self.p
        while self.i < len(p):
            plain = _PLAIN_RUN.match(p, self.i)
            if plain:  # characters that are literals in both syntaxes, copied as they are
                self.out.append(plain.group())
                self.i = plain.end()
                continue
            ch = p[self.i]
            if ch == "\\":
                self.out.append(self._escape(in_class=False))
            elif ch == "[":
                self._class()
            elif ch == "(":
                self._group()
            elif ch in "*+?":
                self.i += 1
                self.out.append(ch)
                self._after_quantifier()
            elif ch == "{":
                self._brace()
            elif ch in "]}":
                self.i += 1
                self.out.append("\\" + ch)
            else:
                self.i += 1
                self.out.append(ch if ch in ".^$|)" else _literal(ch))
        return "".join(self.out)

    def _after_quantifier(self) -> None:
        if self.i < len(self.p) and self.p[self.i] == "+":
            raise self.fail("possessive quantifier")
        if self.i < len(self.p) and self.p[self.i] == "?":
            self.i += 1
            self.out.append("?")
            if self.i < len(self.p) and self.p[self.i] == "+":
                raise self.fail("possessive quantifier")

    def _brace(self) -> None:
        p, j = self.p, self.i + 1
        k = p.find("}", j)
        body = p[j:k] if k != -1 else ""
        lo, comma, hi = body.partition(",")
        valid = (k != -1 and (lo.isdigit() or (comma and lo == "" and hi.isdigit()))
                 and (hi == "" or hi.isdigit()))
        if not valid:
            self.i += 1
            self.out.append("\\{")
            return
        self.i = k + 1
        self.out.append("{" + (lo or "0") + comma + hi + "}")
        self._after_quantifier()

    def _group(self) -> None:
        p = self.p
        if not p.startswith("(?", self.i):
            self.i += 1
            self.out.append("(")
            return
        rest = p[self.i + 2:]
        if rest.startswith(":"):
            self.i += 3
            self.out.append("(?:")
        elif rest.startswith("P<"):
            end = p.index(">", self.i)
            self.out.append(p[self.i:end + 1])
            self.i = end + 1
        elif rest.startswith(("=", "!", "<=", "<!")):
            raise self.fail("lookaround")
        elif rest.startswith("P="):
            raise self.fail("backreference")
        elif rest.startswith(">"):
            raise self.fail("atomic group")
        elif rest.startswith("("):
            raise self.fail("conditional")
        elif rest.startswith("#"):
            end = p.index(")", self.i)
            self.i = end + 1
        else:
            j = self.i + 2
            flags = ""
            while j < len(p) and p[j] in "aiLmsux-":
                flags += p[j]
                j += 1
            if j >= len(p) or p[j] not in ":)":
                raise self.fail("unknown group syntax")
            if any(f in flags for f in "xL"):
                raise self.fail(f"inline flag in {flags!r}")
            if "a" in flags:
                if p[j] != ")":
                    raise self.fail("scoped ASCII flag")
                self.ascii = True
            kept = "".join(f for f in flags if f in "ims-").rstrip("-")
            self.i = j + 1
            if p[j] == ":":
                self.out.append(f"(?{kept}:" if kept else "(?:")
            elif kept:
                self.out.append(f"(?{kept})")

    def _escape(self, in_class: bool) -> str:
        p = self.p
        if self.i + 1 >= len(p):
            raise self.fail("trailing backslash")
        c = p[self.i + 1]
        self.i += 2
        if c in "wWdDsS":
            if self.ascii:
                return "\\" + c if c not in "sS" else ("[" if c == "s" else "[^") + r"\t\n\x{b}\x{c}\r ]"
            inner = {"w": _WORD, "d": _DIGIT, "s": _SPACE}[c.lower()]
            if in_class:
                if c == "D":
                    return r"\P{Nd}"
                if c.isupper():
                    raise self.fail(f"\\{c} inside a character class")
                return inner
            if c == "d":
                return _DIGIT
            if c == "D":
                return r"\P{Nd}"
            return ("[" if c.islower() else "[^") + inner + "]"
        if c in "bB" and not in_class:
            return "\\" + c
        if c == "b":  # backspace inside a class
            return _hex_escape(8)
        if c == "A" and not in_class:
            return r"\A"
        if c == "Z" and not in_class:
            return r"\z"
        if c in "ntrfva":
            return _hex_escape(ord({"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}[c]))
        if c in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[c]
            digits = p[self.i:self.i + width]
            if len(digits) != width or any(d not in _HEX for d in digits):
                raise self.fail(f"bad \\{c} escape")
            self.i += width
            return _hex_escape(int(digits, 16))
        if c == "N":
            end = p.find("}", self.i)
            if not p.startswith("{", self.i) or end == -1:
                raise self.fail("bad \\N escape")
            try:
                ch = unicodedata.lookup(p[self.i + 1:end])
            except KeyError as exc:
                raise self.fail("unknown character name") from exc
            self.i = end + 1
            return _literal(ch)
        if c.isdigit():
            raise self.fail("backreference or octal escape")
        if c.isascii() and c.isalpha():
            raise self.fail(f"unknown escape \\{c}")
        return _literal(c)

    def _class(self) -> None:
        p = self.p
        self.i += 1
        parts = ["["]
        if self.i < len(p) and p[self.i] == "^":
            parts.append("^")
            self.i += 1
        if self.i < len(p) and p[self.i] == "]":
            parts.append("\\]")
            self.i += 1
        while True:
            if self.i >= len(p):
                raise self.fail("unterminated character class")
            ch = p[self.i]
            if ch == "]":
                self.i += 1
                break
            if ch == "\\":
                parts.append(self._escape(in_class=True))
            elif ch == "-":
                parts.append("-")
                self.i += 1
            else:
                parts.append(_literal(ch) if ch in "[^\\" or ord(ch) >= 128 or ch.isspace() else ch)
                self.i += 1
        parts.append("]")
        self.out.append("".join(parts))


def translate(pattern: str, flags: int = 0) -> str:
    """The RE2 pattern with the meaning of Python ``pattern`` under ``flags`` (see the module doc)."""
    if flags & VERBOSE:
        raise UnsupportedPattern("re.VERBOSE is not supported: write the pattern without it")
    body = _Translator(pattern, ascii_classes=bool(flags & ASCII)).run()
    inline = "".join(f for flag, f in ((IGNORECASE, "i"), (MULTILINE, "m"), (DOTALL, "s")) if flags & flag)
    return f"(?{inline}){body}" if inline else body


_T = TypeVar("_T")
_T_co = TypeVar("_T_co", covariant=True)


class Match(Protocol[_T_co]):
    """The part of ``re.Match`` this module's match objects provide."""

    @property
    def string(self) -> _T_co: ...
    @property
    def lastgroup(self) -> str | None: ...
    def group(self, *groups: int | str) -> Any: ...
    def groups(self, default: Any = None) -> tuple[Any, ...]: ...
    def groupdict(self, default: Any = None) -> dict[str, Any]: ...
    def start(self, group: int | str = 0) -> int: ...
    def end(self, group: int | str = 0) -> int: ...
    def span(self, group: int | str = 0) -> tuple[int, int]: ...
    def __getitem__(self, group: int | str) -> Any: ...


class _Match:
    """RE2's match object, with ``start``/``end``/``span`` also taking group names (as ``re``'s do)."""

    __slots__ = ("_m", "_names")

    def __init__(self, m: Any, names: dict[str, int]) -> None:
        self._m = m
        self._names = names

    def _index(self, group: int | str) -> int:
        return self._names[group] if isinstance(group, str) else group

    @property
    def string(self) -> str:
        return self._m.string

    @property
    def lastgroup(self) -> str | None:
        return self._m.lastgroup

    def group(self, *groups: int | str) -> Any:
        return self._m.group(*groups)

    def groups(self, default: Any = None) -> tuple[Any, ...]:
        return self._m.groups(default)

    def groupdict(self, default: Any = None) -> dict[str, Any]:
        return self._m.groupdict(default)

    def start(self, group: int | str = 0) -> int:
        return self._m.start(self._index(group))

    def end(self, group: int | str = 0) -> int:
        return self._m.end(self._index(group))

    def span(self, group: int | str = 0) -> tuple[int, int]:
        return self._m.span(self._index(group))

    def __getitem__(self, group: int | str) -> Any:
        return self._m[group]

    def __repr__(self) -> str:
        return f"<core.text.regex match span={self.span()} match={self.group()!r}>"


def _template(template: str, pattern: Pattern[Any]) -> Callable[[Match[str]], str]:
    """A replacement function for an ``re.sub`` template: ``\\1``, ``\\g<name>``, ``\\g<1>``, ``\\n``..."""
    if "\\" not in template:
        return lambda _m: template
    pieces: list[str | int] = []
    literal: list[str] = []
    i = 0
    while i < len(template):
        ch = template[i]
        if ch != "\\" or i + 1 >= len(template):
            literal.append(ch)
            i += 1
            continue
        nxt = template[i + 1]
        group: int | str | None = None
        if nxt.isdigit():
            j = i + 2 if not template[i + 2:i + 3].isdigit() else i + 3
            group, i = int(template[i + 1:j]), j
        elif nxt == "g" and template.startswith("<", i + 2):
            end = template.index(">", i)
            name = template[i + 3:end]
            group = int(name) if name.isdigit() else pattern.groupindex[name]
            i = end + 1
        else:
            escapes = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", "f": "\f", "v": "\v", "a": "\a"}
            if nxt not in escapes:
                raise UnsupportedPattern(f"bad escape \\{nxt} in replacement {template!r}")
            literal.append(escapes[nxt])
            i += 2
            continue
        if literal:
            pieces.append("".join(literal))
            literal = []
        pieces.append(group)
    if literal:
        pieces.append("".join(literal))

    def expand(m: Match[str]) -> str:
        return "".join(p if isinstance(p, str) else (m.group(p) or "") for p in pieces)

    return expand


class Pattern(Generic[_T]):
    """A compiled linear-time pattern with the ``re.Pattern`` methods the code uses (text is ``str``)."""

    __slots__ = ("_rx", "flags", "groupindex", "groups", "pattern", "translated")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = int(flags)
        self.translated = translate(pattern, flags)
        options = re2.Options()
        options.max_mem = _MAX_MEM
        options.log_errors = False
        try:
            self._rx = re2.compile(self.translated, options)
        except re2.error as exc:
            raise UnsupportedPattern(f"RE2 rejected {pattern[:200]!r}: {exc}") from exc
        self.groups: int = self._rx.groups
        self.groupindex: dict[str, int] = dict(self._rx.groupindex)

    def __repr__(self) -> str:
        return f"core.text.regex.compile({self.pattern[:80]!r})"

    def _wrap(self, m: Any) -> Match[str] | None:
        return None if m is None else _Match(m, self.groupindex)

    def search(self, string: str, pos: int = 0, endpos: int | None = None) -> Match[str] | None:
        return self._wrap(self._rx.search(string, pos, endpos))

    def match(self, string: str, pos: int = 0, endpos: int | None = None) -> Match[str] | None:
        return self._wrap(self._rx.match(string, pos, endpos))

    def fullmatch(self, string: str, pos: int = 0, endpos: int | None = None) -> Match[str] | None:
        return self._wrap(self._rx.fullmatch(string, pos, endpos))

    def finditer(self, string: str, pos: int = 0, endpos: int | None = None) -> Iterator[Match[str]]:
        return (_Match(m, self.groupindex) for m in self._rx.finditer(string, pos, endpos))

    def findall(self, string: str, pos: int = 0, endpos: int | None = None) -> list[Any]:
        return self._rx.findall(string, pos, endpos)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self._rx.split(string, maxsplit)

    def subn(self, repl: str | Callable[[Match[str]], str], string: str, count: int = 0) -> tuple[str, int]:
        fn = _template(repl, self) if isinstance(repl, str) else repl
        names = self.groupindex
        return self._rx.subn(lambda m: fn(_Match(m, names)), string, count)

    def sub(self, repl: str | Callable[[Match[str]], str], string: str, count: int = 0) -> str:
        return self.subn(repl, string, count)[0]


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


def escape(text: str) -> str:
    """``text`` as a literal in a pattern of this module (Python syntax, so ``re.escape`` rules)."""
    return "".join("\\" + ch if ch in _SPECIAL else ch for ch in text)


_SPECIAL = frozenset("()[]{}?*+-|^$\\.&~# \t\n\r\v\f")


# --- rewriting lookarounds ---------------------------------------------------------------------
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
