"""Generated adversarial chat texts for the regex-safety tests (``tests/core/extraction``), the hostile
corpus and ``bench/bench_regex_worst.py``: long runs of each character class, repeated fillers and
punctuation, alternating classes, mixed scripts, each with and without a breaking tail.

Deterministic: the same ``max_chars`` always gives the same list, so a failure names its input.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

# the unit texts repeated into runs: one family per character class the patterns care about
UNITS: dict[str, str] = {
    "latin_h": "h",
    "latin_a": "a",
    "latin_upper": "H",
    "latin_word": "ab ",
    "digits": "7",
    "digit_dots": "1.",
    "cjk_wo": "我",
    "cjk_zai": "在",
    "laugh_ha": "哈",
    "laugh_he": "呵",
    "laugh_hei": "嘿",
    "laugh_xi": "嘻",
    "laugh_wu": "呜",
    "laugh_hh": "hh",
    "laugh_lol": "lol",
    "laugh_haha_space": "haha ",
    "particle_a": "啊",
    "particle_la": "啦",
    "spaces": " ",
    "tabs_newlines": "\t\n",
    "fullwidth_space": "\u3000",
    "bang_zh": "！",
    "question_zh": "？",
    "stop_zh": "。",
    "ellipsis": "…",
    "tilde": "~",
    "comma_en": ",",
    "dot_en": ".",
    "dash": "-",
    "quote": "\"",
    "bracket_open": "（",
    "emoji": "😂",
    "emoji_zwj": "👨\u200d👩",
    "filler_emm": "emm ",
    "filler_en": "so ",
    "filler_zh": "然后",
    "filler_lead_mix": "嗯，",
    "laugh_mixed": "哈h",
    "laugh_space_mixed": "哈 h ",
    "alt_latin_digit": "a1",
    "alt_cjk_latin": "我a",
    "alt_cjk_space": "我 ",
    "alt_punct": "!?",
    "alt_laugh_punct": "哈！",
    "word_from": "from ",
    "word_my": "my ",
    "word_i_am": "i am ",
    "place_zh": "上海",
    "time_words": "今天",
    "forget_zh": "忘了",
    "forget_en": "forget ",
}
# what comes before a run (a statement the rules act on) and after it (a character that makes a
# trailing ``...$`` pattern fail only at the very end, the classic backtracking trigger)
PREFIXES = ("", "我住在上海", "I live in Boston and ", "记住")
SUFFIXES = ("", "x", "!", "吗")


@dataclass(frozen=True)
class Adversarial:
    name: str
    text: str


def run(unit: str, chars: int) -> str:
    """``unit`` repeated to exactly ``chars`` characters (cut mid-unit when needed)."""
    return (unit * (chars // len(unit) + 1))[:chars]


def adversarial_inputs(sizes: tuple[int, ...] = (24, 64, 4096)) -> list[Adversarial]:
    """Every unit at every size, each under every prefix/suffix pair (runs are repeated units)."""
    out: list[Adversarial] = []
    for unit_name, unit in UNITS.items():
        for size in sizes:
            for p, prefix in enumerate(PREFIXES):
                for s, suffix in enumerate(SUFFIXES):
                    name = f"{unit_name}-{size}-p{p}-s{s}"
                    out.append(Adversarial(name, prefix + run(unit, size) + suffix))
    return out


def large_inputs(chars: int = 65536) -> list[Adversarial]:
    """Messages of ``chars`` characters: single-class runs, and mixed scripts of every unit in turn."""
    mixed = "".join(UNITS.values())
    return [
        Adversarial(f"mixed-{chars}", "我住在上海" + run(mixed, chars - 6) + "x"),
        Adversarial(f"laugh_ha-{chars}", "我住在上海" + run("哈", chars - 6) + "x"),
        Adversarial(f"latin_h-{chars}", "I live in Boston " + run("h", chars - 18) + "x"),
        Adversarial(f"laugh_space_mixed-{chars}", run("哈 h ", chars - 1) + "x"),
        Adversarial(f"filler_emm-{chars}", run("emm ", chars - 1) + "x"),
        Adversarial(f"alt_cjk_latin-{chars}", run("我a", chars)),
        Adversarial(f"digits-{chars}", run("7", chars - 1) + "度"),
        Adversarial(f"spaces-{chars}", "我是" + run(" ", chars - 3) + "x"),
        Adversarial(f"word_i_am-{chars}", run("i am ", chars)),
        Adversarial(f"punct-{chars}", run("！？。…~,.", chars)),
    ]


def in_child(fn: Callable[[Connection], None], timeout: float, label: str) -> list[Any]:
    """Run ``fn(conn)`` in a forked child that sends progress items on ``conn`` and ends with
    ``None``. Returns the items; raises ``AssertionError`` naming the last item when nothing arrives
    for ``timeout`` seconds (the child is killed): a catastrophic pattern cannot hang the test run."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=fn, args=(child,), daemon=True)
    proc.start()
    child.close()
    items: list[Any] = []
    try:
        while True:
            if not parent.poll(timeout):
                raise AssertionError(f"{label}: no answer within {timeout} s after {items[-1:]!r} (killed)")
            try:
                item = parent.recv()
            except EOFError as exc:
                raise AssertionError(f"{label}: the child died after {items[-1:]!r}") from exc
            if item is None:
                return items
            items.append(item)
    finally:
        proc.kill()
        proc.join()
