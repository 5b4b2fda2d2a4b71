"""Earlier statements nothing of the store holds, read by the update judge as the old value of a change.

A first statement the gate dropped ("my phone's a galaxy s21, battery is kinda dying", "我在 Shopee 做 data
analyst": the classifier hesitates on its type or keeps it under the rescue bar) leaves the later change with
no live memory to replace, so the new value ("rocking a pixel 8 now", "上周入职腾讯了") is dropped too: the
gate reads chat words as the day's news, and only the update judge would have written it (issue 24, session
25: 16 of the 30 update cases of the readable sets lost before the pair model are this shape).

Contract: ``shadows(context, existing, classifier, keys)`` lists, as ``ExistingMemory`` rows, the user's last
``MAX_SHADOWS`` earlier turns of the conversation (``ExtractionInput.context``) that no live memory holds
(word overlap under ``HELD_OVERLAP`` with every live memory), on which no rule fired and no hard filter of the
rules dropped a clause (``_unread``: no request, question, name, time window), that ask nothing and that the
memory classifier keeps at ``SHADOW_KEEP`` or more, typed as a state (the likelier of fact, preference and
constraint), under the key a rescue of that text would get (``gate_keys.TopicKeys``; never a key a live
memory has), and (``SKIP_ADDRESSED``) that speak not to the assistant (``addresses``). They are read only
for a message a cue sentence of which the update-intent model reads as a change (``CHANGE_ONLY``,
``UpdateJudge.reads_a_change``). The judge reads the message's candidates twice: against the live memories
(main's reading), and against the live memories and the shadows (``UpdateJudge.apply``); ``added(plain,
shadowed, rows, before)`` keeps the first and adds only the new values the second wrote under a shadow's key
from the message's words that no candidate holds, as new memories (session 26: a shadow no longer rewrites,
cuts, consumes or restores a candidate of the message, nor shifts the pairing of a live memory). Context is
still never a source of facts: the shadow only tells the judge that the message's sentence changes a state
the user told. ``SHADOWS_ON`` switches it. Deterministic.
"""

from __future__ import annotations

from core.extraction.candidates import (
    CandidateOp,
    ContextMessage,
    ExistingMemory,
    ExtractionInput,
    MemoryCandidate,
)
from core.extraction.classifier import MemoryClassifier
from core.extraction.pairs import NEGATION, overlap
from core.extraction.rules.analysis import analyse
from core.extraction.rules.gate_keys import TopicKeys
from core.extraction.rules.gate_units import ADDRESSED
from core.extraction.rules.judge_cues import STOP
from core.extraction.rules.questions import is_question
from core.extraction.rules.refine import contained
from core.extraction.rules.segment import clean_content, has_cjk, normalise
from core.extraction.rules.slots import spec
from core.filters import normalise_key
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.text.salient import salient_tokens
from core.types import MemoryType

SHADOWS_ON = False
"""The update judge reads the user's earlier unstored statements as old values (off: live memories only).
Off since its measurements: session 25 (upd44): +8 readable update cases, +1 pooled check case, three bad
memories on MemoryBank; session 26 (upd45, with ``CHANGE_ONLY``, ``SKIP_ADDRESSED``, ``added`` and
``OLD_VALUE_CUT``): +4 readable update cases, none lost, the public stores byte-identical to main's (exact
precision unchanged), pooled check recall and query hit up but one more forbidden term there
(bench/RESULTS.md, issue 24, session 26, upd45)."""
CHANGE_ONLY = True
"""Shadows are read only for a message a cue sentence of which tells a change (``UpdateJudge.reads_a_change``:
a strong change cue, or the update-intent model reads a change), not for every cue word ("today", "now",
"最近": the day's news). Session 26."""
SKIP_ADDRESSED = True
"""A turn that speaks to the assistant ("thank you for your recommendations", "AI companion, today I ...":
``addresses``) is no shadow, and a text that does is no shadow's new value. Session 26."""
OLD_VALUE_CUT = True
"""A shadow's new value loses its clauses that tell the old value's end: a clause that repeats a salient word
of the shadow (two characters or more, ``core.text.salient``; as ``pairs.shares_value``) with a negation or an
end word (``pairs.NEGATION``, ``judge_cues.STOP``: "haven't touched coffee in 3 weeks", "超级猩猩早就不去了")
names the old value, not the new one; none left, none added. Session 26."""
MAX_SHADOWS = 4  # earlier user turns read (the most recent first)
HELD_OVERLAP = 0.5  # Dice overlap of words at which a live memory holds the turn already
SHADOW_KEEP = 0.5  # the memory classifier's p(keep) of the turn, read whole
RETYPE_ON = False  # the new value takes the state its text and the shadow's read likelier (``settled``)
_STATES = (MemoryType.FACT, MemoryType.PREFERENCE)
_SOFT = frozenset({"no-trigger", "time-soft"})  # the rules' drop reasons a shadow's clauses may have


# the assistant called by a title at the head of the turn ("Hi, AI companion. Today I ...", "my helpful
# assistant, ...", "小助手，..."): the turn speaks to it (the words "you" / "你" are ``gate_units.ADDRESSED``)
_VOCATIVE = re.compile(
    r"^(?:(?:hi|hey|hello|dear|oh|嗨|哈喽)\W*)?(?:(?:my|dear|ai|virtual|smart|little|helpful|friendly)\s+)*"
    r"(?:ai|assistant|companion|chatbot|bot|小助手|助手|机器人)\s*[,!.:;，！。：；]")


def addresses(text: str) -> bool:
    """``text`` speaks to the assistant: a "you" / "你" (``gate_units.ADDRESSED``) or the assistant called by
    a title at its head (``_VOCATIVE``)."""
    norm = normalise(text)
    return bool(ADDRESSED.search(norm) or _VOCATIVE.search(norm))


def _unread(text: str) -> bool:
    """No rule fired on ``text`` (read alone) and no clause of it was dropped for a reason of its own: a
    request, a question, a name given to the assistant or to the user, a time window ("以后你就叫小橘吧",
    "帮我写个 cover letter" are no state); only for lack of a trigger or a soft time word."""
    analysis = analyse(ExtractionInput(text))
    return not analysis.groups and not analysis.deletions and \
        all(reason in _SOFT for reason in analysis.dropped.values())


def shadows(context: tuple[ContextMessage, ...], existing: tuple[ExistingMemory, ...],
            classifier: MemoryClassifier, keys: TopicKeys) -> tuple[ExistingMemory, ...]:
    """The earlier user turns nothing stored holds, as memories the judge may read a change of (see the
    module doc); empty when none qualifies."""
    turns: list[str] = []
    for message in reversed(context):
        text = clean_content(message.content)
        if message.role != "user" or not text or text in turns:
            continue
        if any(overlap(m.content, text) >= HELD_OVERLAP for m in existing):
            continue
        if is_question(normalise(text)) or (SKIP_ADDRESSED and addresses(text)) or not _unread(text):
            continue
        turns.append(text)
        if len(turns) >= MAX_SHADOWS:
            break
    if not turns:
        return ()
    vectors = classifier.embed(turns)
    predictions = classifier.predict_vectors(vectors)
    taken = {m.key for m in existing}
    out: list[ExistingMemory] = []
    for text, pred, vector in zip(turns, predictions, vectors, strict=True):
        if pred.p_keep < SHADOW_KEEP:
            continue
        memory_type = max(_STATES, key=pred.p_type)
        key = normalise_key(keys.key(memory_type, text, vector, taken))
        if key in taken or spec(key).memory_type is not memory_type:
            continue
        taken.add(key)
        out.append(ExistingMemory(key, memory_type.value, text))
    return tuple(reversed(out))  # oldest first, as the store lists memories


def added(plain: list[MemoryCandidate], shadowed: list[MemoryCandidate], rows: tuple[ExistingMemory, ...],
          before: list[MemoryCandidate], classifier: MemoryClassifier | None = None,
          keys: TopicKeys | None = None) -> list[MemoryCandidate]:
    """``plain`` (the judge's reading of ``before``, the message's candidates, against the live memories)
    and what reading ``rows`` (``shadows``) beside them adds: the upserts of ``shadowed`` (the judge's reading
    against the live memories and ``rows``) written under a shadow's key, as new memories (no
    ``supersedes``: nothing stored to retire), whose text no candidate of ``before`` or ``plain`` holds and
    (``SKIP_ADDRESSED``) that speaks not to the assistant. Nothing else of ``shadowed`` counts: a candidate
    of the message the judge rewrote, retyped, cut (a mood "最近我发现自己总是拖延" cut from its sentence),
    consumed or dropped against a shadow, a delete of a shadow, a live memory retired on a pairing the
    shadows shifted: the shadows only add a new value the message told, and the rest is ``plain``. With
    ``classifier`` and ``keys`` (``RETYPE_ON``), a new value takes the state both texts read likelier (the
    sum of the classifier's p(type) of the shadow and of the new value, fact or preference) and that type's
    key."""
    shadow_keys = {m.key: m for m in rows}
    held = [c.content for c in (*before, *plain) if c.op is CandidateOp.UPSERT]
    out = list(plain)
    for cand in shadowed:
        if cand.op is not CandidateOp.UPSERT or cand.key not in shadow_keys or not cand.content.strip():
            continue
        if any(contained(cand.content, text) or contained(text, cand.content) for text in held):
            continue
        if SKIP_ADDRESSED and addresses(cand.content):
            continue
        content = new_clauses(cand.content, shadow_keys[cand.key].content) if OLD_VALUE_CUT else cand.content
        if not content:
            continue
        cand = cand.model_copy(update={"content": content, "supersedes": None})
        if RETYPE_ON and classifier is not None and keys is not None:
            cand = _retyped(cand, shadow_keys[cand.key], classifier, keys, {c.key for c in out})
        if any(c.key == cand.key for c in out):
            continue
        held.append(cand.content)
        out.append(cand)
    return out


_CLAUSE = re.compile(r"[^,，;；。!！?？]+")


_ENDED = re.compile(r"n'?t\b", re.IGNORECASE)  # "haven't", "dont": the contractions ``NEGATION`` reads not


def new_clauses(text: str, old: str) -> str:
    """``text`` without its clauses that tell ``old``'s end (a salient word of ``old``, two characters or
    more, with a negation or an end word: ``OLD_VALUE_CUT``): what is left tells the new value ("" when every
    clause tells the old one's end); ``text`` itself when none does."""
    olds = {t for t in salient_tokens(old) if len(t) >= 2}
    clauses = [c.strip() for c in _CLAUSE.findall(text) if c.strip()]
    kept = [c for c in clauses if not (olds & salient_tokens(c) and
                                       (NEGATION.search(c) or STOP.search(c) or _ENDED.search(c)))]
    if len(kept) == len(clauses):
        return text
    return ("，" if has_cjk(text) else ", ").join(kept)


def _retyped(cand: MemoryCandidate, row: ExistingMemory, classifier: MemoryClassifier, keys: TopicKeys,
             taken: set[str]) -> MemoryCandidate:
    vectors = classifier.embed([row.content, cand.content])
    old, new = classifier.predict_vectors(vectors)
    memory_type = max(_STATES, key=lambda t: old.p_type(t) + new.p_type(t))
    if memory_type is cand.memory_type:
        return cand
    key = normalise_key(keys.key(memory_type, cand.content, vectors[1], taken))
    if key in taken or spec(key).memory_type is not memory_type:
        return cand
    target = spec(key)
    return cand.model_copy(update={"memory_type": memory_type, "key": key, "importance": target.importance,
                                   "ttl_days": target.ttl_days})


def reads_earlier(data: ExtractionInput) -> bool:
    """Whether refine has earlier statements to read for ``data`` even with no candidate and no live memory
    (``RulesExtractor.reads_context``, read by the callers' "nothing to refine" shortcut through
    ``core.extraction.candidates.reads_context``): a change told in chat words may be the only memory of a
    message whose first statement was never stored."""
    return SHADOWS_ON and any(m.role == "user" and m.content.strip() for m in data.context)
