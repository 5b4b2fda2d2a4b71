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
memory has). The judge reads them beside the live memories (``UpdateJudge.apply``); ``settled(candidates,
shadow_rows)`` then keeps only what the judge wrote from the message: an upsert that gives a shadow its new
value stays (its key is the rescue key, it is a new memory of the message's words), a ``supersedes`` naming a
shadow is cleared (nothing stored to retire) and a delete of a shadow is dropped. Context is still never a
source of facts: the shadow only tells the judge that the message's sentence changes a state the user told.
``SHADOWS_ON`` switches it. Deterministic.
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
from core.extraction.pairs import overlap
from core.extraction.rules.analysis import analyse
from core.extraction.rules.gate_keys import TopicKeys
from core.extraction.rules.questions import is_question
from core.extraction.rules.refine import contained
from core.extraction.rules.segment import clean_content, normalise
from core.extraction.rules.slots import spec
from core.filters import normalise_key
from core.types import MemoryType

SHADOWS_ON = False
"""The update judge reads the user's earlier unstored statements as old values (off: live memories only).
Off since its measurement (issue 24, session 25, bench/RESULTS.md, upd44): +8 readable update cases, +1
pooled check case, but three bad memories on MemoryBank en / zh (exact precision 346/491 -> 346/493) and
refine run for every message with earlier user turns."""
MAX_SHADOWS = 4  # earlier user turns read (the most recent first)
HELD_OVERLAP = 0.5  # Dice overlap of words at which a live memory holds the turn already
SHADOW_KEEP = 0.5  # the memory classifier's p(keep) of the turn, read whole
RETYPE_ON = False  # the new value takes the state its text and the shadow's read likelier (``settled``)
_STATES = (MemoryType.FACT, MemoryType.PREFERENCE)
_SOFT = frozenset({"no-trigger", "time-soft"})  # the rules' drop reasons a shadow's clauses may have


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
        if is_question(normalise(text)) or not _unread(text):
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


def settled(candidates: list[MemoryCandidate], rows: tuple[ExistingMemory, ...],
            before: tuple[MemoryCandidate, ...] | list[MemoryCandidate] = (),
            classifier: MemoryClassifier | None = None,
            keys: TopicKeys | None = None) -> list[MemoryCandidate]:
    """``candidates`` the judge read against live memories and ``rows`` (``shadows``), without what only a
    stored memory could take: a delete of a shadow, a ``supersedes`` naming one; a new value the judge wrote
    under a shadow's key that a candidate of the message (``before``, what the judge read) already holds is
    that candidate again, with its own slot and type (the shadow's type is a guess). With ``classifier`` and
    ``keys`` (``RETYPE_ON``), a new value written under a shadow's key takes the state both texts read
    likelier (the sum of the classifier's p(type) of the shadow and of the new value, fact or preference:
    "typing this on my pixel 6" reads as a rule, "finally got an iphone 15" as a fact) and that type's key."""
    shadow_keys = {m.key: m for m in rows}
    if not shadow_keys:
        return candidates
    out: list[MemoryCandidate] = []
    for cand in candidates:
        if cand.key in shadow_keys and cand.op is CandidateOp.DELETE:
            continue
        if cand.supersedes in shadow_keys:
            cand = cand.model_copy(update={"supersedes": None})
        own = next((c for c in before if c.op is CandidateOp.UPSERT and c.key not in shadow_keys
                    and (contained(cand.content, c.content) or contained(c.content, cand.content))), None) \
            if cand.key in shadow_keys and cand.op is CandidateOp.UPSERT else None
        if own is not None:  # the message's own candidate of the new value keeps its slot and type
            if all(c.key != own.key for c in (*candidates, *out)):
                out.append(own.model_copy(update={"supersedes": None}))
            continue
        if RETYPE_ON and classifier is not None and keys is not None and cand.op is CandidateOp.UPSERT \
                and cand.key in shadow_keys:
            cand = _retyped(cand, shadow_keys[cand.key], classifier, keys, {c.key for c in candidates})
        out.append(cand)
    return out


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
    (the callers' "nothing to refine" shortcut; read by ``bench.eval_rules_offline``: the service's
    shortcut in ``budget`` would need a provider hook to read it, ``core.memory`` imports no provider's
    internals): a change told in chat words may be the only memory of a message whose first statement was
    never stored."""
    return SHADOWS_ON and any(m.role == "user" and m.content.strip() for m in data.context)
