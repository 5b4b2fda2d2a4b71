"""The update judge's supersessions: the candidate that gives a paired memory its new value.

Contract: ``supersede_paired`` acts on the pair model's supersede reading of one sentence against its surest
pair (p >= ``SUPERSEDE_P``, or ``CUED_SUPERSEDE_P`` with a strong change cue for the most similar memory;
never an addition, never a list without a strong change cue). ``supersede`` finds what replaces the memory, in
this order: the candidate refine merged into the memory's own key, rewritten with the new statement alone
(only with a strong change cue, ``strong_change``, or a new part the memory classifier types as the slot's,
``of_type``); else the candidate the sentence produced (its content overlaps the sentence), naming the memory
in ``supersedes``, or taken over or kept beside it across slots at ``CROSS_P``; else, when those candidates
are side facts of other slots, the sentence's strongly cued clause none of them holds (``untold``), read as
the statement; else, at ``STATEMENT_P`` with an update cue and no question, the sentence's new value itself
(``judge_values.new_part``), told by a strong change (or, where the rules read the old value's end, typed as
the slot's by the memory classifier: ``of_type``), written under the memory's key and type unless the memory
classifier calls it a memory of another type (``another_type``), a candidate of the message told after the
sentence that holds it giving way; else, when nothing of the message comes from the sentence or writes the
memory and the update-intent model reads a change (``supersede_new``), the sentence whole, read as a sentence
without a change word is. A new value the statement path would write from a text the classifier gate read as
no memory (``unkept``, ``read_as_none``) is given up, for a memory other than a rule, unless the sentence
tells the memory's own value changed (``own_strong_change``; the judge passes ``unkept`` empty for a sentence
the update-intent model reads as a change). A new value told with a weak cue alone (``weak_cue``) must be of
the memory's type (``of_type``). Then another memory stating the old value the sentence moves from goes too
(``old_value``, its supersede and retract read together). A slug key naming the old value's words gets a slug
of the new value (``fresh_key``). Invariants: every replacement names the memory in ``supersedes``; two named
slots (a catalogue slot, or a key another writer named: ``slots.names_a_slot``) never replace each other; a
goal is never a fact's new value (``_STATES``); the requests glued to a value are cut only after everything is
decided; the classifier is passed in. Since session 32 (upd51), where the pair model's supersede is at
``STRONG_P`` or more, the new-value head (``new_value.tells_value``, ``NEW_VALUE_ON``) reading the tail as the
memory's new value stands for the words' checks on the statement path (an update cue, a told new value, a
strong change, a weak cue's type) and lifts the another-type veto; the gate's no-memory reading still holds.
"""

from __future__ import annotations

from core.extraction.candidates import CandidateOp, ExistingMemory, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.pairs import RELATIONS, UPDATE_CUE, overlap, pair_bar, shares_value, topic_text
from core.extraction.rules.coherence import LIST_SLOTS
from core.extraction.rules.events import is_event_key
from core.extraction.rules.judge_cues import (
    ADDITIVE,
    CLAUSE,
    CORRECTION,
    QUESTION,
    STOP,
    STRONG_CUE,
    changes,
    from_sentence,
    number_changed,
    retracts,
    tells_new_value,
)
from core.extraction.rules.judge_ledger import Ledger, type_of
from core.extraction.rules.judge_pairs import Pairing
from core.extraction.rules.judge_values import new_part, value_clauses, without_requests
from core.extraction.rules.keys import content_slug
from core.extraction.rules.new_value import tells_value
from core.extraction.rules.refine import contained, without_past
from core.extraction.rules.segment import has_cjk
from core.extraction.rules.slots import is_known_slot, names_a_slot
from core.extraction.rules.value_clause import VALUE_CLAUSE_ON, rechoose
from core.extraction.slot_reading import shipped_slot_reading
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.text.salient import salient_tokens
from core.types import MemoryType
from schemas.events import MAX_MEMORY_CONTENT_CHARS

_PIECES = re.compile(r"；|; ")


# the bars on the pair model's probabilities: the values below are the ones set on the weights they were
# set on; retrained weights carry their own, refitted with them
# (``pairs.pair_bar``, ``training/fit_pair_bars.py``)
SUPERSEDE_P = pair_bar("SUPERSEDE_P", 0.80)
STATEMENT_P = pair_bar("STATEMENT_P", 0.80)  # the sentence itself becomes the new content only this sure
STATEMENT_KEEP = 0.8  # ... unless the memory classifier is this sure it is a memory
OTHER_TYPE_P = 0.5  # ... and gives the memory's own type less than this. Measured on the pair rows
# (``training/fit_inherit_bar.py``, bench/results/inherit_bar40.json): there it blocks more true supersedes
# than false ones, and no bar on the classifier's other type is right 90 % of the time; kept, because on
# MemoryBank's long chat sentences it is what stops the pair model's false supersedes at 0.86-0.92 ("我的一个
# 朋友最近表示要搬到另一个城市去" over a goal): a veto the pair rows do not hold (bench/RESULTS.md, upd40)
CUED_SUPERSEDE_P = pair_bar("CUED_SUPERSEDE_P", 0.70)
# ^ ... with a strong change cue, for the most similar memory ("注释改成中文吧")
SURE_P = pair_bar("SURE_P", 0.93)
# ^ a supersede this sure tells a new value with a weak cue alone ("been at the new
# apartment about a month now", "现在只能每天挤地铁上班")
WEAK_TYPE_P = 0.5  # a new value told with a weak cue alone must be of the memory's type this surely
# (classifier), and a memory (p_keep), else it is no value of that slot ("现在才4万出头" is no job)
STRONG_P = pair_bar("STRONG_P", 0.85)
# ^ a supersede this sure tells a new value without a strong cue word ("traded the civic")
CROSS_P = pair_bar("CROSS_P", 0.90)
# session 28 (upd47): a new value the gate read as no memory (``unkept``) on the precision model's word
# still replaces the memory when the pair model reads the supersede at ``SURE_P`` and the memory classifier
# keeps the new value as a memory of the slot's type ("doing X at a community college now" against a course
# of study); facts and tastes only (``_STATES``)
SURE_VALUE_ON = True
SLOT_HELD_ON = False
"""Issue 24, session 31 (upd50): a change the update judge gives a memory on the slot reading's word
(``judge.UpdateJudge._slot_rank``: the sentence and the memory read as one slot) holds the memory's state
whatever type the memory classifier reads the new value as (``held_state``), its p_keep still speaking. Off:
measured only with the wide slot reading (``slot_reading.SLOT_READING_WIDE_ON``), which ships off."""
# session 29 (upd48): a held fact or taste slot's new value told with a weak cue alone, which the pair model
# reads as its supersede at ``SURE_P``, is read by the memory classifier for its kind only (a memory, a fact
# or a taste: ``held_state``), not for the slot's exact type: a habit or a diet is typed a fact as often as a
# taste ("oatmeal with blueberries every morning now" against "I skip breakfast": typed a fact, p_keep 0.95)
SURE_STATE_ON = True
# session 30 (upd49): a fact or taste candidate filed under another named slot of the same type than the
# memory it replaces ("现在每周都炖牛肉吃" under preference-food, "我是素食主义者" under preference-diet) is
# no second slot when the pair model reads the supersede at ``SURE_P`` (``sure_slot``): it retires the memory
SURE_SLOT_ON = True
# ^ a supersede this sure takes over a candidate the sentence produced under another slot or
# type ("switched majors to public health" keyed fact-health replaces fact-education's value)
# the types a new value read under another slot may move between ("现在开车上班" typed a fact, the commute
# stored as a preference); a goal is no new value of a fact ("存款要攒到10万，现在才4万出头" beside a job,
# "准备转行做心理咨询师" beside two children)
_STATES = frozenset({MemoryType.FACT, MemoryType.PREFERENCE})
STATES = _STATES  # the update judge's slot reading reads these types only
# where the sentence moves from: "从" / "from", and leaving it ("离开" / "搬离" beside "left" / "out of")
_FROM = re.compile(r"从|离开|搬离|\bfrom\b|\bleft\b|\bout of\b", re.IGNORECASE)
_EN_LIST = re.compile(r"\w+, [\w' ]+,? and \w+")  # "jazz, soul, and old funk records"


def fresh_key(memory: ExistingMemory, content: str) -> str:
    """The key the new value of ``memory``'s slot is written under: the memory's own, unless that key is
    a slug of the old value's words (no named slot) of which the new value holds none
    ("constraint-xie_dong_xi_yong_notion" for "最近 all in Obsidian 了"): then a slug of the new value
    (the upsert retires the old key through ``supersedes``)."""
    if is_known_slot(memory.key) or "-" not in memory.key:
        return memory.key
    prefix, slug = memory.key.split("-", 1)
    old_words = set(content_slug(memory.content).split("_"))
    new_words = set(content_slug(content).split("_"))
    named = {w for w in slug.split("_") if len(w) >= 3 and w in old_words}
    if not named or named & new_words:
        return memory.key
    return f"{prefix}-{content_slug(content)}"


def old_value(sentence: str, old: str, other: str) -> bool:
    """The sentence names, in a clause about the old value's end or where it moved from, a word that both
    the superseded memory and ``other`` hold."""
    words = salient_tokens(old) & salient_tokens(other)
    clauses = [c for c in CLAUSE.findall(sentence) if STOP.search(c) or _FROM.search(c)]
    return any(len(w) >= 2 and w in salient_tokens(c) for c in clauses for w in words)


def untold(sentence: str, side: list[str]) -> str:
    """The clauses of ``sentence`` that none of the ``side`` contents holds, joined, when one of them tells a
    change with a strong cue (``STRONG_CUE``); else ""."""
    rest = [c.strip() for c in CLAUSE.findall(sentence) if c.strip() and not any(
        c.strip() in s or overlap(c, s) >= 0.5 for s in side)]
    if not any(STRONG_CUE.search(c) for c in rest):
        return ""
    return ("，" if has_cjk(sentence) else ", ").join(rest)


def sure_slot(classifier: MemoryClassifier, p: float, candidate: MemoryCandidate,
              memory: ExistingMemory) -> bool:
    """A fact or taste ``candidate`` the sentence produced under another named slot than ``memory``'s (the
    rules filed "现在每周都炖牛肉吃" under preference-food beside a vegetarian diet under preference-diet)
    fills the memory's slot when the pair model reads the sentence as its supersede at ``SURE_P`` or more,
    the memory is a fact or a taste too, and the slot reading (``core.extraction.slot_reading``) reads the
    candidate and the memory as one slot (``SURE_SLOT_ON``): the slot names are the rules' guesses. Without
    the slot reading's agreement the pooled check lost a case (bench/RESULTS.md, issue 24, session 30)."""
    if not (SURE_SLOT_ON and p >= SURE_P and {candidate.memory_type, type_of(memory)} <= _STATES):
        return False
    reading = shipped_slot_reading()
    if reading is None:
        return False
    new, old = reading.read(classifier.embed([candidate.content, memory.content]))
    return new is not None and new == old


def a_list(memory: ExistingMemory) -> bool:
    """A memory that lists items of one kind (a hobby or skill list, "徒步、长跑、打篮球和攀岩", "painting,
    playing piano and tea tasting"): one more item told, or one of them told again ("最近我还在学习攀岩",
    "最近我在玩一个棋牌类游戏"), is no new value of it; only a strong change cue replaces the list."""
    if memory.key.split("-", 1)[-1] in LIST_SLOTS:
        return True
    if memory.memory_type != MemoryType.PREFERENCE.value:  # "a paralegal at a firm, it's fine, pays rent"
        return False
    return memory.content.count("、") >= 2 or bool(_EN_LIST.search(memory.content))


def weak_cue(tail: str, before: str, old: str = "") -> bool:
    """Only a weak change cue tells the change (``strong_change`` passed on ``SURE_P``); a count the ``old``
    memory states told with another value is no weak cue ("under 100 words" -> "you can go up to 250
    words now": an instruction's value changed)."""
    return not (STRONG_CUE.search(tail) or (before and STRONG_CUE.search(before)) or changes(tail)
                or (old and number_changed(old, tail)))


def strong_change(tail: str, p: float, old: str = "", before: str = "") -> bool:
    """The text tells a new value: a strong change cue (in it or in the sentence ``before`` it: "no more
    hoops for me. swimming now"), or a supersede of ``STRONG_P`` or more with a change cue other than a
    bare "now" / "现在" / "已经" ("现在已经有三个站在试用了" is progress) or a changed number ("keep it to
    two next time"), or of ``SURE_P`` or more with any change cue."""
    if STRONG_CUE.search(tail) or (before and STRONG_CUE.search(before)):
        return True
    if p >= SURE_P and UPDATE_CUE.search(tail):
        return True
    return p >= STRONG_P and (changes(tail) or number_changed(old, tail))


def another_type(classifier: MemoryClassifier, content: str, memory: ExistingMemory) -> bool:
    """The memory classifier sees ``content`` as a memory (p_keep >= ``STATEMENT_KEEP``) of a type other than
    ``memory``'s: the memory's type under ``OTHER_TYPE_P`` and another likelier. Else a new value the pair
    model reads as superseding ``memory`` takes its slot, key and type."""
    seen = classifier.predict([content])[0]
    p_mine = seen.p_type(type_of(memory))
    return seen.p_keep >= STATEMENT_KEEP and p_mine < OTHER_TYPE_P and any(
        seen.p_type(t) > p_mine for t in MemoryType)


def of_type(classifier: MemoryClassifier, content: str, memory: ExistingMemory) -> bool:
    """The memory classifier sees ``content`` as a memory of ``memory``'s type."""
    seen = classifier.predict([content])[0]
    mine = seen.p_type(type_of(memory))
    return seen.p_keep >= WEAK_TYPE_P and (
        mine >= WEAK_TYPE_P or all(mine >= seen.p_type(t) for t in MemoryType))  # ... or its likeliest


def held_state(classifier: MemoryClassifier, content: str, memory: ExistingMemory, p: float,
               slot_same: bool = False) -> bool:
    """The pair model reads ``content`` as ``memory``'s new value at ``SURE_P`` or more, the memory is a fact
    or a taste, and the memory classifier keeps ``content`` as a memory (p_keep >= ``WEAK_TYPE_P``) whose
    likeliest type is a fact or a taste too, whichever (``SURE_STATE_ON``). Its p_keep still speaks: the pair
    model reads the day's news as a sure supersede too ("今天早上还忘吃了，现在饿得发慌" against a lactose
    intolerance: 0.97, p_keep 0.01; dev zh-multi-004)."""
    if not SURE_STATE_ON or p < SURE_P or type_of(memory) not in _STATES:
        return False
    seen = classifier.predict([content])[0]
    # ``slot_same`` (session 31, ``SLOT_HELD_ON``): the slot reading reads the sentence as the memory's own
    # slot, so the memory classifier's type of the new value speaks no more ("现在改学古筝" typed a goal
    # beside "我在学小提琴" kept as a fact); its p_keep still does
    return seen.p_keep >= WEAK_TYPE_P and (seen.memory_type in _STATES or (SLOT_HELD_ON and slot_same))


def read_as_none(content: str, unkept: frozenset[str]) -> bool:
    """``content`` is a text the classifier gate read as no memory (``unkept``, ``gate.GateReading.unkept``):
    each says nothing the other does not. A part of such a text is not (the gate read the whole: "full time
    X instructor now" is a memory of its own in "ya so im not teaching that anymore, full time X instructor
    now")."""
    return any(contained(content, text) and contained(text, content) for text in unkept)


def own_strong_change(sentence: str, before: str, memory: ExistingMemory) -> bool:
    """``memory``'s own value changed, whatever the gate read: a count it states told with another value
    ("up to 300 words now, 100 was too short" against "under 100 words"), or a strong change cue or a
    correction (in ``sentence``, or a cue in the sentence ``before`` it) with a word of its value named in
    ``sentence`` ("厦门待不下去了" against "常住厦门", "it was X I react to, not penicillin" against
    "allergic to penicillin")."""
    if number_changed(memory.content, sentence):
        return True
    cued = STRONG_CUE.search(sentence) or CORRECTION.search(sentence) or (
        before and STRONG_CUE.search(before))
    return bool(cued) and shares_value(memory.content, sentence) > 0


def gate_refuses(classifier: MemoryClassifier, content: str, sentence: str, before: str,
                 memory: ExistingMemory, p: float, unkept: frozenset[str]) -> bool:
    """The classifier gate read ``content`` as no memory (``read_as_none``) and neither the memory's own
    value changed (``own_strong_change``) nor is the pair model sure of a fact's or taste's change whose
    new value the memory classifier types as the slot's (``SURE_VALUE_ON``); never for a rule."""
    return memory.memory_type != MemoryType.CONSTRAINT.value and read_as_none(content, unkept) \
        and not own_strong_change(sentence, before, memory) \
        and not (SURE_VALUE_ON and p >= SURE_P and type_of(memory) in _STATES
                 and of_type(classifier, content, memory))


def value_read(classifier: MemoryClassifier, tail: str, memory: str) -> str:
    """The clauses of ``tail`` (``value_clauses`` of it without the past it recounts) the new-value head
    reads as ``memory``'s new value, joined in their order; ``tail`` whole when none or one is."""
    clauses = value_clauses(without_past(tail))
    if len(clauses) < 2:
        return tail.strip()
    chosen = [c for c in clauses if tells_value(classifier, c, memory)]
    if not chosen:
        return tail.strip()
    return ("，" if has_cjk(tail) else ", ").join(c.strip() for c in chosen)


def supersede(classifier: MemoryClassifier, out: list[MemoryCandidate], sentence: str, tail: str,
              memory: ExistingMemory, p: float, before: str = "",
              intent: bool = False, ended: bool = False,
              unkept: frozenset[str] = frozenset(), slot_same: bool = False) -> list[MemoryCandidate] | None:
    """``out`` with the candidate that replaces ``memory`` naming it (see the module doc), or None
    when nothing replaces it. ``intent``: the sentence has no change word, the update-intent model
    reads it as a change: that stands for a strong change cue (a fragment told against the old value,
    "入了个X", is no memory alone for the classifier, so its type is not asked). ``unkept``: the texts the
    classifier gate read as no memory (module doc). ``ended``: the rules read
    the old value's end (a delete of ``memory`` in the message's candidates): then a new part the memory
    classifier types as the slot's tells the new value without a strong cue ("不吃辣了，喜欢清淡的")."""
    out = list(out)
    for k, c in enumerate(out):
        if c.op is CandidateOp.UPSERT and c.key == memory.key:
            # refine merged the new statement into the old memory: the new statement alone replaces it
            content = c.content
            if content.startswith(memory.content) and len(content) > len(memory.content):
                content = content[len(memory.content):].lstrip("；; ,，")
            mine_type = intent or of_type(classifier, new_part(content, memory.content), memory)
            if not (intent or strong_change(tail, p, memory.content, before) or mine_type) or (
                    weak_cue(tail, before, memory.content) and not mine_type):
                return None  # a detail of the same thing ("一般就小区里溜两圈"): the merge stands
            # the tail keeps the sentences apart where the merge glued them ("...for me 😭 been
            # getting into pickleball tho"): its new part, when the merge came from it
            # without a cue word no clause marks the new value: the statement is kept whole
            mine = content if intent else new_part(content, memory.content) or content
            rule = memory.memory_type == MemoryType.CONSTRAINT.value
            theirs = new_part(tail, memory.content) \
                if overlap(content, tail) >= 0.5 and not intent else ""
            told_there = bool(theirs and changes(theirs) and not UPDATE_CUE.search(mine))
            content = theirs if told_there or (theirs and mine in theirs) else mine  # ... or more of it
            content = content if rule else without_requests(content)
            out[k] = c.model_copy(update={"content": content, "supersedes": memory.key,
                                          "key": fresh_key(memory, content),
                                          "confidence": max(c.confidence, round(p, 3))})
            return out
    told = False  # the sentence produced a candidate that tells a change (of this slot or not)
    taken: list[int] = []  # ... under another slot or type, which a sure supersede takes over
    retire: list[int] = []  # ... or which keeps its own slot and retires the old memory
    side: list[str] = []  # what those candidates hold
    # the sentence's statement is a taste or goal kept under another named slot (merged into it or not)
    elsewhere = any(c.op is CandidateOp.UPSERT and c.memory_type is type_of(memory) and c.key != memory.key
                    and c.memory_type in (MemoryType.PREFERENCE, MemoryType.GOAL)
                    and is_known_slot(c.key) and is_known_slot(memory.key)
                    and any(from_sentence(c.model_copy(update={"content": piece}), sentence)
                            for piece in _PIECES.split(c.content) if piece.strip()) for c in out)
    for k, c in enumerate(out):
        if c.op is not CandidateOp.UPSERT or not from_sentence(c, sentence):
            continue
        if not (intent or UPDATE_CUE.search(c.content)):
            continue  # a side fact of the sentence ("膝盖不行"), not the new value
        told = True
        side.append(c.content)
        if is_event_key(c.key):
            if p >= CROSS_P and (intent or tells_new_value(c.content)):
                taken.append(k)  # "band broke up, i'm teaching myself drums now": the new value,
                # told as the day's news
            continue  # else a dated life event replaces nothing
        named = is_known_slot(c.key) and names_a_slot(memory.key)  # a tool's own key is named too
        other = c.memory_type is not type_of(memory) or (c.key != memory.key and named)
        if c.supersedes is not None or other:
            two_slots = (named and c.memory_type is type_of(memory)  # e.g. a length rule, a diet rule
                         and not shares_value(memory.content, topic_text(sentence))  # ... unless the
                         # sentence names the memory's own words ("bump the grocery budget to $120")
                         and not sure_slot(classifier, p, c, memory))  # ... or a sure change of one slot
            if p >= CROSS_P and c.supersedes in (None, memory.key) and (intent or changes(c.content)) \
                    and not two_slots:
                taken.append(k)  # sure: the slot the rules guessed for the new value gives way
            elif p >= CROSS_P and c.supersedes is None and not two_slots \
                    and (intent or tells_new_value(c.content)) \
                    and {c.memory_type, type_of(memory)} <= _STATES:
                retire.append(k)  # the new value keeps the slot and type it was read as ("现在开车上班"
                # typed a fact beside a commute stored as a preference); the old memory retires. Across
                # slots only as sure as a take-over (CROSS_P): at 0.87 "跟了一位新的瑜伽教练" retired a
                # hobby list and "最近一直在考虑工作上的问题" the user's temperament (MemoryBank cn)
            continue  # else two named slots never replace each other
        content = c.content if intent else new_part(c.content, memory.content) or c.content
        key = fresh_key(memory, content) if c.key == memory.key else c.key
        out[k] = c.model_copy(update={"content": content, "supersedes": memory.key, "key": key,
                                      "confidence": max(c.confidence, round(p, 3))})
        return out
    if told and not taken and retire:
        k = retire[0]
        c = out[k]
        out[k] = c.model_copy(update={"content": new_part(c.content, memory.content) or c.content,
                                      "supersedes": memory.key,
                                      "confidence": max(c.confidence, round(p, 3))})
        return out
    rest = untold(sentence, side) if told and not elsewhere and not taken and not intent else ""
    if (told or elsewhere) and not taken and not rest:
        # what the sentence tells is stored under its own key: it is not this memory's value. A statement
        # is read in its own words, so its change word may sit in the referent beside it ("最近开始追一部
        # 电视剧X，很喜欢里面的演员"): a taste or goal the message keeps under another named slot is that
        # slot's, cue or not (two named slots never replace each other), never written twice
        return None
    if rest:  # ... unless a clause no candidate holds tells a change with a strong cue: the memory's value,
        sentence = tail = rest  # the side fact beside it keeps its own slot ("switch to km, i live in X now")
    if (p < STATEMENT_P and not (p >= CUED_SUPERSEDE_P and STRONG_CUE.search(sentence))) \
            or QUESTION.search(sentence):
        return None
    # session 32 (upd51): the new-value head's word, only where the pair model is sure (``STRONG_P``), for a
    # fact or a taste (a goal's or a project's news is progress): where the words' checks refuse the value,
    # a statement the head reads as the memory's new value is written whole (no clause of it marked by the
    # words), the gate's no-memory reading still holding (``new_value.NEW_VALUE_ON``)
    told_value = not intent and p >= STRONG_P and type_of(memory) in _STATES \
        and tells_value(classifier, tail, memory.content)
    by_words = intent or bool(UPDATE_CUE.search(sentence))
    if not (by_words or told_value):
        return None
    weak = not intent and weak_cue(tail, before, memory.content)  # the intent model stands for the cue
    corr = bool(CORRECTION.search(sentence))
    content = sentence if intent else new_part(tail, memory.content, weak, corr)
    if VALUE_CLAUSE_ON and not intent and not corr:  # the head's choice where the words chose no value clause
        content = rechoose(classifier, value_clauses(without_past(tail)), content, memory.content)
    content = content[:MAX_MEMORY_CONTENT_CHARS]
    words = by_words and len(content) >= 2 and bool(intent or tells_new_value(tail) or corr)
    # ^ else "现在饿得发慌" tells no change of anything
    if words and gate_refuses(classifier, content, sentence, before, memory, p, unkept):
        return None  # the gate read it as no memory (a mood, the day's news, thanks): no memory's new
        # value, unless the pair model is sure of the change and the memory classifier reads the new value
        # as a memory of the slot's type (the precision model's drop was the gate's only word against it), a
        # fact or a taste (a goal's news is progress: "so excited to start my new life there")
    # the new value is told: a strong change (cue words, or a supersede sure enough), or, on the models'
    # word, a supersede at the statement's bar whose new part the memory classifier sees as a memory of the
    # slot's type ("口味变了，喜欢清淡的" against "无辣不欢": no strong cue, read 0.81)
    slot_typed = words and not intent and of_type(classifier, content, memory)
    held = words and not intent and not slot_typed and held_state(classifier, content, memory, p, slot_same)
    if words and not (intent or strong_change(tail, p, memory.content, before) or (ended and slot_typed)):
        words = False
    if words and weak and not (slot_typed or held):
        words = False
    if words and not taken and not held and another_type(classifier, content, memory):
        words = False  # the memory classifier is sure it is a memory of another type: not this slot's value
    if not words:
        if not told_value:
            return None
        content = value_read(classifier, tail, memory.content)[:MAX_MEMORY_CONTENT_CHARS]
        if len(content) < 2 or gate_refuses(classifier, content, sentence, before, memory, p, unkept):
            return None
    # a candidate of the message holding the new value under another slot (told in the sentence after the
    # cue: "quit X! doing Y full time now" kept Y as a project) is that value: written once, in the slot
    same = [k for k, c in enumerate(out) if c.op is CandidateOp.UPSERT and c.supersedes is None
            and c.key != memory.key and from_sentence(c, content) and not from_sentence(c, sentence)]
    out = [c for k, c in enumerate(out) if k not in taken and k not in same]
    if memory.memory_type != MemoryType.CONSTRAINT.value:
        content = without_requests(content)  # after every check: what is decided never depends on it
    out.append(MemoryCandidate(op=CandidateOp.UPSERT, memory_type=type_of(memory),
                               key=fresh_key(memory, content), content=content, importance=3,
                               confidence=round(max(p, SUPERSEDE_P), 3), supersedes=memory.key))
    return out



def supersede_new(out: list[MemoryCandidate], sentence: str, memory: ExistingMemory, intent: bool,
                  reads_change: bool) -> bool:
    """A sentence with a change word whose statement nothing of the message kept is read on the update-intent
    model's word (``reads_change``), as a sentence without one: never a goal's news (progress, as in
    ``UpdateJudge.apply``), never where a candidate of the message comes from the sentence or writes the
    memory's key (what was kept is decided by the words, as before)."""
    if intent or not reads_change or memory.memory_type == MemoryType.GOAL.value:
        return False
    return not any(c.op is CandidateOp.UPSERT and (c.key == memory.key or from_sentence(c, sentence))
                   for c in out)


def supersede_paired(classifier: MemoryClassifier, ledger: Ledger, live: list[ExistingMemory],
                     pairing: Pairing, best: int, p: float, sentence: str, tail: str, before: str,
                     intent: bool, reads_change: bool = False, unkept: frozenset[str] = frozenset(),
                     slot_same: bool = False) -> None:
    """The pair model reads a supersede of ``live[pairing.order[best]]`` with probability ``p``: the
    candidate that replaces it names it, and another paired memory stating the old value the sentence
    moves from goes too (see the module doc); ``ledger`` is updated in place. ``reads_change``: the
    update-intent model reads the sentence as a change; when the sentence has a change word, the words'
    checks find no new value in it, nothing the message kept comes from it or writes the memory (the
    rules and the gate dropped the statement: "sold the X and bought a Y", "X待不下去了，回Y找了份工作")
    and the memory classifier, reading the sentence whole, sees a memory of the slot's type (``of_type``:
    "leave X out of it for now" is none), the model's reading stands for the words, as for a sentence
    without a change word (``supersede_new``)."""
    memory = live[pairing.order[best]]
    cued = bool(STRONG_CUE.search(sentence))
    if memory.key in ledger.done or ADDITIVE.search(sentence) or (a_list(memory) and not cued) \
            or not (p >= SUPERSEDE_P or (p >= CUED_SUPERSEDE_P and best == 0 and cued)):
        return
    # a bare delete the rules made for this memory gives way to the new value, when one is told
    kept = [c for c in ledger.out if c.key != memory.key or c.op is not CandidateOp.DELETE]
    ended = len(kept) < len(ledger.out)
    replaced = supersede(classifier, kept, sentence, tail, memory, p, before, intent, ended, unkept,
                         slot_same)
    if replaced is None and supersede_new(kept, sentence, memory, intent, reads_change) \
            and of_type(classifier, sentence, memory):  # read whole, a memory of the slot's type
        replaced = supersede(classifier, kept, sentence, tail, memory, p, before, True, unkept=unkept)
    if replaced is None:
        return
    # the sentence only telling the old value's end ("the trip fell through so i ditched
    # french") is no memory of its own once the new value replaces the old
    ledger.out = [c for c in replaced if not (
        c.op is CandidateOp.UPSERT and c.supersedes is None and from_sentence(c, sentence)
        and all(STOP.search(x) for x in CLAUSE.findall(c.content) if x.strip()))]
    ledger.written.add(memory.key)
    ledger.done.add(memory.key)
    for rank, j in enumerate(pairing.order):  # another memory stating the old value the sentence
        other = live[j]  # names ("从深圳搬去厦门了": "现在在深圳工作" beside "常住深圳")
        sup = float(pairing.probs[rank, RELATIONS.index("supersede")])
        if not retracts(sentence):  # the old value's end: read as supersede and retract together, both
            # saying it no longer holds ("深圳待不下去了" against "现在在深圳打工": 0.70 + 0.29)
            sup += float(pairing.probs[rank, RELATIONS.index("retract")])
        if rank == best or sup < SUPERSEDE_P or other.key in ledger.written | ledger.done | ledger.deleted \
                or not old_value(sentence, memory.content, other.content):
            continue
        ledger.out.insert(0, MemoryCandidate(
            op=CandidateOp.DELETE, memory_type=type_of(other), key=other.key,
            content=other.content[:MAX_MEMORY_CONTENT_CHARS], importance=3,
            confidence=round(sup, 3), supersedes=other.key))
        ledger.deleted.add(other.key)
        ledger.done.add(other.key)
