"""Readable, stable key slugs for memories no slot table names ("constraint-no_meat_fish_recipes").

``content_slug(text)`` takes the salient words of ``text`` in order: English words without
function words and filler verbs, Chinese without function characters and fillers, transliterated
to toneless pinyin (pypinyin, offline; its phrase dictionary reads 重庆 as "chong qing"). The same
text always gives the same slug (only the text counts: lower-cased, NFKC); negations (no, not,
never, 不, 别, 没) are kept, so a rule and its opposite do not share a key. When nothing salient
is left (emoji, stop words only) a short hash of the text is the slug, still stable.
"""

from __future__ import annotations

import hashlib
import unicodedata

from pypinyin import lazy_pinyin

from core.text import regex as re

MAX_WORDS = 4  # English words in a slug
MAX_SYLLABLES = 8  # Chinese characters (syllables) in a slug
MAX_SLUG = 48

_EN_STOP_WORDS = """
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
_EN_STOP = frozenset(_EN_STOP_WORDS.split())
_EN_KEEP = frozenset({"no", "not", "never", "don't", "dont", "nothing", "without"})
# Chinese fillers (function characters, pronouns, fillers), matched longest first
_ZH_STOP_WORDS = """
以后 今后 往后 从今以后 总是 一直 每次 所有 我们 你们 他们 她们 自己 时候 的话 一下 一点 有点
这个 那个 这些 那些 什么 怎么 因为 所以 但是 还是 或者 而且 就是 可以 能够 需要 记得 记住
帮我 给我 请你 麻烦 以及 然后 喜欢 想要 绝对 千万 一定 特别 非常 比较 真的
长期 目标 计划 打算 规划 梦想
我 你 您 他 她 它 的 地 得 了 着 过 是 在 就 都 也 很 还 又 再 把 被 让 给 对 和 与 跟 或 而 但
吧 呢 吗 啊 呀 哦 嘛 哈 请 要 会 能 想 这 那 个 些 一 有
"""
_ZH_STOP = sorted(_ZH_STOP_WORDS.split(), key=len, reverse=True)
_ZH_STOP_RX = re.compile("|".join(map(re.escape, _ZH_STOP)))
_TOKEN = re.compile(r"[\u3400-\u9fff]+|[a-z0-9]+(?:'[a-z]+)?")
_CJK = re.compile(r"[\u3400-\u9fff]")


def _fallback(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def content_slug(text: str) -> str:
    """A short ASCII slug ``[a-z0-9_]`` of ``text``'s salient words, stable for the same text."""
    norm = unicodedata.normalize("NFKC", text or "").lower().replace("’", "'")
    parts: list[str] = []
    words = syllables = 0
    for token in _TOKEN.findall(norm):
        if _CJK.match(token):
            for run in _ZH_STOP_RX.split(token):
                for syl in lazy_pinyin(run) if run else []:
                    if syllables < MAX_SYLLABLES and syl.isascii() and syl.isalpha():
                        parts.append(syl)
                        syllables += 1
        elif words < MAX_WORDS and (token in _EN_KEEP or (token not in _EN_STOP and len(token) > 1)):
            parts.append(token.replace("'", ""))
            words += 1
        if words >= MAX_WORDS and syllables >= MAX_SYLLABLES:
            break
    slug = "_".join(parts)[:MAX_SLUG].strip("_")
    return slug or _fallback(norm)


def salient_tokens(text: str) -> set[str]:
    """Salient tokens of ``text`` for comparing two memories' wording: English words without
    function words (a plural ``s`` folded), Chinese character bigrams without function characters
    (a lone character stays a token)."""
    norm = unicodedata.normalize("NFKC", text or "").lower().replace("’", "'")
    out: set[str] = set()
    for token in _TOKEN.findall(norm):
        if _CJK.match(token):
            for run in _ZH_STOP_RX.split(token):
                if len(run) == 1:
                    out.add(run)
                out.update(run[i: i + 2] for i in range(len(run) - 1))
        elif token in _EN_KEEP or (token not in _EN_STOP and len(token) > 1):
            word = token.replace("'", "")
            out.add(word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word)
    return out


def overlap(a: str, b: str) -> float:
    """Overlap coefficient of the salient tokens of ``a`` and ``b`` (0 when either has none)."""
    ta, tb = salient_tokens(a), salient_tokens(b)
    if not ta or not tb:
        return 0.0
    return len(ta & tb) / min(len(ta), len(tb))
