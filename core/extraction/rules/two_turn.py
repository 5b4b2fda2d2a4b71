"""A rule split over two turns: the first names only the domain, the second what to do (issue 24, session 31,
helper cons50).

"about the grocery lists you make for me" / "skip anything with peanuts, my son is allergic";
"给我推荐电影这块我说一下" / "恐怖片一律别推，看完睡不着". The opener alone is no memory; the rule alone loses
the domain it is about and, said in chat words, is often read as no rule at all. With ``TWO_TURN_RULE``:

- a message that is an opener and nothing else (``opener``) writes no constraint;
- a constraint the next message writes is stored with the opener before it;
- a next message that writes nothing is read with the opener before it by the standing-instruction model, and
  written as a rule at ``STANDING_RESCUE`` or more (never a question, never with a time window).

The opener's shape is a word list (an "about / re / 关于 / 说到 … 的事 / 这块" lead, short, no rule word
of its own): a guard that says when to read the two turns together; the decision is the standing model's.

Session 32 (cons51): with ``LEARNED_OPENER`` a short message with no rule word, question or condition of its
own is also an opener when the rule-opener head (``core.extraction.rule_opener``, trained on written lines)
reads it at ``RULE_OPENER_BAR`` or more ("外卖的话", "for the recipes you send me": a domain the word list did
not know). With ``OPENER_RETYPES`` a next message whose only statement was typed a preference
("爬山的一律别排" after "说到你给我安排的周末行程") is stored as the rule with its opener when the
standing model reads the joined text at ``STANDING_RESCUE`` or more.
"""

from __future__ import annotations

from collections.abc import Callable

from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.extraction.rule_opener import RULE_OPENER_BAR
from core.extraction.rules import patterns
from core.extraction.rules.keys import content_slug
from core.extraction.rules.segment import clean_content, has_cjk, normalise
from core.extraction.rules.slots import spec
from core.extraction.standing_instruction import STANDING_RESCUE
from core.filters import normalise_key
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType

TWO_TURN_RULE = True
LEARNED_OPENER = True
"""The rule-opener head may call a short message an opener the word list does not know (session 32)."""
OPENER_RETYPES = True
"""A next message's lone preference read as a rule with its opener is stored as that rule (session 32)."""
MAX_OPENER_WORDS = 14  # an English opener's words at most
MAX_OPENER_CHARS = 32  # a Chinese one's characters at most

_FILLER = (r"(?:ok(?:ay)?|so|btw|also|and|oh|hey|one more thing|another thing|quick thing|one thing|"
           r"real quick)")
_OPENER_EN = re.compile(
    rf"^(?:{_FILLER}[\s,.:!-]*)*(?:about|re:?|regarding|as for|when it comes to|wrt|on the subject of)\s+\S")
_OPENER_ZH = re.compile(r"(?:^|[，,\s])(?:关于|说到|至于|对于|有关)")
# ... and what the assistant does for the user is its domain ("关于你帮我筛的房源"), or it ends on the thing
# it is about ("…这块我说一下", "translation 的事")
_DOMAIN_ZH = re.compile(r"你|给我|帮我|替我")
_ENDS_ZH = re.compile(r"(?:这块|这一块|这件事|这个事|的事|的事情)(?:我)?"
                      r"(?:说一下|说下|讲一下|跟你说下|跟你说一下)?[吧哈啊呀]?$")
_DOMAIN_EN = re.compile(r"\b(?:you|u|your|ur)\b")
# a word that makes the opener a rule or a question of its own ("about the lists: no peanuts ever")
_RULE_WORD = re.compile(r"\b(?:don'?t|never|always|no|skip|stop|avoid|only|please|pls|keep|leave|"
                        r"make sure)\b|"
                        r"别|不要|不准|不许|一律|都|必须|以后|记得|只要|千万|[?？]")


# the learned reading's own guard: a question or a condition is complete in itself ("你会推荐电影吗",
# "要是下雨的话…"), a message that speaks of the user first is a statement ("我在做 meal prep")
_NOT_LEARNED = re.compile(r"[吗呢么]$|如果|要是|假如|万一|的话.+|^我|\b(?:i|i'?m|we|what|how|can|could|"
                          r"do|does|is|are|will|would)\b")

Reader = Callable[[list[str]], list[float]]


def opener(text: str, learned: Reader | None = None) -> bool:
    """``text`` (a whole user message) names only the domain a rule of the next turn is about: by the word
    list, or (``LEARNED_OPENER``, ``learned``: the rule-opener head's reading) by the head at
    ``RULE_OPENER_BAR`` or more on a short message the word list's guard and ``_NOT_LEARNED`` let through."""
    norm = normalise(text).strip(" .。!！…~～")
    if not norm or _RULE_WORD.search(norm):
        return False
    short = len(norm) <= MAX_OPENER_CHARS if has_cjk(norm) else len(norm.split()) <= MAX_OPENER_WORDS
    if not short:
        return False
    if has_cjk(norm):
        listed = bool(_ENDS_ZH.search(norm) or (_OPENER_ZH.search(norm) and _DOMAIN_ZH.search(norm)))
    else:
        listed = bool(_OPENER_EN.search(norm) and _DOMAIN_EN.search(norm))
    if listed or not LEARNED_OPENER or learned is None or _NOT_LEARNED.search(norm):
        return listed
    return learned([norm])[0] >= RULE_OPENER_BAR


def _opener_before(data: ExtractionInput, learned: Reader | None = None) -> str | None:
    """The user's previous message when it is an opener and only the assistant spoke since."""
    for turn in reversed(data.context):
        if turn.role == "user":
            return clean_content(turn.content) if opener(turn.content, learned) else None
    return None


def _joined(head: str, body: str) -> str:
    return f"{head}，{body}" if has_cjk(head + body) else f"{head}, {body}"


def _rule(text: str) -> MemoryCandidate:
    key = normalise_key(f"constraint-{content_slug(text) or 'personal'}")
    slot = spec(key)
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.CONSTRAINT, key=key, content=text,
                           importance=slot.importance, confidence=0.75, ttl_days=slot.ttl_days)


def with_opener(data: ExtractionInput, candidates: list[MemoryCandidate], standing: Reader | None,
                learned: Reader | None = None) -> list[MemoryCandidate]:
    """``candidates`` of ``data.user_message`` read with an opener (module docstring); ``learned``: the
    rule-opener head's reading of a message (None: the word list alone). Off (``TWO_TURN_RULE``):
    ``candidates`` as they are."""
    if not TWO_TURN_RULE:
        return candidates
    if opener(data.user_message, learned):
        return [c for c in candidates if not (c.op is CandidateOp.UPSERT
                                              and c.memory_type is MemoryType.CONSTRAINT)]
    head = _opener_before(data, learned)
    if head is None:
        return candidates
    rules = [c for c in candidates if c.op is CandidateOp.UPSERT and c.memory_type is MemoryType.CONSTRAINT]
    if rules:
        return [c.model_copy(update={"content": _joined(head, c.content)})
                if c in rules and head not in c.content else c for c in candidates]
    body = clean_content(data.user_message)
    norm = normalise(body)
    if standing is None or not body or "?" in norm or "？" in norm or patterns.TIME_HARD.search(norm):
        return candidates
    if candidates:
        # the next message's lone statement typed a taste ("爬山的一律别排") read with its opener as a rule
        lone = candidates[0] if len(candidates) == 1 else None
        if not OPENER_RETYPES or lone is None or lone.op is not CandidateOp.UPSERT \
                or lone.memory_type is not MemoryType.PREFERENCE:
            return candidates
        text = _joined(head, lone.content)
        return [_rule(text)] if standing([text])[0] >= STANDING_RESCUE else candidates
    text = _joined(head, body)
    return [_rule(text)] if standing([text])[0] >= STANDING_RESCUE else candidates
