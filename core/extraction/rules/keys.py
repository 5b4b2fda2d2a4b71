"""Readable, stable key slugs for memories no slot table names ("constraint-no_meat_fish_recipes").

``content_slug(text)`` takes the salient words of ``text`` in order: English words without
function words and filler verbs, Chinese without function characters and fillers (``zh_pieces``: a
dictionary word keeps its function character, 成都 stays whole), transliterated
to toneless pinyin (pypinyin, offline; its phrase dictionary reads 重庆 as "chong qing"). The same
text always gives the same slug (only the text counts: lower-cased, NFKC); negations (no, not,
never, 不, 别, 没) are kept, so a rule and its opposite do not share a key. When nothing salient
is left (emoji, stop words only) a short hash of the text is the slug, still stable.
"""

from __future__ import annotations

import hashlib

from pypinyin import lazy_pinyin

from core.text.salient import CJK, EN_KEEP, EN_STOP, TOKEN, normalize, overlap, salient_tokens, zh_pieces

__all__ = ["content_slug", "overlap", "salient_tokens"]

MAX_WORDS = 4  # English words in a slug
MAX_SYLLABLES = 8  # Chinese characters (syllables) in a slug
MAX_SLUG = 48



def _fallback(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]


def content_slug(text: str) -> str:
    """A short ASCII slug ``[a-z0-9_]`` of ``text``'s salient words, stable for the same text."""
    norm = normalize(text)
    parts: list[str] = []
    words = syllables = 0
    for token in TOKEN.findall(norm):
        if CJK.match(token):
            for run in zh_pieces(token):
                for syl in lazy_pinyin(run) if run else []:
                    if syllables < MAX_SYLLABLES and syl.isascii() and syl.isalpha():
                        parts.append(syl)
                        syllables += 1
        elif words < MAX_WORDS and (token in EN_KEEP or (token not in EN_STOP and len(token) > 1)):
            parts.append(token.replace("'", ""))
            words += 1
        if words >= MAX_WORDS and syllables >= MAX_SYLLABLES:
            break
    slug = "_".join(parts)[:MAX_SLUG].strip("_")
    return slug or _fallback(norm)
