"""Facts told over several turns (issue 24): an answer to the assistant's question about what the user just
said is detail of that memory, not a memory of its own nor a lost fragment.

"I have a kid" -- "How old?" -- "she's nine, obsessed with horses"; "我养了只猫" -- "叫什么名字？" --
"Mochi, 是只橘猫, 三岁了": the reply elides its subject or names it with a pronoun, so alone it has no
referent ("she's nine") and the rules or the classifier drop it or file it apart. ``answer_folded`` finds
the user's live memory the previous user turn stated (its content is in that turn) and, when the assistant's
turn between them asks a question about it (a word of it, a pronoun, or too short to ask of anything else:
"How old?"; not "What do you do for work?") and the reply opens without a subject of its own (no first
person, no named someone), files the reply's opening clauses -- even when the classifier read them as a
memory of another slot, if the reply opens by referring back ("do you like it?" -- "love it tbh, the weekend
shifts are the best": about the job, no taste of a schedule) -- up to the first clause with its own
first-person subject ("nah I'm more of a cyclist" is a statement of its own) -- as detail of that memory,
under its key. A reply that is itself a question, a yes/no, a correction or a withdrawal, a standing rule,
and a reply naming nothing new are left alone. ``pronoun_details``: a later statement about the same thing
told with a pronoun ("it only eats grain-free food") joins that memory instead of replacing it. Pure
functions over their inputs; deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.rules import patterns
from core.extraction.rules.followup import _AFFIRM, _last_assistant_question
from core.extraction.rules.gate_units import OWN_SUBJECT, owner_of
from core.extraction.rules.questions import is_question
from core.extraction.rules.refine import contained, merge_content
from core.extraction.rules.segment import (
    Clause,
    clean_content,
    has_cjk,
    join_clauses,
    normalise,
    split_clauses,
)
from core.extraction.rules.slots import is_known_slot, spec
from core.filters import normalise_key
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.text.salient import salient_tokens
from core.types import MemoryType

MAX_REPLY_CHARS = 160  # a longer reply tells more than an answer
CONFIDENCE = 0.85
# a reply that contradicts or corrects rather than answers ("no, …", "不是", "actually …")
_NOT_AN_ANSWER = re.compile(r"^(?:no|nope|nah|not really|actually|wait|sorry)\b|"
                            r"^(?:不是|没有|不对|其实|算了|等等)")


SHORT_QUESTION_WORDS = 4  # "How old?", "What's the role?": a question this short asks of what was just said
SHORT_QUESTION_CJK = 8  # "叫什么名字？", "学了多久了？"
_REFERS_BACK = re.compile(r"[它她他那]|\b(?:it|its|it's|she|her|he|his|him|they|them|their|that|those)\b")


def _about_it(question: str, content: str) -> bool:
    """The assistant's question asks about the memory just stated: it names it (a word in common), refers
    back to it (a pronoun), or is too short to ask about anything else ("How old?", "叫什么名字？");
    "What do you do for work?" after "I love dogs" asks about something new."""
    norm = normalise(question)
    if salient_tokens(norm) & salient_tokens(content) or _REFERS_BACK.search(norm):
        return True
    if has_cjk(norm):
        return len(re.findall(r"[\u3400-\u9fff]", norm)) <= SHORT_QUESTION_CJK
    return len(re.findall(r"[a-z']+", norm)) <= SHORT_QUESTION_WORDS


def _previous_user(data: ExtractionInput) -> str | None:
    for msg in reversed(data.context):
        if msg.role == "user" and msg.content.strip():
            return msg.content
    return None


def answer_folded(data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """``candidates`` with the reply's opening answer filed as detail of the memory the previous user
    turn stated (see the module doc)."""
    message = (data.user_message or "").strip()
    if not message or len(message) > MAX_REPLY_CHARS or not data.existing:
        return candidates
    question = _last_assistant_question(data)
    previous = _previous_user(data)
    if question is None or previous is None or is_question(normalise(message)):
        return candidates
    if any(c.op is CandidateOp.DELETE or c.supersedes for c in candidates):
        return candidates
    stated = [m for m in data.existing if m.memory_type != MemoryType.CONSTRAINT.value
              and contained(m.content, previous)]
    if len(stated) != 1:
        return candidates  # nothing stated just before, or several things (which one is asked about)
    memory = stated[0]
    if not _about_it(question, memory.content):
        return candidates
    clauses = split_clauses(message)
    if not clauses:
        return candidates
    first = clauses[0]
    if _AFFIRM.match(first.text) or _NOT_AN_ANSWER.search(first.norm) or OWN_SUBJECT.search(first.norm) \
            or patterns.FIRST_PERSON.search(first.norm) or owner_of(first) == "fact-friends":
        return candidates
    head: list[Clause] = []
    for clause in clauses:
        if clause.sentence != first.sentence or (head and OWN_SUBJECT.search(clause.norm)):
            break
        head.append(clause)
    answer = clean_content(join_clauses(message, head, has_cjk(message)))
    if not answer or contained(answer, memory.content):
        return candidates
    key = normalise_key(memory.key)
    if not _REFERS_BACK.search(first.norm) and any(
            _stands_alone(c, key, memory.memory_type, answer) for c in candidates):
        return candidates  # understood on its own ("What's the role?" -> "a nurse at …": the job); a reply
        # that opens by referring back ("love it, the night shifts are the best") is about that memory
    content = merge_content(memory.content, answer)
    kept: list[MemoryCandidate] = []
    for cand in candidates:
        if cand.op is CandidateOp.UPSERT and normalise_key(cand.key) == key:
            content = merge_content(content, cand.content)  # the rules' reading of the same slot joins it
        elif not (cand.op is CandidateOp.UPSERT and contained(cand.content, answer)):
            kept.append(cand)
    target = spec(key)
    kept.append(MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType(memory.memory_type), key=key,
                                content=content, importance=target.importance, confidence=CONFIDENCE,
                                ttl_days=target.ttl_days))
    return kept


def _stands_alone(cand: MemoryCandidate, key: str, memory_type: str, answer: str) -> bool:
    """The reply's own reading of the answer (a candidate over the same words) files it apart from the memory
    the previous turn stated: under a catalogue slot of its own, or as another kind of memory ("我最近转行了"
    is a career goal, "从sales转到了data analyst" the job fact): one memory holds one kind of thing, so the
    reply is a memory of its own and the stated one is left as it was."""
    if cand.op is not CandidateOp.UPSERT or normalise_key(cand.key) == key:
        return False
    if not (contained(cand.content, answer) or contained(answer, cand.content)):
        return False
    return is_known_slot(cand.key) or cand.memory_type.value != memory_type


# a statement whose subject is a pronoun: it says more of what the memory is about, it names no new value
_PRONOUN_SUBJECT = re.compile(r"^(?:它们?|她们?|他们?)|^(?:it|it's|its|she|she's|he|he's|they|they're)\b")
# "it" without a referent: a cleft telling what holds now ("its crossfit for me these days", "it's green tea
# only now"), the new value of the memory, not a detail of it
_CLEFT = re.compile(
    r"^(?:it's|its|it is)\s+(?:[\w'-]+\s+){1,5}?(?:for me|now|these days|nowadays|from now on)\b")


def pronoun_details(existing: Sequence[ExistingMemory],
                    candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """An update of a memory told with a pronoun as its subject ("它只吃一种 grain-free 的猫粮" after
    "我养了只猫；Mochi, 是只橘猫") is detail of that memory, merged into it, never its replacement: the
    memory keeps its referent (the cat and its name)."""
    if any(c.op is CandidateOp.DELETE for c in candidates):
        return candidates  # a withdrawal in the message: what it leaves of a memory is the retraction's
    by_key = {normalise_key(m.key): m for m in existing}
    out: list[MemoryCandidate] = []
    for cand in candidates:
        key = normalise_key(cand.key)
        old = by_key.get(key)
        if cand.op is CandidateOp.UPSERT and old is not None \
                and old.memory_type != MemoryType.CONSTRAINT.value \
                and _PRONOUN_SUBJECT.search(normalise(clean_content(cand.content))) \
                and not _CLEFT.search(normalise(clean_content(cand.content))) \
                and not contained(old.content, cand.content) and not contained(cand.content, old.content):
            # (a content the old one holds is what a retraction leaves of it: "forget the part about …")
            cand = cand.model_copy(update={"content": merge_content(old.content, cand.content),
                                           "supersedes": None})
        out.append(cand)
    return out
