"""Whose taste a relationship fact tells (issue 24, hallucination: session 28, helper attr47).

A relationship fact (``fact-family``, ``fact-relationship``, ``fact-friends``) is kept as the user's
sentence about a relative, partner or friend ("my wife is a nurse", "我老公是程序员"), and a sentence that
opens with such a person may also be typed a taste of the user's ("my cousin is obsessed with paddle
boarding and keeps dragging me to the lake" as ``preference-outdoors``). Every fact or preference is read
here, whatever its key. When what the
sentence tells of a person outside the household (a sibling, a parent, a cousin, a friend, a roommate, a
colleague: ``others``' line between the household and the rest) is their *taste or hobby* ("my brother is
obsessed with crossfit and keeps trying to get me to join his gym", "我室友超迷尤克里里"), the memory holds
someone else's liking whole: a later question about the user's hobbies finds crossfit. A spouse's,
partner's or child's taste stays a fact about the user's family (the team's held-out convention: a gift
question finds it). Which of the two it is, is read by the memory
classifier, not by a list of liking words: each statement of the fact about the person is read as if the
user said it of themselves ("I'm obsessed with crossfit", "我超喜欢画画"); the classifier types a taste a
preference (0.88-1.00 on the probes of ``bench/RESULTS.md``, session 28) and a job, an age, an allergy, a
home or a diet a fact (<= 0.18), whoever holds them.

- A statement whose first-person reading the classifier reads a preference at ``TASTE_BAR`` or more is the
  person's taste and is cut out of the memory; a statement with no subject of its own after it leans on it
  and goes with it ("… and keeps trying to get me to join his gym"); one with its own pronoun ("he draws
  on every wall") is read on its own.
- A memory where the user speaks as a subject after the person's taste ("my partner hates cilantro so i
  never cook with it", "…所以我…") is left whole: the user's own statement leans on it.
- A memory whose every statement is cut is dropped; a memory that does not open with a person the user
  names (``patterns.FAMILY_SUBJECT``, ``patterns.FRIEND_SUBJECT``, a kin or friend word after "my" / "我")
  is left as is.

``HOLDER_TASTE_ON`` turns the reading on (the gate calls ``without_relatives_tastes``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from core.extraction.candidates import CandidateOp, MemoryCandidate
from core.extraction.rules import lexicon, others, patterns
from core.extraction.rules.segment import has_cjk, normalise
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType

_HOUSEHOLD_EN = others.HOUSEHOLD_EN | {"gf", "bf", "hubby", "wifey"}
_HOUSEHOLD_ZH = others.HOUSEHOLD_ZH

HOLDER_TASTE_ON = True
TASTE_BAR = 0.5
"""P(preference | kept) of a statement read in the first person at or over which it is the person's taste
(the midpoint: the probes read tastes 0.88-1.00 and facts <= 0.27; not tuned on any case)."""
READ_TYPES = (MemoryType.FACT, MemoryType.PREFERENCE)

_SENTENCE_END = re.compile(r"[。.!！?？\n]+")
_CLAUSE_END = re.compile(r"[,，;；]+")
_SPLIT = re.compile(r"\s*(?:[,，;；。!！?？\n]+|\band\b)\s*")
_LEAD = re.compile(r"^(?:(?:ya|yeah|yea|so|and|but|lol|lmao|ok|okay|well|also|btw|fyi|honestly|tbh|oh|haha|"
                   r"ugh|heads up|anyway)[,!. ]+)*")
_KIN_EN = patterns.alt([w.lower() for w in (*lexicon.FAMILY_EN, *lexicon.PARTNER_EN)]
                       + ["gf", "bf", "hubby", "wifey", "roommate", "flatmate", "housemate", "friend",
                          "buddy", "bff", "colleague", "coworker", "co-worker", "boss", "manager",
                          "neighbour", "neighbor", "classmate", "teammate", "cousin", "uncle", "aunt",
                          "niece", "nephew", "mate"])
# the person as subject, and the verb "be" after it when there is one ("my son's", "my gf is")
_PERSON_EN = re.compile(r"^(?:(?:my|our) (?:(?:little|big|older|younger|best|close|old|good|twin|baby|oldest|"
                        r"youngest|eldest) )?" + _KIN_EN + r"s?|(?:he|she|they))"
                        r"(?P<be>'s| is| was|'re| are| were)?\b")
_FRIENDS_ZH = ("室友", "舍友", "同事", "朋友", "闺蜜", "哥们", "老板", "邻居", "同学", "表哥", "表姐", "表弟",
               "表妹")
_PERSON_ZH = re.compile(r"^(?:(?:我|我家|我们家)(?:的)?(?:大|小|二|好|最好的)?(?:"
                        + "|".join(re.escape(w)
                                   for w in (*lexicon.FAMILY_ZH, *lexicon.PARTNER_ZH, *_FRIENDS_ZH))
                        + r")|他们|她们|他|她)")
_PRONOUN = re.compile(r"^(?:he|she|they)\b|^(?:他|她)")
# the user speaks as a subject ("so i never cook with it", "所以我…", "we go every weekend")
_USER_SUBJECT_EN = re.compile(r"\b(?:i|i'm|im|i've|ive|i'll|i'd|we|we're|we've)\b")
_USER_IN_ZH = re.compile(r"(?:所以|但是|可是|不过|然后|我就|我也|我们也|我都|我从来|我一般)我?")
_USER_SUBJECT_ZH = re.compile(r"^(?:所以|但是|可是|不过|而|那|就|反正|然后)?(?:我|我们)(?:[^的家们]|$)")


@dataclass(frozen=True)
class _Statement:
    text: str
    reading: str | None  # the first-person reading; None: the user's own, or no person to read it for
    leans: bool  # no subject of its own: goes with the statement before it


def _household(person: str) -> bool:
    """``person`` (the subject as matched) is a spouse, partner or child: their tastes are a fact about the
    user's family (the team's convention: a wife's succulents are kept for a gift question), not someone
    else's."""
    if has_cjk(person):
        return any(word in person for word in _HOUSEHOLD_ZH)
    return any(word in _HOUSEHOLD_EN for word in re.findall(r"[a-zé'-]+", person.replace("'s", "")))


def _first_person_en(sub: str) -> tuple[str | None, bool]:
    m = _PERSON_EN.search(sub)
    if m:
        rest = sub[m.end():].strip()
        if m.group("be"):
            return f"I'm {rest}".strip(), False
        first, _, tail = rest.partition(" ")
        if first.endswith("s") and not first.endswith("ss") and len(first) > 3:
            first = first[:-1]  # "loves" -> "love": read as the user would say it
        return f"I {first} {tail}".strip(), False
    first = sub.split(" ", 1)[0]
    if first.endswith("s") and not first.endswith("ss") and len(first) > 3:  # "keeps trying to …"
        return f"I {first[:-1]} {sub.split(' ', 1)[1] if ' ' in sub else ''}".strip(), True
    return f"I'm {sub}", True  # "totally volcano-crazy rn"


def _first_person_zh(sub: str) -> tuple[str | None, bool]:
    m = _PERSON_ZH.search(sub)
    if m:
        return "我" + sub[m.end():].lstrip("的"), False
    return "我" + sub, True


def _statements(content: str) -> list[_Statement] | None:
    """The statements of ``content`` with their first-person readings; None when the content does not open
    with a person the user names, or when the user speaks as a subject after the person."""
    subs = [s for s in _SPLIT.split(content) if s and s.strip()]
    if not subs:
        return None
    head = normalise(subs[0])
    head = _LEAD.sub("", head)
    named = patterns.FAMILY_SUBJECT.search(head) or patterns.FRIEND_SUBJECT.search(head) \
        or (_PERSON_ZH.search(head) if has_cjk(head) else _PERSON_EN.search(head))
    if not named or _PRONOUN.search(head) or _household(named.group(0)):
        return None
    out: list[_Statement] = []
    for i, sub in enumerate(subs):
        norm = _LEAD.sub("", normalise(sub)) if i else head
        if not norm:
            continue
        zh = has_cjk(norm)
        person = (_PERSON_ZH if zh else _PERSON_EN).search(norm)
        after = norm[person.end():] if person else norm
        if (_USER_IN_ZH.search(after) or (i and _USER_SUBJECT_ZH.search(norm))) if zh \
                else _USER_SUBJECT_EN.search(after):
            return None  # the user speaks as a subject after the person: the memory stays whole
        if i and not zh and not _PRONOUN.search(norm) and _PERSON_EN.search(norm) is None \
                and norm.split(" ", 1)[0] in ("my", "our"):
            out.append(_Statement(sub.strip(), None, False))  # another thing of the user's ("my job …")
            continue
        reading, leans = _first_person_zh(norm) if zh else _first_person_en(norm)
        out.append(_Statement(sub.strip(), reading, leans and i > 0))
    return out


def _clause_before(content: str, message: str) -> str | None:
    """The clause of ``message`` right before ``content`` in the same sentence, when ``content`` is told there
    as is ("我哥最近迷上了飞盘" before "天天拉我去公园陪他练")."""
    at = message.find(content) if content and message else -1
    if at <= 0:
        return None
    sentence = _SENTENCE_END.split(message[:at])[-1]
    clauses = [c for c in _CLAUSE_END.split(sentence) if c.strip()]
    return clauses[-1].strip() if clauses and sentence.rstrip() != sentence.rstrip(",，;；") else None


def without_relatives_tastes(candidates: Sequence[MemoryCandidate],
                             predict_pref: Callable[[list[str]], list[float]],
                             message: str = "") -> list[MemoryCandidate]:
    """``candidates`` with the tastes of people outside the household cut out of the facts and preferences
    that tell them (see the module doc); ``predict_pref``: P(preference | kept) of each text (the memory
    classifier's); ``message``: the user's message, where a candidate with no subject of its own that the
    rules took from a clause after such a person's taste ("我哥最近迷上了飞盘，天天拉我去公园陪他练": the
    second clause as a routine of the user's) is read with that clause before it."""
    if not HOLDER_TASTE_ON:
        return list(candidates)
    plans: dict[int, list[_Statement]] = {}
    led: set[int] = set()  # the plan's first statement is the clause before the candidate, not its own
    texts: list[str] = []
    for i, cand in enumerate(candidates):
        if cand.op is not CandidateOp.UPSERT or cand.memory_type not in READ_TYPES:
            continue
        statements = _statements(cand.content)
        if statements is None:
            before = _clause_before(cand.content, message)
            if before is not None:
                statements = _statements(f"{before}{'，' if has_cjk(before) else ', '}{cand.content}")
                if statements and len(statements) > 1 and statements[1].leans:
                    led.add(i)
                else:
                    statements = None
        if statements:
            plans[i] = statements
            texts += [s.reading for s in statements if s.reading is not None]
    if not texts:
        return list(candidates)
    prefs = iter(predict_pref(texts))
    out: list[MemoryCandidate] = []
    for i, cand in enumerate(candidates):
        if i not in plans:
            out.append(cand)
            continue
        kept: list[int] = []
        cut_before = False
        for j, statement in enumerate(plans[i]):
            taste = statement.reading is not None and next(prefs) >= TASTE_BAR
            if taste or (statement.leans and cut_before):
                cut_before = True
                continue
            cut_before = False
            kept.append(j)
        if i in led:
            if kept and kept[0] == 0:
                out.append(cand)  # the clause before is no taste of theirs: the candidate as the rules had it
                continue
            kept = [j - 1 for j in kept]
        own = plans[i][1:] if i in led else plans[i]
        if len(kept) == len(own):
            out.append(cand)
        elif kept:
            sep = "，" if has_cjk(cand.content) else ", "
            out.append(cand.model_copy(update={"content": sep.join(own[j].text for j in kept)}))
    return out
