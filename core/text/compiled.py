"""Compiled linear-time patterns: ``Pattern`` runs a translated pattern on RE2 behind the ``re.Pattern``
methods the code uses, and its matches (``Match``) behave like ``re.Match`` (group names accepted by
``start``/``end``/``span``; ``sub`` templates as in ``re``). A pattern RE2 rejects raises
``UnsupportedPattern`` at construction. Text is ``str``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Generic, Protocol, TypeVar

import re2

from core.text.pattern_syntax import UnsupportedPattern, translate

_MAX_MEM = 64 << 20  # per compiled pattern; the lexicon alternations need more than RE2's default 8 MiB

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
