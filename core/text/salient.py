"""Salient words of a text, shared by key slugs and by comparing two memories' wording.

English words without function words and filler verbs, Chinese with function characters and
fillers cut out (matched longest first); negations (no, not, never, ...) count as salient, so a
rule and its opposite are never "the same words". Only the text counts: NFKC, lower-cased.

A single function character is not a cut when it and its neighbour form a word of a dictionary
(``zh_pieces``): 成都, 会计, 过敏, 地铁 keep their 都, 会, 过, 地 (else 我搬到成都了 read {搬到, 到成}
and 我是会计 {计}). The dictionary is the two-character part of pypinyin's phrase table (offline,
already the key slugs' transliterator), no list of our own; pronouns, demonstratives, 一 and 个 never
join (``ZH_NEVER_JOINS``: 一家, 我家, 这次 are no content words). 觉得 is a filler like "think".
"""

from __future__ import annotations

import unicodedata

from pypinyin.constants import PHRASES_DICT

from core.text import regex as re

EN_STOP_WORDS = """
a an the i i'm im me my mine myself we us our you your yours he she it its they them their this that
these those there here is am are was were be been being do does did doing have has had having will would
shall should can could may might must to of in on at by for from with about into onto over under as and
or but if then than so such also too very really just only even still again all any some every each more
most much many lot lots please pls kindly always now going gonna want wants wanted like likes liked love
loves let let's make makes made get gets got give gives tell tells use uses using say says said know
think thing things stuff something anything everything one ones time times when whenever while what
which who whom whose why how ok okay yes yeah hey hi hello thanks thank sure well oh btw fyi actually
long term goal goals plan plans dream dreams
"""
EN_STOP = frozenset(EN_STOP_WORDS.split())
EN_KEEP = frozenset({"no", "not", "never", "don't", "dont", "nothing", "without"})
# Chinese fillers (function characters, pronouns, fillers), matched longest first
ZH_STOP_WORDS = """
以后 今后 往后 从今以后 现在 总是 一直 每次 所有 我们 你们 他们 她们 自己 时候 的话 一下 一点 有点
这个 那个 这些 那些 什么 怎么 因为 所以 但是 还是 或者 而且 就是 可以 能够 需要 记得 记住
帮我 给我 请你 麻烦 以及 然后 喜欢 想要 绝对 千万 一定 特别 非常 比较 真的 觉得
长期 目标 计划 打算 规划 梦想
我 你 您 他 她 它 的 地 得 了 着 过 是 在 就 都 也 很 还 又 再 把 被 让 给 对 和 与 跟 或 而 但
吧 呢 吗 啊 呀 哦 嘛 哈 请 要 会 能 想 这 那 个 些 一 有
"""
ZH_STOP = sorted(ZH_STOP_WORDS.split(), key=len, reverse=True)
_ZH_STOP_SET = frozenset(ZH_STOP)
# pronouns, demonstratives, "one" and the general measure word: a character of these stays a cut even in a
# dictionary word (我家, 这次, 一家, 两个: "在一家X公司" and "在一家Y银行" share no word)
ZH_NEVER_JOINS = frozenset("我你您他她它这那一个些")
ZH_STOP_RX = re.compile("|".join(map(re.escape, ZH_STOP)))
TOKEN = re.compile(r"[\u3400-\u9fff]+|[a-z0-9]+(?:'[a-z]+)?")
CJK = re.compile(r"[\u3400-\u9fff]")

_CONTENT, _STOP_CHAR, _STOP_WORD = 0, 1, 2


def zh_word(pair: str) -> bool:
    """``pair`` (two Chinese characters) is a word of pypinyin's phrase table."""
    return len(pair) == 2 and pair in PHRASES_DICT


def _zh_marks(run: str) -> list[int]:
    """Per character of a Chinese run: content, a single function character, or part of a longer filler."""
    marks = [_CONTENT] * len(run)
    for m in ZH_STOP_RX.finditer(run):
        kind = _STOP_CHAR if m.end() - m.start() == 1 else _STOP_WORD
        for i in range(m.start(), m.end()):
            marks[i] = kind
    return marks


def _zh_pairs(run: str, marks: list[int]) -> list[int]:
    """Start of each salient bigram of ``run``: two content characters, or a single function character with
    a content neighbour when the two are a dictionary word that is not itself a filler (成都, 会计, 过敏)."""
    out = []
    for i in range(len(run) - 1):
        a, b = marks[i], marks[i + 1]
        joined = (_STOP_WORD not in (a, b) and _CONTENT in (a, b) and not ZH_NEVER_JOINS & set(run[i:i + 2])
                  and zh_word(run[i:i + 2]) and run[i:i + 2] not in _ZH_STOP_SET)
        if a == b == _CONTENT or joined:
            out.append(i)
    return out


def zh_pieces(run: str) -> list[str]:
    """The salient stretches of a run of Chinese characters, in order: function characters and fillers
    cut out, except a single function character making a dictionary word with its neighbour (module doc)."""
    marks = _zh_marks(run)
    keep = [m == _CONTENT for m in marks]
    for i in _zh_pairs(run, marks):
        keep[i] = keep[i + 1] = True
    pieces: list[str] = []
    start = None
    for i, k in enumerate([*keep, False]):
        if k and start is None:
            start = i
        elif not k and start is not None:
            pieces.append(run[start:i])
            start = None
    return pieces


def zh_tokens(run: str) -> set[str]:
    """Salient tokens of a run of Chinese characters: its salient bigrams, and each content character no such
    bigram covers (我住在成都 -> {住, 成都})."""
    marks = _zh_marks(run)
    out: set[str] = set()
    covered = [False] * len(run)
    for i in _zh_pairs(run, marks):
        out.add(run[i:i + 2])
        covered[i] = covered[i + 1] = True
    out.update(ch for ch, m, cov in zip(run, marks, covered, strict=True) if m == _CONTENT and not cov)
    return out



def normalize(text: str) -> str:
    """NFKC, lower-cased, typographic apostrophe folded: the form every salient-word function reads."""
    return unicodedata.normalize("NFKC", text or "").lower().replace("’", "'")


def salient_tokens(text: str) -> set[str]:
    """Salient tokens of ``text`` for comparing two memories' wording: English words without
    function words (a plural ``s`` folded), Chinese character bigrams without function characters
    (``zh_tokens``: a dictionary word keeps its function character, a lone character stays a token)."""
    norm = normalize(text)
    out: set[str] = set()
    for token in TOKEN.findall(norm):
        if CJK.match(token):
            out |= zh_tokens(token)
        elif token in EN_KEEP or (token not in EN_STOP and len(token) > 1):
            word = token.replace("'", "")
            out.add(word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word)
    return out


def overlap(a: str, b: str) -> float:
    """Overlap coefficient of the salient tokens of ``a`` and ``b`` (0 when either has none)."""
    ta, tb = salient_tokens(a), salient_tokens(b)
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / min(len(ta), len(tb))
