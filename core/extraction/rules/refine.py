"""Stage 2 of the rules extractor: judge candidates against the user's existing memories.

For each upsert candidate, find the existing memory of the same slot: the same key, else a key
of the same type carrying the slot's alias words (``fact-location`` for ``fact-home_city``), else
a same-type memory whose content overlaps strongly. Then:
- the candidate says nothing new (its content is contained in that memory) -> dropped;
- a single slot, or the user signalled a change -> overwrite under the existing key;
- the candidate contains the old content -> overwrite;
- otherwise -> merge: old content + new detail under the existing key.
Deletes survive only for keys the user has. Deterministic; never reads anything but its inputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.extraction.candidates import CandidateOp, ExistingMemory, MemoryCandidate
from core.extraction.rules.segment import has_cjk, normalise
from core.extraction.rules.slots import SLOT_ALIASES, is_known_slot, is_single, key_tokens
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

MAX_CONTENT = 1000
_STRIP = re.compile(r"[\s,，。.!！?？、:：;；\"'“”‘’「」《》()（）~～\-—]+")


@dataclass(frozen=True)
class CandidateMeta:
    changed: bool = False  # the user signalled a change next to this statement
    force_merge: bool = False  # a follow-up detail: merge even into a single slot


def _flat(text: str) -> str:
    return _STRIP.sub("", normalise(text))


def _grams(text: str) -> set[str]:
    flat = _flat(text)
    if has_cjk(flat):
        return {flat[i:i + 2] for i in range(len(flat) - 1)} or {flat}
    return {w for w in re.findall(r"[a-z0-9']+", normalise(text)) if len(w) > 2}


def contained(part: str, whole: str) -> bool:
    """``part`` says nothing that ``whole`` does not already say."""
    p, w = _flat(part), _flat(whole)
    if not p:
        return True
    if p in w:
        return True
    grams = _grams(part)
    if not grams:
        return False
    return sum(1 for g in grams if g in _grams(whole)) / len(grams) >= 0.9


def similarity(a: str, b: str) -> float:
    """Dice coefficient of character bigrams (Chinese) or words (English)."""
    ga, gb = _grams(a), _grams(b)
    if not ga or not gb:
        return 0.0
    return 2 * len(ga & gb) / (len(ga) + len(gb))


def merge_content(old: str, new: str) -> str:
    sep = "；" if has_cjk(old + new) else "; "
    pieces = [p for p in re.split(r"；|; ", old) if p.strip()]
    for piece in re.split(r"；|; ", new):
        if piece.strip() and not any(contained(piece, p) for p in pieces):
            pieces.append(piece.strip())
    merged = sep.join(pieces)
    while len(merged) > MAX_CONTENT and len(pieces) > 1:
        pieces.pop(0)  # keep the newest detail
        merged = sep.join(pieces)
    return merged[:MAX_CONTENT]


def _same_slot(candidate: MemoryCandidate, existing: Sequence[ExistingMemory]) -> ExistingMemory | None:
    same_type = [m for m in existing if m.memory_type == candidate.memory_type.value]
    for memory in same_type:
        if memory.key == candidate.key:
            return memory
    if is_known_slot(candidate.key):
        # never redirect a known slot into a different known slot (job vs work history...)
        same_type = [m for m in same_type if not is_known_slot(m.key)]
    aliases = SLOT_ALIASES.get(candidate.key)
    if aliases:
        for memory in same_type:
            if key_tokens(memory.key) & aliases:
                return memory
    best: tuple[float, ExistingMemory] | None = None
    for memory in same_type:
        score = similarity(candidate.content, memory.content)
        if score >= 0.6 and (best is None or score > best[0]):
            best = (score, memory)
    return best[1] if best else None


def refine_candidates(existing: Sequence[ExistingMemory], candidates: Sequence[MemoryCandidate],
                      meta: dict[str, CandidateMeta]) -> list[MemoryCandidate]:
    keys = {m.key for m in existing}
    out: dict[tuple[str, CandidateOp], MemoryCandidate] = {}
    for cand in candidates:
        info = meta.get(cand.key, CandidateMeta())
        if cand.op is CandidateOp.DELETE:
            if cand.key in keys:
                out[(cand.key, cand.op)] = cand
            else:
                aliases = SLOT_ALIASES.get(cand.key, frozenset())
                target = _same_slot(cand, [m for m in existing if aliases & key_tokens(m.key)])
                if target is not None:
                    out[(target.key, cand.op)] = cand.model_copy(update={"key": target.key})
            continue
        target = _same_slot(cand, existing)
        if target is None:
            prior = out.get((cand.key, cand.op))
            if prior is not None:
                cand = cand.model_copy(update={"content": merge_content(prior.content, cand.content)})
            out[(cand.key, cand.op)] = cand
            continue
        if contained(cand.content, target.content):
            continue
        if (is_single(cand.key) and not info.force_merge) or (info.changed and not info.force_merge) \
                or contained(target.content, cand.content):
            content = cand.content
        else:
            content = merge_content(target.content, cand.content)
        prior = out.get((target.key, CandidateOp.UPSERT))
        if prior is not None:
            content = merge_content(prior.content, content)
        out[(target.key, CandidateOp.UPSERT)] = cand.model_copy(
            update={"key": target.key, "content": content, "op": CandidateOp.UPSERT})
    upserts = {key for key, op in out if op is CandidateOp.UPSERT}
    result = [c for (key, op), c in out.items() if not (op is CandidateOp.DELETE and key in upserts)]
    result.sort(key=lambda c: (c.op is not CandidateOp.DELETE, -c.importance))
    return result
