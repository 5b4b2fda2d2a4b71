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

from core.extraction.candidates import CandidateOp, MemoryCandidate
from core.extraction.rules.segment import Clause, clean_content, normalise
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType

LEAVE_OUT_WITH_OBJECT = True
BACK = 2  # clauses before the rule read with it ("raisins. hate them. strip them out …")
# Session 31 (cons50): the same reading for every constraint the gate lets through, its rescues included
# ("long intros before the actual answer — ugh. skip those from now on" was written as "skip those from now
# on"), with more verbs and Chinese back-references ("别这么叫", "这类的都帮我拿掉"), and a candidate the
# gate wrote from the object's clause alone ("olives" as a fact) folded into the rule that now holds it.
# ``RULE_OBJECT_AFTER_GATE``; ``BACK_GATED`` clauses before the rule at most.
RULE_OBJECT_AFTER_GATE = True
BACK_GATED = 3

# the leave-out verb with a pronoun for its object ("strip them out", "keep it out of", "leave 'em off")
_EN = re.compile(
    r"\b(?:keep|leave|take|hold|get|strip|cut|drop|ditch|remove)\s+(?:them|it|those|these|'?em|that stuff)\s+"
    r"(?:out|off|away)\b|\b(?:strip|cut|remove|skip|ditch)\s+(?:them|those|these|'?em)\b|"
    r"\b(?:none of|without)\s+(?:them|those)\b")
# "…都去掉 / 都删了 / 都别放 / 就别带了": 都 refers back to what was named before, or the verb has no object
_ZH = re.compile(
    r"都(?:给我|帮我)?(?:去掉|去了|删掉|删了|删除|拿掉|拿了|省掉|省了|省去|免了|别放|不要放|别加|不要加|别带|不要带|"
    r"别用|不要用|不要了|别要了)|(?:就|也)?(?:别|不要)(?:再)?(?:带|放|加|用)了?\s*[吧啊哈呀]?$")


# session 31: more verbs of leaving out or replacing, with a pronoun object ("scrub them from", "swap it out",
# "yank it", "nix those"), and Chinese rules naming their object by "这么 / 这样 / 这类 / 这种 / 那些"
# (a word list read only on a constraint's first clause: a tiny guard, not a decision)
_EN_MORE = re.compile(
    r"\b(?:scrub|yank|pull|swap|sub|switch|trade|nix|axe|omit|exclude|avoid|lose|toss|ban|skip|cut|drop|"
    r"ditch|strip|remove|keep|leave|take|hold|get)\s+(?:them|it|those|these|'?em|that stuff)\s+"
    r"(?:out|off|away|from|for)\b|"
    r"\b(?:scrub|yank|nix|axe|omit|exclude|avoid|ban|toss)\s+(?:them|those|these|'?em)\b")
_ZH_MORE = re.compile(
    r"(?:别|不要|不许|千万别|少)(?:再)?(?:这么|这样|那样|那么)(?:叫|说|写|称呼|弄|搞|做|回)|"
    r"(?:这类|这种|这些|那些|那类|那种|这样)的?(?:东西|内容)?(?:都|一律|全部?)?(?:给我|帮我)?"
    r"(?:去掉|删掉|删了|拿掉|拿了|别推|不要推|别放|不要放|别发|不要发|别用|不要用|过滤掉|屏蔽掉?|换掉)")


def refers_back(norm: str) -> bool:
    """The clause is a leave-out rule whose object is a pronoun or elided (``norm``: a normalised clause)."""
    if _EN.search(norm) or _ZH.search(norm):
        return True
    return RULE_OBJECT_AFTER_GATE and bool(_EN_MORE.search(norm) or _ZH_MORE.search(norm))


def with_object_before(message: str, clauses: Sequence[Clause], rule: Sequence[Clause],
                       back: int = BACK) -> str | None:
    """The rule's text read from up to ``BACK`` clauses before its first clause (``clauses``: every clause of
    ``message``; ``rule``: the rule's clauses), or None when its first clause does not refer back or nothing
    comes before it."""
    if not LEAVE_OUT_WITH_OBJECT or not rule or back <= 0:
        return None
    first = min(rule, key=lambda c: c.index)
    last = max(rule, key=lambda c: c.index)
    if not refers_back(first.norm):
        return None
    before = [c for c in clauses if c.index < first.index][-back:]
    if not before:
        return None
    text = clean_content(message[before[0].start:last.end])
    return text or None


def object_back() -> int:
    """How many clauses before a rule ``build`` reads with it (``BACK``; ``objects_joined`` reads up to
    ``BACK_GATED`` after the gate)."""
    return BACK


def objects_joined(message: str, clauses: Sequence[Clause],
                   candidates: Sequence[MemoryCandidate]) -> list[MemoryCandidate]:
    """``candidates`` (what the gate let through) with each constraint whose text starts at a clause that
    refers back read from up to ``BACK_GATED`` clauses before it (``with_object_before``), and every other
    upsert whose text lies in what a constraint holds before its referring clause dropped: the object and its
    reason are the rule's, one memory ("olives. cant do em … scrub them from whatever recipes you hand me" is
    one rule, not a fact "olives" and a rule "scrub them from …"). Off (``RULE_OBJECT_AFTER_GATE``):
    ``candidates`` as they are."""
    out = list(candidates)
    if not (RULE_OBJECT_AFTER_GATE and LEAVE_OUT_WITH_OBJECT):
        return out
    back = [c for c in clauses if refers_back(c.norm)]
    if not back:
        return out
    heads: list[tuple[int, str]] = []  # (candidate, what it holds before its referring clause), normalised
    for j, cand in enumerate(out):
        if cand.op is not CandidateOp.UPSERT or cand.memory_type is not MemoryType.CONSTRAINT:
            continue
        norm = normalise(cand.content)
        held = [c for c in clauses if c.norm and c.norm in norm]
        first = next((c for c in held if c in back), None)
        if first is not None:
            rule = [c for c in held if c.index >= first.index]
            text = with_object_before(message, clauses, rule, BACK_GATED)
            if text is not None and len(text) > len(cand.content) \
                    and all(c.norm in normalise(text) for c in held):
                cand = out[j] = cand.model_copy(update={"content": text})
                norm = normalise(text)
        for clause in back:
            k = norm.find(clause.norm)
            if k > 0:
                heads.append((j, norm[:k]))
                break
    if not heads:
        return out
    # the object's clause written alone (a fact "olives", a rule "long intros … — ugh") is the rule's now
    return [c for j, c in enumerate(out) if c.op is not CandidateOp.UPSERT
            or not any(j != i and normalise(c.content) in head for i, head in heads)]
