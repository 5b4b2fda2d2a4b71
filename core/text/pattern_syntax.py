"""Python regular-expression syntax translated to RE2's (the pattern half of ``core.text.regex``).

Contract of ``translate``: the RE2 pattern with the meaning of a Python pattern under the ``re`` flags
(the rules are listed in ``core.text.regex``'s docstring); a construct a linear-time engine cannot run
raises ``UnsupportedPattern`` naming it and its position. ``escape`` writes text as a literal of such a
pattern (``re.escape``'s rules). Pure functions; the stdlib ``re`` here only tokenises pattern text
written in this repository, never user text.
"""

from __future__ import annotations

import enum
import re as _stdlib_re  # only to tokenise pattern text written in this repository, never user text
import unicodedata


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


def escape(text: str) -> str:
    """``text`` as a literal in a pattern of this module (Python syntax, so ``re.escape`` rules)."""
    return "".join("\\" + ch if ch in _SPECIAL else ch for ch in text)


_SPECIAL = frozenset("()[]{}?*+-|^$\\.&~# \t\n\r\v\f")
