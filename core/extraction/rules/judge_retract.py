"""The update judge's retractions: which paired memory a retraction withdraws, whole or in part.

Contract: ``retraction`` is a ``delete`` of one memory (naming it in ``supersedes``), or an upsert of the
clauses the sentence does not retract (naming it too) when the rest is a memory alone (memory classifier
p_keep >= ``REST_KEEP``), or ``None``. ``withdraw`` applies a retraction sentence (a retraction cue outside
a reminder, no new value told) to its pairs: the first pair goes at ``RETRACT_P`` (``NAMED_RETRACT_P`` when
its topic names a word of the memory, ``ANAPHOR_P`` for the previous turn's memory of a bare "forget
that"), another only when the sentence names a word of it; a delete the rules made stands unless the
sentence names one part and the rest is a memory alone. A memory that lists things loses only the item the
topic names, by word or by meaning (``retract_items.choose_item``: an upsert of the rest, mended joints); the
list's own words take it whole; one whose items the topic names none of is not withdrawn, and the next paired
memory is read as the first; a memory the topic names by no word is not withdrawn when it names a word of
another paired memory. ``retract_paired`` applies the pair model's
retract reading of a sentence that is not only a retraction. Invariants: a memory a candidate of the message
already writes is never deleted (unless that candidate is the retraction sentence's own echo); a memory is
decided once (``Ledger.done``); what the retraction sentence itself produced with a retraction cue in it is
never stored; the models are passed in.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from core.extraction.candidates import CandidateOp, ExistingMemory, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.pairs import (
    RELATIONS,
    RETRACT_CUE,
    PairModel,
    bare_cue,
    pair_bar,
    shares_value,
    topic_text,
)
from core.extraction.retraction_target import RetractionTarget, clause_probabilities
from core.extraction.rules.analysis import relative_subject, theirs_after
from core.extraction.rules.judge_cues import CLAUSE, from_sentence
from core.extraction.rules.judge_ledger import Ledger, type_of
from core.extraction.rules.judge_pairs import Pairing
from core.extraction.rules.retract_items import (
    Named,
    choose_item,
    kept_when_unnamed,
    one_character_topic,
    shipped_item_reader,
)
from core.extraction.rules.segment import clean_content, has_cjk, normalise
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.text.salient import salient_tokens
from schemas.events import MAX_MEMORY_CONTENT_CHARS

RETRACT_P = pair_bar("RETRACT_P", 0.80)
REST_KEEP = 0.5  # the clauses a partial retraction keeps must be a memory alone (classifier p_keep)
PART_P = pair_bar("PART_P", 0.50)
# ^ a clause of a retracted memory goes with it at this retract probability (privacy first:
# a detail of the retracted thing goes too, "考公那件事" takes "行测老是做不完" with it)
NAMED_RETRACT_P = pair_bar("NAMED_RETRACT_P", 0.5)
# ^ a retraction whose topic names a word of the memory is enough at this probability
PART_MARGIN = 0.25  # a clause goes with a partial retraction only this close to the surest clause's
# probability (a short topic, "salary", sits near every clause of the memory in e5's space)
# session 27 (upd46): a retraction of a part of the previous turn that nothing holds withdraws nothing
# (``judge_pairs.unstored_part``)
UNSTORED_PART_ON = True
ANAPHOR_VETO_ON = True  # session 27 (upd46): the target model's veto also for a "forget it" naming its thing
ANAPHOR_P = pair_bar("ANAPHOR_P", 0.50)  # retract probability enough when the previous turn names the memory
# a retraction of one part: "the adderall part", "salary 那部分", "the debt number"
_PART_CUE = re.compile(r"\b(?:part|bit|piece|detail|details|number|section)\b|部分|那块|那段|那点|那句",
                       re.IGNORECASE)
_AND = re.compile(r",? and (?:i|i'm|my)\b", re.IGNORECASE)
_KEEP = re.compile(r"\b(?:just|only|but keep|keep the)\b|只留|保留|只记", re.IGNORECASE)


def retraction_topic(sentence: str) -> str:
    """What a retraction withdraws: the topic of its clauses with a retraction cue, when other clauses
    say what to keep ("don't keep the pregnancy thing, just the kids" -> "pregnancy"); else
    ``topic_text(sentence)``."""
    if not RETRACT_CUE.search(sentence):
        return topic_text(sentence)
    parts = [p for p in CLAUSE.findall(sentence) if p.strip()]
    cued = [p for p in parts if RETRACT_CUE.search(p)]
    if not cued or len(cued) == len(parts):
        return topic_text(sentence)
    joined = " ".join(cued)
    if bare_cue(joined):
        return topic_text(sentence)  # "forget that, it was about my ex": the other clause is the topic
    return topic_text(joined)


_JOINTS = "和与跟、及"  # what joins the items of a Chinese list
_ENDS = "，,。；;！!？?"  # what ends a clause


def drop_conjunct(content: str, topic: str) -> str:
    """``content`` without the conjunct the ``topic`` names, when the memory joins two things with
    "and" / "和" ("i love horror movies and true crime podcasts" - "true crime" -> "i love horror
    movies"; "我对花生和芒果过敏" - "芒果" -> "我对花生过敏"); "" when there is no such conjunct."""
    words = [t for t in salient_tokens(topic) & salient_tokens(content) if len(t) >= 2]
    if not words:
        return ""
    low = content.lower()
    if has_cjk(content):
        ordered = sorted(words, key=lambda w: (-len(w), w))  # longest first, then fixed: never set order
        for w in ordered:  # a middle item, whole, with the joint before it ("钓鱼、下象棋和养多肉" - "象棋")
            item = f"[^{_JOINTS}{_ENDS}]*"
            m = re.search(f"([{_JOINTS}]{item}{re.escape(w)}{item})[{_JOINTS}]", low)
            if m:
                return clean_content(content[:m.start(1)] + content[m.end(1):])
        for w in ordered:
            for pat in (f"[{_JOINTS}]{w}", f"{w}[{_JOINTS}]"):
                m = re.search(pat, low)
                if m:
                    return clean_content(content[:m.start()] + content[m.end():])
        return ""
    m = re.search(r"\s(?:and|&)\s", low)
    if not m or re.search(r"\s(?:and|&)\s", low[m.end():]):
        return ""  # none, or a list of three: not one conjunct
    left, right = low[:m.start()], low[m.end():]
    end = CLAUSE.match(right)
    right_end = m.end() + (end.end() if end else len(right))
    in_right = any(re.search(rf"\b{re.escape(w)}", right) for w in words)
    in_left = [i for i in (re.search(rf"\b{re.escape(w)}", left) for w in words) if i]
    if in_right and not in_left:
        return clean_content(content[:m.start()] + content[right_end:])
    if in_left and not in_right:
        start = min(i.start() for i in in_left)
        if len(left[:start].split()) < 1:
            return ""
        return clean_content(content[:start] + content[m.end():])
    return ""


def _rest_or_delete(classifier: MemoryClassifier, memory: ExistingMemory, rest: str,
                    p: float) -> MemoryCandidate:
    """An upsert of ``rest`` (what a cut of ``memory`` keeps) naming it in ``supersedes``, when the memory
    classifier calls it a memory (p_keep >= ``REST_KEEP``); else (or when ``rest`` is "") the delete of
    ``memory``."""
    content = rest[:MAX_MEMORY_CONTENT_CHARS]
    if content and classifier.predict([content])[0].p_keep >= REST_KEEP:
        return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=type_of(memory), key=memory.key,
                               content=content, importance=3, confidence=round(max(p, 0.8), 3),
                               supersedes=memory.key)
    return MemoryCandidate(op=CandidateOp.DELETE, memory_type=type_of(memory), key=memory.key,
                           content=memory.content[:MAX_MEMORY_CONTENT_CHARS], importance=3,
                           confidence=round(max(p, 0.8), 3), supersedes=memory.key)


def clauses_of(content: str) -> list[str]:
    """A memory's clauses ("i'm a nurse, and i make about 85k" -> two)."""
    return [p.strip() for p in CLAUSE.findall(_AND.sub(", i", content)) if len(p.strip()) >= 2]


def _keeps_some(sentence: str) -> bool:
    """A clause of the retraction says what to keep ("..., just the kids", "只留工作那部分")."""
    return any(not RETRACT_CUE.search(c) and _KEEP.search(c) for c in CLAUSE.findall(sentence))


def retraction(classifier: MemoryClassifier, model: PairModel, memory: ExistingMemory, sentence: str,
               s_vec: npt.NDArray[np.float32], t_vec: npt.NDArray[np.float32], p: float, sure: bool,
               whole: bool = False, topic: str = "") -> MemoryCandidate | None:
    """A ``delete`` of ``memory`` (when ``sure``), or an upsert of the clauses the sentence does not
    retract (when some clause is retracted with p >= ``PART_P``, or ``RETRACT_P`` when not ``sure``);
    None when nothing is retracted. ``whole``: a bare "forget that" (no topic of its own) takes the
    whole memory."""
    parts = [] if whole else clauses_of(memory.content)
    kept: list[str] = []
    if len(parts) >= 2:
        c_vec = classifier.embed(parts)
        feats = model.features(c_vec, np.repeat(s_vec[None, :], len(parts), axis=0), parts,
                               [sentence] * len(parts),
                               np.repeat(t_vec[None, :], len(parts), axis=0), classifier.embed)
        retract = model.predict_proba(feats)[:, RELATIONS.index("retract")]
        gone = (retract >= (PART_P if sure else RETRACT_P)) & (retract >= retract.max() - PART_MARGIN)
        for i in range(1, len(parts)):  # what a relative's withdrawn statement goes on to say of them
            if gone[i - 1] and theirs_after(memory.key, parts[i - 1], parts[i]):
                gone[i] = True
        if gone.any() and not gone.all():
            kept = [c for c, g in zip(parts, gone, strict=True) if not g]
        elif not sure and gone.all():
            sure = True
        if len(kept) == 1 and topic and topic != sentence and not whole:
            kept = [drop_conjunct(kept[0], topic) or kept[0]]
    elif topic and topic != sentence and not whole:
        rest = drop_conjunct(memory.content, topic)  # "i love horror movies and true crime podcasts"
        kept = [rest] if rest else []
    if kept:
        if memory.content.startswith("我") and not kept[0].startswith(("我", "I ", "i ")) \
                and not relative_subject(normalise(memory.content)):
            kept[0] = f"我{kept[0]}"  # the subject the cut clause carried ("我工资..., 在 Shopee 做...")
        content = ("，" if has_cjk(memory.content) else ", ").join(kept)[:MAX_MEMORY_CONTENT_CHARS]
        if classifier.predict([content])[0].p_keep >= REST_KEEP:
            return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=type_of(memory), key=memory.key,
                                   content=content, importance=3, confidence=round(max(p, 0.8), 3),
                                   supersedes=memory.key)
        sure = True  # the rest is no memory alone ("一次能干掉半个"): all of it goes
    if not sure:
        return None
    return MemoryCandidate(op=CandidateOp.DELETE, memory_type=type_of(memory), key=memory.key,
                           content=memory.content[:MAX_MEMORY_CONTENT_CHARS], importance=3,
                           confidence=round(max(p, 0.8), 3), supersedes=memory.key)


def unnamed_below_veto(classifier: MemoryClassifier, target: RetractionTarget | None,
                       live: list[ExistingMemory], sentence: str, topic: str) -> set[str]:
    """The keys of the live memories a retraction with its own ``topic`` names by no word and whose clauses
    the retraction-target model reads under its ``veto`` bar, every clause against all the live clauses
    ("家里人的信息别存了" does not withdraw "我在一家银行上班"); empty without the model or a topic."""
    if target is None or not topic or topic == sentence:
        return set()
    units = [(m.key, c) for m in live for c in (clauses_of(m.content) or [m.content])]
    if len(units) < 2:
        return set()
    p = clause_probabilities(target, topic, sentence, [c for _, c in units], classifier.embed,
                             classifier.embedder.embed_queries)
    best: dict[str, float] = {}
    for (key, _), q in zip(units, p, strict=True):
        best[key] = max(best.get(key, 0.0), float(q))
    return {m.key for m in live if best.get(m.key, 0.0) < target.veto and not shares_value(m.content, topic)}


def withdraw(classifier: MemoryClassifier, model: PairModel, ledger: Ledger, live: list[ExistingMemory],
             pairing: Pairing, sentence: str, topic: str, s_vec: npt.NDArray[np.float32],
             t_vec: npt.NDArray[np.float32], target: RetractionTarget | None = None) -> None:
    """A retraction sentence (no new value told) withdraws its paired memories (see the module doc);
    ``ledger`` is updated in place. ``target``: a memory the sentence names by no word and the
    retraction-target model reads under its veto (``unnamed_below_veto``) is not withdrawn here (the
    resolver reads it after)."""
    retract, anaphor = pairing.retract, pairing.anaphor
    if pairing.unstored and UNSTORED_PART_ON:
        return  # its thing was never stored: no live memory is what it withdraws
    # a retraction pointing back that names its own thing ("工资那个 forget it 吧") is read by that thing too
    own_topic = topic != sentence and not bare_cue(topic)
    vetoed = set() if anaphor and not (own_topic and ANAPHOR_VETO_ON) else unnamed_below_veto(
        classifier, target, live, sentence, topic)
    reader = shipped_item_reader()
    first = 0  # the rank of the first memory the sentence may withdraw without naming a word of it
    named_any = bool(topic) and topic != sentence and not anaphor and any(
        shares_value(live[j].content, topic) for j in pairing.order)
    # what the retraction sentence itself produced ("depression 那句 remove 掉吧" merged into
    # the memory) writes nothing of its own
    echoed = {c.key for c in ledger.out if c.op is CandidateOp.UPSERT and from_sentence(c, sentence)
              and RETRACT_CUE.search(c.content)
              and not any(c.content.startswith(m.content) for m in live if m.key == c.key)}
    for rank, j in enumerate(pairing.order):
        memory = live[j]
        named = bool(shares_value(memory.content, topic))
        # a list memory loses only the item the topic names, by word or by meaning; one it names no item
        # of stays whole, and the next paired memory is read as the first ("做饭那条删了" against
        # "我周末喜欢爬山、下围棋和做面包")
        own = topic if topic != sentence else one_character_topic(sentence)  # "茶那条去掉": 茶
        choice = None if anaphor or not own else choose_item(
            own, memory.content, classifier.embed, classifier.embedder.embed_queries, reader)
        if choice is not None and choice.named is Named.NONE and not named and kept_when_unnamed(memory.key):
            first += rank == first
            continue
        if not named and named_any:
            continue  # "把做面包那条删了": the memory its words name goes, not one only near it by meaning
        sure = bool(retract[rank] >= RETRACT_P
                    or (named and topic != sentence and retract[rank] >= NAMED_RETRACT_P)
                    or (anaphor and rank == 0 and retract[rank] >= ANAPHOR_P))
        if (memory.key in ledger.written and memory.key not in echoed) or memory.key in ledger.done or (
                rank > first and not (sure and named)) or memory.key in vetoed:
            continue  # a second memory goes only when the sentence names a word of it
        cut = choice.without() if choice is not None and choice.cuts else ""
        listed = bool(cut) or (choice is not None and choice.deletes)
        if listed and (sure or memory.key in ledger.deleted or retraction(
                classifier, model, memory, sentence, s_vec, t_vec, float(retract[rank]), sure,
                topic=topic) is not None):
            # the named items go, or every item of a list that is all the memory says ("周末那条删了")
            kept = _rest_or_delete(classifier, memory, cut, float(retract[rank]))
            ledger.out = [c for c in ledger.out if c.key != memory.key and not (
                c.op is CandidateOp.UPSERT and from_sentence(c, sentence) and RETRACT_CUE.search(c.content))]
            ledger.out.insert(0, kept)
            ledger.deleted.add(memory.key)
            ledger.done.add(memory.key)
            continue
        if memory.key in ledger.deleted:
            # a delete the rules made stands (the whole thing withdrawn), unless the sentence
            # names one part of the memory and the rest is a memory alone
            if anaphor or topic == sentence or not (
                    _PART_CUE.search(sentence) or _keeps_some(sentence)
                    or drop_conjunct(memory.content, topic)):
                continue
            part = retraction(classifier, model, memory, sentence, s_vec, t_vec, float(retract[rank]), True,
                              topic=topic)
            if part is None or part.op is CandidateOp.DELETE:
                continue
            ledger.out = [c for c in ledger.out if c.key != memory.key]
            ledger.out.insert(0, part)
            ledger.done.add(memory.key)
            continue
        cand = retraction(classifier, model, memory, sentence, s_vec, t_vec, float(retract[rank]), sure,
                          whole=anaphor and topic == sentence, topic=topic)
        if cand is None:
            continue
        # neither the memory's own candidates nor what the retraction sentence itself produced
        # ("ignore what i said about X" typed as a rule) stay
        ledger.out = [c for c in ledger.out if c.key != memory.key and not (
            c.op is CandidateOp.UPSERT and from_sentence(c, sentence) and RETRACT_CUE.search(c.content))]
        ledger.out.insert(0, cand)
        ledger.deleted.add(memory.key)
        ledger.done.add(memory.key)


def retract_paired(classifier: MemoryClassifier, model: PairModel, ledger: Ledger, memory: ExistingMemory,
                   sentence: str, s_vec: npt.NDArray[np.float32], t_vec: npt.NDArray[np.float32],
                   p: float) -> None:
    """The pair model reads ``memory`` retracted (p >= ``RETRACT_P``) by a sentence that also tells
    something else: a delete (or the rest of it), unless the message already writes or deletes it."""
    if memory.key in ledger.written or memory.key in ledger.deleted:
        return
    cand = retraction(classifier, model, memory, sentence, s_vec, t_vec, p, True)
    if cand is not None:
        ledger.out.insert(0, cand)
        ledger.deleted.add(memory.key)
        ledger.done.add(memory.key)
