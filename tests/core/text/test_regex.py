"""``core.text.regex``: Python pattern syntax on RE2, checked against the stdlib ``re``."""

from __future__ import annotations

import random
import re as stdlib_re

import pytest

from core.text import regex as lre

# patterns in the syntax the code uses, with texts where Unicode classes, case, groups, lazy
# quantifiers and anchors matter; each must give re's answer (same span and groups)
PATTERNS = [
    r"\w+", r"\W+", r"\d+", r"\D+", r"\s+", r"\S+", r"[\w .'&-]{1,30}?", r"[^\s,，]+", r"[\u3400-\u9fff]+",
    r"(?P<a>\w)\s*不\s*(?P<b>\w)$", r"^(?:emm+|em+|嗯)(?:\s*[,，]\s*|\s+)", r"a{,3}b", r"x{2}|y{1,}",
    r"(?:hhh+|h{2,}|哈哈+|哈)+\s*$", r"[「『《“\"](?P<n>[^」』》”\"]{1,30})[」』》”\"]",
    r"(?i)café|CAFÉ", r"\(笑\)|\[笑\]", r"[]a]+", r"[\-~]+", r"\x41\u4e00\U0001f602", r"a|", r"^x$",
    r"(?:^|[^a-z])(?P<core>paris|rome)(?:[^a-z]|$)", r"\N{EM DASH}", r"[\s\d]+", r"\Aab\Z",
]
ALPHABET = [*"abc xyzAB哈我不，,.~-_7٣\u3000\t\n😂éÉ()[]「」\"'", "paris", "rome", "call me", "emm"]


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("flags", [0, stdlib_re.IGNORECASE])
def test_translation_matches_like_re(pattern: str, flags: int) -> None:
    rng = random.Random(pattern)
    ours = lre.compile(pattern, flags)
    theirs = stdlib_re.compile(pattern, flags)
    for _ in range(300):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 14)))
        a, b = ours.search(text), theirs.search(text)
        assert (a is None) == (b is None), (pattern, text)
        if a is not None and b is not None:
            assert a.span() == b.span() and a.groups() == b.groups(), (pattern, text, a, b)
        assert ours.findall(text) == theirs.findall(text), (pattern, text)
        assert ours.sub("<>", text) == theirs.sub("<>", text), (pattern, text)


@pytest.mark.parametrize("pattern", [
    r"a(?=b)", r"a(?!b)", r"(?<=a)b", r"(?<!a)b", r"(a)\1", r"(?P<x>a)(?P=x)", r"(?>ab)", r"a*+", r"a{1,3}+",
    r"(?(1)a|b)", r"\q", "(?x)a b",
])
def test_constructs_a_linear_engine_cannot_run_are_refused(pattern: str) -> None:
    with pytest.raises(lre.UnsupportedPattern):
        lre.compile(pattern)


def test_documented_differences_from_re() -> None:
    # \b is an ASCII word boundary: a Chinese character next to an English word is a boundary
    assert lre.search(r"\bcall me\b", "叫call me") is not None
    assert stdlib_re.search(r"\bcall me\b", "叫call me") is None
    # $ is the very end (re's also matches before a final newline)
    assert lre.search(r"x$", "x\n") is None and stdlib_re.search(r"x$", "x\n") is not None


def test_verbose_flag_is_refused() -> None:
    with pytest.raises(lre.UnsupportedPattern):
        lre.compile("a", lre.VERBOSE)


def test_sub_templates_and_callables() -> None:
    rx = lre.compile(r"(?P<k>[a-z]+)=(\d+)")
    assert rx.sub(r"\2:\g<k>\n", "ab=1 c=22") == "1:ab\n 22:c\n"
    assert rx.sub(r"\g<2>", "ab=1") == "1"
    assert rx.sub(lambda m: m.group("k").upper() + str(m.start("k")), "ab=1 c=2") == "AB0 C5"
    assert lre.sub("x", "，的", "axbx") == "a，的b，的"  # non-ASCII replacement text kept as is
    assert lre.subn("b", "", "abcb") == ("ac", 2)
    assert lre.split(r"[,，]", "a,b，c") == ["a", "b", "c"]


def test_named_groups_work_in_start_end_span() -> None:
    m = lre.search(r"x(?P<g>y+)(?P<h>z)?", "axyyb")
    assert m is not None and m.span("g") == (2, 4) and m.start("h") == -1 and m.group("h") is None
    assert m.groupdict() == {"g": "yy", "h": None} and m["g"] == "yy"


def test_search_from_a_position_keeps_the_context_before_it() -> None:
    rx = lre.compile(r"\bab")
    assert rx.search("xab", 1) is None and rx.search("x ab", 1) is not None
    assert lre.compile("^a").search("aa", 1) is None


@pytest.mark.parametrize("words", [("起", "开始", "以后"), ("ab", "b"), (" not",), ("a", "ab", "abc")])
def test_not_followed_by_is_a_consumed_negative_lookahead(words: tuple[str, ...]) -> None:
    rng = random.Random(str(words))
    ours = lre.compile("x" + lre.not_followed_by(*words))
    theirs = stdlib_re.compile("x(?!" + "|".join(map(stdlib_re.escape, words)) + ")")
    chars = [*sorted(set("".join(words))), "x", "z"]
    for _ in range(500):
        text = "".join(rng.choice(chars) for _ in range(rng.randint(0, 7)))
        assert bool(ours.search(text)) == bool(theirs.search(text)), (words, text)


@pytest.mark.parametrize("words", [("每", "每个", "到"), ("ab", "b"), ("哪怕",), ("-", "~")])
def test_not_preceded_by_is_a_consumed_negative_lookbehind(words: tuple[str, ...]) -> None:
    rng = random.Random(str(words))
    ours = lre.compile(lre.not_preceded_by(*words) + "x")
    theirs = stdlib_re.compile("".join(f"(?<!{stdlib_re.escape(w)})" for w in words) + "x")
    chars = [*sorted(set("".join(words))), "x", "z"]
    for _ in range(500):
        text = "".join(rng.choice(chars) for _ in range(rng.randint(0, 7)))
        assert bool(ours.search(text)) == bool(theirs.search(text)), (words, text)


def test_finditer_core_resumes_at_the_group_end_like_a_lookahead() -> None:
    ours = lre.compile(r"(?:^|[^a-z])(?P<core>paris|rome)(?:[^a-z]|$)")
    theirs = stdlib_re.compile(r"(?<![a-z])(?:paris|rome)(?![a-z])")
    for text in ["paris,rome", "paris rome parisx rome", "xparis", "rome", ""]:
        assert list(lre.finditer_core(ours, text)) == [m.span() for m in theirs.finditer(text)], text


def test_unless_rejects_a_match_and_tries_the_next_start() -> None:
    rx = lre.Unless(lre.compile(r"\bwork at (?P<org>[\w ]{2,20})"), "org", lre.compile(r"home\b"))
    ref = stdlib_re.compile(r"\bwork at (?!home\b)(?P<org>[\w ]{2,20})")
    for text in ["work at home and work at acme", "work at homebase", "work at home", "work at acme"]:
        a, b = rx.search(text), ref.search(text)
        assert (a and a.span(), a and a.group("org")) == (b and b.span(), b and b.group("org")), text


def test_time_is_linear_where_backtracking_explodes() -> None:
    import time

    rx = lre.compile(r"(?:\s*(?:hhh+|h{2,}|哈哈+|哈))+\s*$", lre.IGNORECASE)
    started = time.perf_counter()
    for n in (24, 64, 4096, 65536):
        assert rx.search("h" * n + "x") is None
    assert time.perf_counter() - started < 2.0  # a hang guard: re needs hours at n=40
