"""Stage 3 of the write pipeline (``docs/design.md#the-write-pipeline``): apply candidates to the truth.

Rules, in order, for each candidate that survives the filters:
- ``delete``: deactivate the memory with that key (absent is fine; a key the user does not have
  falls back to the live same-type memory the candidate's content semantically duplicates, under the
  reuse thresholds); its history row names the retracting message (``retracted by message N``) and
  the one the memory came from;
- ``supersedes`` K on an ``upsert``: the user replaced K. Same key: K is overwritten; another key: the
  new memory is written and K deactivated. Either way K's history row says ``superseded by message N``
  (and which message K came from), so both statements stay linked; an overwrite that keeps only some
  of K's clauses (a retraction of the others) says ``retracted in part by message N``;
- ``append``: append to the memory with that key;
- ``upsert`` with an existing live key: overwrite it;
- ``upsert`` with a new key: when a live memory of the same type is a semantic duplicate
  (cosine >= reuse threshold) its key is reused and it is overwritten; else a new memory. Two
  different named slots (keys the provider declares distinct, ``named_slot``: the rules extractor's
  catalogue and its life events) are never treated as duplicates.
Afterwards live copies at or above the merge threshold that this write touched are merged:
the newer one is kept, the older one deactivated (operation ``dedupe``); two different named slots
are never merged either.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from core.extraction.candidates import CandidateOp, MemoryCandidate
from core.filters import is_noise_content, is_noise_key, is_profile_key, normalise_key, passes_read_filters
from core.memory.dedup import DedupItem, SemanticDeduper
from core.memory.errors import InvalidMemoryInput
from core.memory.reader import live_rows
from core.memory.writer import MemoryWrite, MemoryWriter, WriteContext, WriteResult
from core.storage.models import LongTermMemory
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryOperation


@dataclass(frozen=True)
class CandidatePolicy:
    """Write limits from configuration (LONG_TERM_MEMORY_MIN_CONFIDENCE / _MAX_WRITE_ITEMS)."""

    min_confidence: float
    max_write_items: int


NamedSlot = Callable[[str], bool]
"""True for a key that names one distinct attribute (home city, hometown...): semantic reuse never maps
one named slot onto another. Declared by the extraction provider (``named_slot``), never by this module."""


def no_named_slots(key: str) -> bool:
    """The ``NamedSlot`` of a provider that declares none."""
    return False


def admissible(candidates: Sequence[MemoryCandidate], policy: CandidatePolicy) -> list[MemoryCandidate]:
    """Candidates that pass confidence, hard filters and the per-turn cap; the last candidate for
    a key wins (a later statement supersedes an earlier one in the same turn)."""
    by_key: dict[str, MemoryCandidate] = {}
    for cand in candidates:
        key = normalise_key(cand.key)
        if not key or is_noise_key(key) or is_profile_key(key):
            continue
        if cand.op is not CandidateOp.DELETE:
            if cand.confidence < policy.min_confidence or not cand.content.strip():
                continue
            if is_noise_content(cand.content):
                continue
        by_key.pop(key, None)
        by_key[key] = cand.model_copy(update={"key": key})
    kept = list(by_key.values())
    return kept[: policy.max_write_items]


def apply_candidates(
    session: Session,
    writer: MemoryWriter,
    deduper: SemanticDeduper | None,
    ctx: WriteContext,
    candidates: Sequence[MemoryCandidate],
    named_slot: NamedSlot = no_named_slots,
) -> list[WriteResult]:
    """Apply admissible candidates for ``ctx.user_pk``; returns one result per candidate."""
    results: list[WriteResult] = []
    if deduper is not None:
        # one model call for the texts the writes below will store (and the post-write merge compare):
        # they land in the deduper's cache, the writer carries each to the indexer with its row
        texts = [DedupItem(c.key, c.memory_type.value, c.content).text for c in candidates
                 if c.op is CandidateOp.UPSERT and c.content.strip()]
        if texts:
            deduper.vectors(texts)
    with writer.capped_batch(session, ctx):  # the per-user cap is checked once, after the merges
        for cand in candidates:
            try:
                results.extend(_apply_one(session, writer, deduper, ctx, cand, named_slot))
            except InvalidMemoryInput:
                continue
        if deduper is not None and any(r.changed for r in results):
            results.extend(
                merge_redundant(session, writer, deduper, ctx, {r.memory_key for r in results if r.changed},
                                named_slot)
            )
    return results


def _linked(session: Session, writer: MemoryWriter, ctx: WriteContext, key: str, verb: str,
            note: str = "") -> WriteContext:
    """``ctx`` with a reason linking the message that replaces/retracts ``key`` to the one it came from:
    ``superseded by message N (stated in message M)``."""
    row = writer.get_for_update(session, ctx.user_pk, key)
    by = f"message {ctx.source_message_pk}" if ctx.source_message_pk is not None else ctx.source.value
    reason = f"{verb} by {by}{note}"
    stated = row.source_message_id if row is not None else None
    if stated is not None and stated != ctx.source_message_pk:
        reason += f" (stated in message {stated})"
    return WriteContext(**{**ctx.__dict__, "reason": reason})


_JOINER_UNITS = frozenset({"and", "or", "&", "和", "及", "与"})


def _units(text: str) -> list[str]:
    """``text``'s words (a CJK character each), lower-cased, without list joiners and punctuation."""
    return [u for u in re.findall(r"[\u3400-\u9fff]|[0-9a-z']+", text.lower()) if u not in _JOINER_UNITS]


def _is_part(new: str, old: str) -> bool:
    """``new`` keeps some of ``old``'s clauses or list items and nothing else: a retraction of the others
    ("i'm a nurse, and i make about 85k" -> "i'm a nurse"; "i'm allergic to walnuts, penicillin and wasps"
    -> "i'm allergic to walnuts and wasps", the list's joints mended)."""
    flat = new.replace("，", ",").replace("；", ",").replace(";", ",")
    pieces = [p.strip() for p in flat.split(",") if p.strip()]
    if not pieces or len(new) >= len(old):
        return False
    if all(p in old for p in pieces):
        return True
    kept, rest = _units(new), iter(_units(old))
    return bool(kept) and all(any(u == v for v in rest) for u in kept)  # a subsequence of old's words


def _apply_one(
    session: Session,
    writer: MemoryWriter,
    deduper: SemanticDeduper | None,
    ctx: WriteContext,
    cand: MemoryCandidate,
    named_slot: NamedSlot,
) -> list[WriteResult]:
    if cand.op is CandidateOp.DELETE:
        key = cand.key
        if deduper is not None and cand.content.strip():
            live = live_rows(session, ctx.user_pk)
            if all(m.memory_key != key for m in live):
                # a retraction under a key the user does not have (an LLM's guess): the live memory of
                # the same type it semantically duplicates, under the dedup's thresholds, is the one meant
                match = deduper.best_match(
                    DedupItem(key, cand.memory_type.value, cand.content),
                    [DedupItem(m.memory_key, m.memory_type or "fact", m.content or "") for m in live])
                key = match[0].key if match is not None else key
        return [writer.deactivate(session, _linked(session, writer, ctx, key, "retracted"), key,
                                  missing_ok=True)]
    old = normalise_key(cand.supersedes) if cand.supersedes and cand.op is CandidateOp.UPSERT else ""
    if old and old != cand.key:
        retire_ctx = _linked(session, writer, ctx, old, "superseded", f"; now {cand.key}")
        result = writer.save(session, ctx, MemoryWrite(cand.key, cand.memory_type, cand.content,
                                                       cand.importance, cand.confidence, cand.ttl_days))
        return [result, writer.deactivate(session, retire_ctx, old, missing_ok=True)]
    if old:
        row = writer.get_for_update(session, ctx.user_pk, old)
        ctx = _linked(session, writer, ctx, old,
                      "retracted in part" if row is not None and _is_part(cand.content, row.content or "")
                      else "superseded")
    if cand.op is CandidateOp.APPEND:
        return [writer.append(
            session,
            ctx,
            cand.key,
            cand.content,
            cand.memory_type,
            cand.importance,
            cand.confidence,
            cand.ttl_days,
        )]
    write = MemoryWrite(
        cand.key, cand.memory_type, cand.content, cand.importance, cand.confidence, cand.ttl_days
    )
    # the user's live memories are read for semantic reuse only when the key is not one of them: a live row
    # under the key (the row ``save`` locks and writes next, read once) already says it is
    live = live_rows(session, ctx.user_pk) if deduper is not None and not is_live(
        writer.get_for_update(session, ctx.user_pk, cand.key)) else []
    if deduper is not None and all(m.memory_key != cand.key for m in live):
        # two distinct named slots (home city vs home town) are different memories however close
        # their texts embed: semantic reuse is for paraphrased keys, never across known slots
        existing = [DedupItem(m.memory_key, m.memory_type or "fact", m.content or "") for m in live
                    if not (named_slot(cand.key) and named_slot(m.memory_key))]
        match = deduper.best_match(DedupItem(cand.key, cand.memory_type.value, cand.content), existing)
        if match is not None:
            twin, score = match
            reuse_ctx = WriteContext(
                **{
                    **ctx.__dict__,
                    "reason": f"semantic duplicate of {twin.key} (cosine {score:.3f}); key reused",
                }
            )
            return [writer.save(
                session,
                reuse_ctx,
                MemoryWrite(
                    twin.key, cand.memory_type, cand.content, cand.importance, cand.confidence, cand.ttl_days
                ),
                operation=MemoryOperation.DEDUPE,
            )]
    return [writer.save(session, ctx, write)]


def is_live(row: LongTermMemory | None) -> bool:
    """Would ``live_rows`` return this row (the one under a write's key, which passed the key filters)?
    Active, unexpired, and its content not noise."""
    if row is None or not row.is_active:
        return False
    if row.expires_at is not None and row.expires_at <= datetime.now(UTC):
        return False
    return passes_read_filters(row.memory_key, row.content or "")


def merge_redundant(
    session: Session,
    writer: MemoryWriter,
    deduper: SemanticDeduper,
    ctx: WriteContext,
    touched_keys: set[str] | None = None,
    named_slot: NamedSlot = no_named_slots,
) -> list[WriteResult]:
    """Deactivate the older of each pair of live same-type memories with cosine >= merge.

    With ``touched_keys`` only pairs involving one of those keys are considered (post-write);
    without, every pair of the user is (consolidation). A pair of two named slots is never merged.
    """
    live = live_rows(session, ctx.user_pk)
    items = [DedupItem(m.memory_key, m.memory_type or "fact", m.content or "") for m in live]
    rows = {m.memory_key: m for m in live}
    results: list[WriteResult] = []
    def distinct(a: DedupItem, b: DedupItem) -> bool:
        return named_slot(a.key) and named_slot(b.key)

    for a, b, score in deduper.redundant_pairs(items, distinct):
        if touched_keys is not None and a.key not in touched_keys and b.key not in touched_keys:
            continue
        ra, rb = rows[a.key], rows[b.key]
        keep, drop = (ra, rb) if (ra.updated_at, ra.id) >= (rb.updated_at, rb.id) else (rb, ra)
        merge_ctx = WriteContext(
            **{**ctx.__dict__, "reason": f"redundant copy of {keep.memory_key} (cosine {score:.3f}); merged"}
        )
        results.append(
            writer.deactivate(session, merge_ctx, drop.memory_key, MemoryOperation.DEDUPE, missing_ok=True)
        )
    return results
