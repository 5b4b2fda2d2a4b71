"""A rule about what to leave out whose object was said before it (issue 24, session 30, helper cons49).

"葱姜蒜我一概不碰，以后给我的菜谱里都去掉", "raisins. hate them. strip them out of any baking recipe you give
me", "表情符号看着累眼睛，你以后回我消息就别带了": the rule's clause names what to leave out only by a pronoun
("them", "it") or by "都 / 就别…了" with no object of its own, so its memory alone ("strip them out of any
baking recipe you give me") says nothing a query can find. A constraint whose first clause is such a rule is
read with the clauses before it in the same message (``BACK``, at most), the object and the reason with it.
Flag ``LEAVE_OUT_WITH_OBJECT``.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.extraction.rules.segment import Clause, clean_content
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

LEAVE_OUT_WITH_OBJECT = True
BACK = 2  # clauses before the rule read with it ("raisins. hate them. strip them out …")

# the leave-out verb with a pronoun for its object ("strip them out", "keep it out of", "leave 'em off")
_EN = re.compile(
    r"\b(?:keep|leave|take|hold|get|strip|cut|drop|ditch|remove)\s+(?:them|it|those|these|'?em|that stuff)\s+"
    r"(?:out|off|away)\b|\b(?:strip|cut|remove|skip|ditch)\s+(?:them|those|these|'?em)\b|"
    r"\b(?:none of|without)\s+(?:them|those)\b")
# "…都去掉 / 都删了 / 都别放 / 就别带了": 都 refers back to what was named before, or the verb has no object
_ZH = re.compile(
    r"都(?:给我|帮我)?(?:去掉|去了|删掉|删了|删除|拿掉|拿了|省掉|省了|省去|免了|别放|不要放|别加|不要加|别带|不要带|"
    r"别用|不要用|不要了|别要了)|(?:就|也)?(?:别|不要)(?:再)?(?:带|放|加|用)了?\s*[吧啊哈呀]?$")


def refers_back(norm: str) -> bool:
    """The clause is a leave-out rule whose object is a pronoun or elided (``norm``: a normalised clause)."""
    return bool(_EN.search(norm) or _ZH.search(norm))


def with_object_before(message: str, clauses: Sequence[Clause], rule: Sequence[Clause]) -> str | None:
    """The rule's text read from up to ``BACK`` clauses before its first clause (``clauses``: every clause of
    ``message``; ``rule``: the rule's clauses), or None when its first clause does not refer back or nothing
    comes before it."""
    if not LEAVE_OUT_WITH_OBJECT or not rule:
        return None
    first = min(rule, key=lambda c: c.index)
    last = max(rule, key=lambda c: c.index)
    if not refers_back(first.norm):
        return None
    before = [c for c in clauses if c.index < first.index][-BACK:]
    if not before:
        return None
    text = clean_content(message[before[0].start:last.end])
    return text or None
