"""Stage 2 of the rules extractor: judge candidates against the user's existing memories.

For each upsert candidate, find the existing memory of the same slot: the same key, else a key
of the same type carrying the slot's alias words (``fact-location`` for ``fact-home_city``), else
a same-type memory whose content overlaps strongly. Then:
- the candidate says nothing new (its content is contained in that memory) -> dropped;
- a single slot, or the user signalled a change -> overwrite under the existing key (a preference is a
  list: only a message that ends the old value, "不再", "以前", "no longer", "instead", overwrites it;
  a bare "现在"/"now"/"actually" beside a new hobby adds it to the list);
- the candidate contains the old content -> overwrite;
- otherwise -> merge: old content + new detail under the existing key, when it is one thing with it
  (``coherence.one_thing``: same topic, bounded length); else the new statement is its own memory.
A diet or allergy fact a live rule already states ("I'm vegetarian" beside the constraint
"Vegetarian: no meat or fish in recipes") is dropped. Deletes survive only for keys the user has.
An overwrite of a changed value names the memory it supersedes (``supersedes``), so the write
links both messages in its history. A replacement no rule recognised on its own ("我不跑步了，改
游泳了") takes the old preference's or fact's place.

Updates and retractions (``resolve_retractions``): a sentence that withdraws something ("算了，不考研了",
"scratch that goal about the marathon", "I gave up on Spanish", "forget what I said about tennis") or
replaces it ("我不喝乌龙茶了，改喝普洱", "I no longer run, now I swim") is matched to the user's live
memory whose content holds its topic (most of its words / character bigrams; a bare "scratch that
goal" names the user's only goal). A withdrawal deletes that memory; a replacement overwrites it with
the new value when the same message states one of the same type, else deletes it. Sentences about a
time window ("今天不去健身房了"), questions and reminders to keep something ("don't forget I'm
allergic to peanuts") never retract anything.
Deterministic; never reads anything but its inputs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.extraction.candidates import CandidateOp, ExistingMemory, MemoryCandidate
from core.extraction.rules import patterns
from core.extraction.rules.coherence import Related, one_thing, own_key
from core.extraction.rules.detectors import diet_key
from core.extraction.rules.keys import salient_tokens
from core.extraction.rules.questions import is_question
from core.extraction.rules.segment import clean_content, has_cjk, normalise
from core.extraction.rules.slots import SLOT_ALIASES, is_known_slot, is_single, key_tokens
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType
from schemas.events import MAX_MEMORY_CONTENT_CHARS

MAX_CONTENT = MAX_MEMORY_CONTENT_CHARS
_STRIP = re.compile(r"[\s,，。.!！?？、:：;；\"'“”‘’「」《》()（）~～\-—]+")


@dataclass(frozen=True)
class CandidateMeta:
    changed: bool = False  # the user signalled a change next to this statement
    force_merge: bool = False  # a follow-up detail: merge even into a single slot
    listed: bool = False  # holds an item of a list-style message, read by the list fragment model
    rescued: bool = False  # the gate's rescue wrote it (no rule candidate of the message has its key)


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


_NUMBER = re.compile(r"\d+(?:\.\d+)?|[一二两三四五六七八九十半]+")


def _numbers(text: str) -> list[str]:
    """The numbers of ``text`` in order (digits or Chinese numerals)."""
    return _NUMBER.findall(text)


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


# a clause about the value the user had before ("我以前喜欢跑步", "I used to love coffee")
_PAST_CLAUSE = re.compile(r"^(?:我)?(?:以前|之前|原来|过去|曾经)|\bi used to\b|\bpreviously\b|\bformerly\b|"
                          r"^(?:我)?(?:已经)?不(?:再)?(?:喝|吃|用|开|住|玩|练|听|看|学|打|抽)[^，,；;]{0,8}了|"
                          r"^i (?:no longer|don'?t [^,;]{1,30} any ?more|stopped)\b")


# a clause that only marks the change ("算了", "ok so") carries no value
_MARKER_ONLY = re.compile(r"^(?:算了|好吧|嗯|哦|那|ok(?:ay)?|so|well|anyway)$")


def without_past(content: str) -> str:
    """An update's content without its clauses about the old value, when a clause about the new one
    remains: "我以前喜欢跑步，现在更喜欢游泳" -> "现在更喜欢游泳"."""
    parts = [p.strip() for p in re.split(r"[，,；;]", content) if p.strip()]
    parts = [p for p in parts if not _MARKER_ONLY.search(normalise(p))] or parts
    kept = [p for p in parts if not _PAST_CLAUSE.search(normalise(p))]
    if not kept or len(kept) == len(parts):
        return content
    return ("，" if has_cjk(content) else ", ").join(kept)


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


# a preference is a list (hobbies, foods): a new item joins it; the old items go only when the message
# says they are over ("不再", "以前", "no longer", "instead"), not on a bare "现在"/"now"/"actually"
_GIVES_UP_OLD = re.compile(
    r"不再|已经不|不[^，,。；;！!？?]{1,8}了|以前|之前|原来|过去|曾经|改|换|戒|反而|而是|"
    r"\bno longer\b|\bany ?more\b|\binstead\b|\bswitched\b|\bused to\b|\bstopped\b|\bquit\b|"
    r"\bgave up\b|\bover\b|\bnot .{1,30} but\b|\bprefer\b|\brather\b|\bchanged?\b|\bmoved on\b")


def gives_up_old(message: str) -> bool:
    """``message`` (the user's text; empty: unknown, taken as yes) ends an earlier preference."""
    return not message or bool(_GIVES_UP_OLD.search(normalise(message)))


_GROUNDS = frozenset({"fact-diet", "preference-diet", "fact-allergy"})


def _grounds_a_rule(content: str, existing: Sequence[ExistingMemory]) -> bool:
    """A diet or allergy fact whose every salient word a live rule already states ("I'm vegetarian"
    when "Vegetarian: no meat or fish in recipes" is a constraint): the rule holds it."""
    words = salient_tokens(content)
    rules = [m for m in existing if m.memory_type == MemoryType.CONSTRAINT.value]
    return bool(words) and any(words <= salient_tokens(m.content) for m in rules)


# a slot the catalogue re-typed (issue 24, session 23): a chosen diet was a fact (``fact-diet``) before it was
# a taste (``preference-diet``); the former slot's memories written by an older extractor are the same slot
_FORMER_SLOTS = {"preference-diet": "fact-diet"}


def _former_slot(cand: MemoryCandidate, existing: Sequence[ExistingMemory]) -> ExistingMemory | None:
    """The live memory an older extractor wrote for ``cand``'s slot under the slot's former key (a chosen diet
    stored as ``fact-diet``: one ``diet_key`` now files as ``cand.key``), which ``cand`` supersedes: one diet,
    one memory, whatever the type the catalogue gave it then."""
    former = _FORMER_SLOTS.get(cand.key)
    if former is None:
        return None
    return next((m for m in existing if m.key == former and diet_key(normalise(m.content)) == cand.key), None)


# multi46, measured and left off: same-key statements of one turn merge only as ``one_thing`` allows. It
# cut answers told in two pieces ("I like cycling along the river; swimming mostly", "在 Melbourne 读
# PhD；研究方向是 marine biology") into fragments and moved no case (bench/RESULTS.md, session 27)
TURN_ONE_THING = False


def refine_candidates(existing: Sequence[ExistingMemory], candidates: Sequence[MemoryCandidate],
                      meta: dict[str, CandidateMeta], message: str = "",
                      related: Related | None = None) -> list[MemoryCandidate]:
    """Candidates judged against ``existing``; with ``message`` (the user's text) its updates and
    retractions are resolved against ``existing`` too; ``related``: the embedder's cosine, for the topic
    check of a merge (``coherence.one_thing``)."""
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
        if cand.key in _GROUNDS and _grounds_a_rule(cand.content, existing):
            continue
        target = _same_slot(cand, existing)
        if target is None:
            prior = out.get((cand.key, cand.op))
            if prior is not None and TURN_ONE_THING and cand.op is CandidateOp.UPSERT and not one_thing(
                    prior.content, cand.content, cand.memory_type, cand.key, True, related):
                # one memory, one thing within the turn too: two statements of one message the extractor
                # filed under one key ("me: 34", "accountant by day", "live in manchester w …" as
                # fact-personal) join only as a merge into a stored memory would; else each is its own
                key = own_key(cand.memory_type, cand.key, cand.content,
                              keys | {k for k, _ in out} | {c.key for c in candidates})
                out[(key, CandidateOp.UPSERT)] = cand.model_copy(update={"key": key})
                continue
            if prior is not None:
                cand = cand.model_copy(update={"content": merge_content(prior.content, cand.content)})
            out[(cand.key, cand.op)] = cand
            continue
        if contained(cand.content, target.content) and not (
                info.changed and _numbers(cand.content) != _numbers(target.content)):
            continue  # (a changed value, "make that 45 min", is news even in the rule's other words)
        changed = info.changed and (cand.memory_type is not MemoryType.PREFERENCE or gives_up_old(message))
        replaced = (is_single(cand.key) and not info.force_merge) or (changed and not info.force_merge)
        if replaced:
            content = without_past(cand.content)
        elif contained(target.content, cand.content):
            content = cand.content
        elif one_thing(target.content, cand.content, cand.memory_type, target.key, cand.key == target.key,
                       related):
            content = merge_content(target.content, cand.content)
        else:  # one memory, one thing: an unrelated statement is a memory of its own
            key = own_key(cand.memory_type, target.key, cand.content, keys | {k for k, _ in out})
            out[(key, CandidateOp.UPSERT)] = cand.model_copy(update={"key": key})
            continue
        prior = out.get((target.key, CandidateOp.UPSERT))
        if prior is not None:
            content = merge_content(prior.content, content)
        out[(target.key, CandidateOp.UPSERT)] = cand.model_copy(
            update={"key": target.key, "content": content, "op": CandidateOp.UPSERT,
                    "supersedes": target.key if replaced else cand.supersedes})
    for (key, op), cand in list(out.items()):
        former = _former_slot(cand, existing) if op is CandidateOp.UPSERT else None
        if former is not None and cand.supersedes is None:
            out[(key, op)] = cand.model_copy(update={"supersedes": former.key})
    upserts = {key for key, op in out if op is CandidateOp.UPSERT}
    result = [c for (key, op), c in out.items() if not (op is CandidateOp.DELETE and key in upserts)]
    if message:
        result = resolve_retractions(message, existing, result)
    result.sort(key=lambda c: (c.op is not CandidateOp.DELETE, -c.importance))
    return result


# a clause that withdraws something; group "x" of "不…了" is its topic
_RETRACT = re.compile(
    r"算了|放弃|取消|不想再|别再|不(?:再)?[^，,。；;！!？?]{1,12}了|"
    r"\bscratch (?:that|the|my)\b|\bforget (?:about |what i said about )?(?:that|the|my|it)?\b|"
    r"\bgave up\b|\bgiving up\b|\bno longer\b|"
    r"\b(?:not|don'?t|doesn'?t|didn'?t|never) [^,.;]{1,30} any ?more\b|\bi'?m done with\b|"
    r"\bnever mind\b|\bcancel(?:led)? (?:that|the|my)\b|\bdrop(?:ped)? (?:that|the|my)\b|\bquit\b")
# the same sentence states the replacement value
_REPLACE = re.compile(r"改|换成|换了|现在|而是|\bnow\b|\binstead\b|\bswitched\b|\bchanged\b|\bthese days\b")
_FORGET_THAT = re.compile(r"\bforget (?:about )?(?:that|it|this)\b|忘(?:了|掉|记)(?:它|这个|那个|吧)|"
                          r"别记(?:了|这个|住)?")
# "刚才那个目标" names which memory, it is no time window
_WHICH_ONE = re.compile(r"刚才(?:那个|那条|说的|提的)|刚刚(?:那个|说的)")
_SENTENCE = re.compile(r"[。！!？?\n]+|\.(?:\s|$)")
# a semicolon joins the old value and the new one ("I no longer play tennis; these days I play padel")
_CLAUSE = re.compile(r"[，,、：:；;]+")
# words that carry no topic in a retraction ("scratch that goal about the...")
_MARKERS_ZH = re.compile(r"算了|放弃了?|取消了?|不想再|别再|不再|不想?要了?|不|了|吧|啊|呢|我的|我|你|"
                         r"那个|这个|"
                         r"刚才|上一个|最后一个|最后那个|刚说的|"
                         r"那条|这条|之前|说的|说过|的|目标|计划|打算|想法|还是|就")
_STOP_EN = frozenset((
    "scratch", "that", "the", "my", "about", "forget", "what", "said", "gave", "give", "giving",
    "up", "longer", "anymore", "any", "more", "done", "with", "never", "mind", "cancel",
    "cancelled", "drop", "dropped", "quit", "goal", "goals", "plan", "plans", "idea", "this", "it",
    "was", "were", "have", "been", "i'm", "not", "and", "actually", "please", "okay", "just",
    "don't", "dont", "doesn't", "didn't", "really", "also", "that's",
    # which one ("scratch that last goal"), not what it is about
    "last", "latest", "previous", "earlier", "first", "one", "big", "new", "other", "all",
))
# types whose value a "不…了，改…" sentence replaces in place (a goal or project is withdrawn, not replaced)
_REPLACEABLE = frozenset({MemoryType.PREFERENCE.value, MemoryType.FACT.value})
_TYPE_WORDS = (("goal", re.compile(r"目标|计划|打算|\bgoals?\b|\bplans?\b")),)


def _type(name: str) -> MemoryType:
    try:
        return MemoryType(name)
    except ValueError:
        return MemoryType.FACT


def _topic_grams(clause: str) -> set[str]:
    if has_cjk(clause):
        bare = _MARKERS_ZH.sub(" ", _flat(clause))
        return {part[i:i + 2] for part in bare.split() for i in range(len(part) - 1)} or {
            part for part in bare.split() if part}
    return {w for w in re.findall(r"[a-z0-9']+", normalise(clause)) if len(w) > 2 and w not in _STOP_EN}


def _target(clause: str, existing: Sequence[ExistingMemory]) -> ExistingMemory | None:
    """The one live memory ``clause`` withdraws: most of its topic grams in the memory's content
    (best score, ties refused), or, when it names only a type ("scratch that goal"), the only one."""
    hint = next((t for t, rx_ in _TYPE_WORDS if rx_.search(normalise(clause))), None)
    pool = [m for m in existing if hint is None or m.memory_type == hint]
    grams = _topic_grams(clause)
    if not grams:
        return pool[0] if hint is not None and len(pool) == 1 else None
    scored = sorted(((sum(1 for g in grams if g in _grams(m.content) or g in _flat(m.content))
                      / len(grams), i) for i, m in enumerate(pool)), reverse=True)
    if not scored or scored[0][0] < 0.5 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return pool[scored[0][1]]


def _new_value_told(candidates: Sequence[MemoryCandidate], target: ExistingMemory, others: list[str],
                    said: list[str]) -> bool:
    """A slot detector of the rules filed a clause of the sentence other than the withdrawing ones under the
    withdrawn memory's own single slot ("not pescatarian anymore, went fully vegan in march": the diet slot's
    new value), with no word of the withdrawn clauses: it replaces the value, no replace word said."""
    if not is_single(target.key):
        return False
    return any(c.op is CandidateOp.UPSERT and c.key == target.key and _flat(c.content)
               and not any(w in _flat(c.content) for w in said)
               and any(contained(c.content, o) or contained(o, c.content) for o in others)
               for c in candidates)


def resolve_retractions(message: str, existing: Sequence[ExistingMemory],
                        candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """``candidates`` with the updates and retractions of ``message`` applied (see module docstring)."""
    if not existing:
        return candidates
    out = list(candidates)
    for sentence in _SENTENCE.split(message):
        norm = normalise(sentence)
        if not norm or patterns.TIME_HARD.search(_WHICH_ONE.sub(" ", norm)) or is_question(norm) \
                or patterns.HYPOTHETICAL.search(norm) or patterns.KEEP_REMINDER.search(norm):
            continue
        clauses = [c for c in _CLAUSE.split(norm) if c.strip()]
        originals = [c.strip() for c in _CLAUSE.split(sentence) if c.strip()]
        own_words = dict(zip(clauses, originals, strict=True)) if len(originals) == len(clauses) else {}
        withdrawn = [c for c in clauses if _RETRACT.search(c) or _FORGET_THAT.search(c)]
        if not withdrawn:
            continue
        if not any(_topic_grams(c) for c in withdrawn) and any(_FORGET_THAT.search(c) for c in withdrawn):
            # a bare "forget that" withdraws what the rest of its sentence states ("I don't watch
            # horror movies anymore, please forget that"); a bare "算了" does not ("算了，还是学日语")
            withdrawn = clauses
        target = _target(" ".join(withdrawn), existing) or next(
            (t for t in (_target(c, existing) for c in withdrawn) if t is not None), None)
        if target is None:
            continue
        others = [c for c in clauses if c not in withdrawn]
        said = [_flat(c) for c in withdrawn if _flat(c)]
        replaced = any(_REPLACE.search(c) for c in clauses) or _new_value_told(out, target, others, said)
        rest = others if replaced else []
        gone = _flat("".join(withdrawn))
        # the candidates this sentence produced about the withdrawn value are void, and so is one that
        # holds the withdrawing clause itself when nothing replaces it (the retraction stores nothing)
        kept = [c for c in out if not (c.op is not CandidateOp.DELETE and (
            (c.key == target.key and not rest) or (_flat(c.content) and _flat(c.content) in gone)
            or (not rest and any(w in _flat(c.content) for w in said))))]
        update = next((c for c in kept if c.op is CandidateOp.UPSERT and rest and (
            c.key == target.key or c.memory_type.value == target.memory_type) and any(
                contained(r, c.content) or contained(c.content, r) for r in rest)), None)
        rest_text = [own_words.get(c, c) for c in rest]  # the user's own casing and punctuation
        content = clean_content("，".join(rest_text) if has_cjk(message) else ", ".join(rest_text))
        if update is not None:
            new = update.model_copy(update={"supersedes": target.key, "content": content or update.content})
            kept = [new if c is update else c for c in kept]
        elif rest and _topic_grams(content) and target.memory_type in _REPLACEABLE \
                and not any(c.op is CandidateOp.UPSERT and c.key == target.key for c in kept):
            # "我不跑步了，改游泳了": the new value takes the old one's place even when no rule
            # recognised it on its own
            kept.append(MemoryCandidate(op=CandidateOp.UPSERT, memory_type=_type(target.memory_type),
                                        key=target.key, content=content, importance=3, confidence=0.8,
                                        supersedes=target.key))
        else:
            kept = [c for c in kept if c.key != target.key]
            kept.append(MemoryCandidate(op=CandidateOp.DELETE, memory_type=_type(target.memory_type),
                                        key=target.key, content=target.content, importance=3,
                                        confidence=0.9, supersedes=target.key))
        out = kept
    return out
