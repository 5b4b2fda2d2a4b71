"""The new value an update statement tells: which of its clauses replace the old memory's content.

Contract: ``new_part(statement, old, implicit, correction)`` is the statement's clauses about the new value
(see its docstring), cleaned; never empty for a non-empty statement (it falls back to every clause that does
not tell the old value's end, then to all). ``without_requests(value)`` drops the clauses that ask the
assistant for something, applied only after the update is decided. Invariants: pure functions of their
text, no model; a clause is read after the past tense is cut (``refine.without_past``) and split before a
"so" / "所以" that introduces the new value; a clause of cue words alone is never the value.
"""

from __future__ import annotations

from core.extraction.pairs import UPDATE_CUE, bare_cue
from core.extraction.rules.judge_cues import CLAUSE, STOP, number_changed
from core.extraction.rules.patterns import REQUEST
from core.extraction.rules.questions import is_question
from core.extraction.rules.refine import without_past
from core.extraction.rules.segment import clean_content, has_cjk, normalise
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.text.salient import salient_tokens

SHORT_TAIL = 12  # characters: a clause this short after the new value's clause completes it ("，叫年糕")
SHORT_TAIL_LATIN = 24  # ... in a script of short letters ("i got my own car, a mazda 3 hatchback")
# a latin-script clause completing the new value's clause: a noun phrase ("a mazda 3 hatchback")
_APPOSITIVE = re.compile(r"^\s*(?:a|an|the|my|called|named|like|at|in|with)\b", re.IGNORECASE)
# the small words a disposal clause ends on ("traded it in", "gave it away"): with a pronoun and the cue
# they name nothing
_PARTICLE = re.compile(r"\b(?:in|on|up|away|off|out|over|back|down)\b", re.IGNORECASE)
# a cue that closes the clause telling the new value ("5万就行", "三个就够了"): alone as a clause, it
# completes the clause before it, not the one after
_POSTFIX_CUE = re.compile(r"^\s*(?:就行|就够了|就好|即可)")
# a clause telling why, then the new value: "the ferry route got cut so i bike over the bridge now"
_THEREFORE = re.compile(r"\s+so\s+((?:i|i'm|im|we|now)\b)|所以()|于是()", re.IGNORECASE)


def _shares_value(clause: str, old: str) -> bool:
    return any(len(t) >= 2 for t in salient_tokens(clause) & salient_tokens(old))


def _split_therefore(clause: str) -> list[str]:
    """``clause`` cut before the new value a "so" / "所以" introduces."""
    out, start = [], 0
    for m in _THEREFORE.finditer(clause):
        out.append(clause[start:m.start()])
        start = m.start(1) if m.group(1) else m.end()
    return [*out, clause[start:]]


def value_clauses(text: str) -> list[str]:
    """``text``'s clauses as a value is read: split at clause marks and before "so"/"所以"."""
    return [q.strip() for p in CLAUSE.findall(text) for q in _split_therefore(p) if q.strip()]


def _no_value(clause: str) -> bool:
    """``clause`` is cue words, fillers and a pronoun's particle only ("traded it in", "sold it off"): it
    names no value, old or new; the clause after it tells the new one ("traded it in, got an X")."""
    return bare_cue(clause) or bare_cue(_PARTICLE.sub(" ", clause))


def _restates(parts: list[str], old: str) -> bool:
    """``parts`` are the ``old`` memory's clauses in order, some kept word for word and some told anew (the
    rules rewrote a rule with its changed value: "…, just 2 at a time max, more than that, and i freeze up"
    -> "…, just 1 at a time max, …"): the whole text is the memory's new value, never one of its kept
    clauses alone."""
    before = [normalise(q).lower() for q in value_clauses(old)]
    now = [normalise(p).lower() for p in parts]
    if len(now) != len(before) or len(now) < 2:
        return False
    same = sum(a == b for a, b in zip(now, before, strict=True))
    return 0 < same < len(now)


def without_requests(value: str) -> str:
    """``value`` without its clauses that ask the assistant for something ("今天的工作总结帮我列一下", the
    next message of a burst glued to a new value) or ask it a question ("你喜欢看电视剧吗": a question is
    never part of a stored statement); the value itself when every clause asks. Applied after the update
    is decided, so what is decided never depends on it."""
    parts = value_clauses(value)
    kept = [p for p in parts if not REQUEST.search(p) and not is_question(normalise(p))]
    if not kept or len(kept) == len(parts):
        return value
    return clean_content(("，" if has_cjk(value) else ", ").join(kept))


def new_part(statement: str, old: str, implicit: bool = False, correction: bool = False) -> str:
    """The clauses of an update ``statement`` about the new value: those with a change cue that do not
    tell the old value's end (nor name it, when another cue clause does not), each with a short clause
    completing it; else those that neither tell its end nor name a word of the ``old``
    memory; else all. The ``old`` memory restated clause by clause with some clauses changed (the rules'
    rewrite of a rule with its new value) is the new value whole. A clause of cue words alone ("你记错了")
    is no value. ``implicit``: the change is only implied (a weak cue: "the commute from astoria is way
    better, been at the new apartment a month now"): the new value is in the clauses without a cue too,
    so all clauses but the old value's.
    ``correction``: the new value names the slot's words ("portland MAINE, not oregon"): all clauses but
    the wrong value's."""
    text = without_past(statement)
    parts = value_clauses(text)
    if len(parts) < 2 or _restates(parts, old):
        return clean_content(text)
    kept = []
    if correction:
        kept = [p for p in parts if not STOP.search(p) and not bare_cue(p)]
        if kept:
            return clean_content(("，" if has_cjk(text) else ", ").join(kept))
    if implicit:
        kept = [p for p in parts if not STOP.search(p) and not _shares_value(p, old) and not bare_cue(p)]
        if kept:
            return clean_content(("，" if has_cjk(text) else ", ").join(kept))
    for i, p in enumerate(parts):
        if UPDATE_CUE.search(p) and not STOP.search(p) and not (
                _shares_value(p, old) and not number_changed(old, p)
                and any(UPDATE_CUE.search(q) and not _shares_value(q, old) and not STOP.search(q)
                        for q in parts)):
            kept.append(p)  # a cue clause naming the old value ("芝麻后来送去我妈那儿了") gives way to
            # one that does not, unless it states a new number ("bump the budget to $250")
            if bare_cue(p) and _POSTFIX_CUE.search(p) and i > 0 and not STOP.search(parts[i - 1]):
                kept.insert(len(kept) - 1, parts[i - 1])  # "目标变成 save 5万，就行": the value is before
                continue
            nxt = parts[i + 1] if i + 1 < len(parts) else ""
            short = SHORT_TAIL if has_cjk(nxt) or not _APPOSITIVE.search(nxt) else SHORT_TAIL_LATIN
            if nxt and not STOP.search(nxt) and (
                    _no_value(p) or (len(nxt) <= short and not _shares_value(nxt, old))):
                kept.append(nxt)  # "From now on, keep answers short": the cue alone says nothing;
                # "现在家里这只是新领养的橘猫，叫年糕": a short clause completes the new value
    kept = [p for p in dict.fromkeys(kept) if not _no_value(p)]  # "是女儿啊，你记错了": no value
    if not kept:
        kept = [p for p in parts if not STOP.search(p) and not _shares_value(p, old) and not bare_cue(p)]
    if not kept:
        kept = [p for p in parts if not STOP.search(p)] or parts
        kept = [p for p in kept if not bare_cue(p)] or kept
    return clean_content(("，" if has_cjk(text) else ", ").join(kept))
