"""The learned update/retraction decision in the rules provider's refine stage.

``UpdateJudge.apply`` runs after the rules' refine (``refine_candidates``) on messages carrying an
update or retraction cue (``core.extraction.pairs.has_cue``; other messages cost nothing). Each cue
sentence of the message (at most ``MAX_STATEMENTS``; a short one is read with the sentence after it:
"我辞职啦！现在在...") is paired with the user's ``MAX_PAIRS`` most similar live memories (cosine of
``passage:`` vectors, from the shared cache) and the pair model (``core.extraction.pairs.PairModel``)
decides:

- ``retract`` with p >= ``RETRACT_P`` and a retraction cue in the sentence: a ``delete`` of that
  memory (naming it in ``supersedes``), unless a candidate of the message already writes it; of the
  other paired memories, those the sentence names a word of (``shares_value``) with the same
  certainty go too ("信佛吃素的事别记了"). A bare "forget that" reads the previous user turn as its
  topic: the memory that turn stated is paired first, and its retraction probability is the larger of
  the sentence's own topic and that turn as the topic. A memory of
  several clauses ("i'm a nurse, and i make about 85k") loses only the clauses the pair model also
  calls retracted against the sentence (p >= ``PART_P``): an upsert of the rest naming the memory in
  ``supersedes`` ("forget the salary thing" keeps "i'm a nurse") when the rest is a memory alone (memory
  classifier p_keep >= ``REST_KEEP``), else the whole memory goes;
- ``supersede`` with p >= ``SUPERSEDE_P``: the candidate of the memory's key that refine merged into
  it is rewritten with the new statement alone; else the candidate the sentence produced (its content
  overlaps the sentence; of the memory's type; never another named slot)
  names the memory in ``supersedes``; else, with p >= ``STATEMENT_P``, an update cue and no question,
  the sentence itself becomes the memory's new content (``new_part``: without the clauses about the
  old value, "quit coffee, matcha now" -> "matcha now") when it has a strong change cue (``STRONG_CUE``)
  (or, where the rules read the old value's end, the memory classifier types the new part as the
  slot's: ``of_type``) and the memory classifier does not call it, with p >= ``STATEMENT_KEEP``, a
  memory of another type (p of the memory's type < ``OTHER_TYPE_P``). A refine merge into the memory's
  own key is rewritten only with a strong change cue or a new part the classifier types as the slot's.
  The upsert deactivates or overwrites the old memory and its history says which message superseded which;
- ``refine`` / ``unrelated``: nothing changes.

Since issue 24's session 11: a supersede acts at ``CUED_SUPERSEDE_P`` with a strong change cue for the
most similar memory, at ``SURE_P`` with only a weak cue when the memory classifier sees the new value as a
memory of the slot's type (``of_type``); a correction ("X, not Y", "记错了") reads supersede and refine
together; a second memory stating the old value the sentence moves from goes with the first
(``old_value``); a retraction naming one part keeps the rest even over the rules' delete (``_PART_CUE``,
a keep clause, ``drop_conjunct``), its topic is its retraction clause (``retraction_topic``), and a topic
naming a word of the memory acts at ``NAMED_RETRACT_P``; "don't forget ..." is no retraction (``retracts``).

Since issue 24's session 12: a candidate the sentence produced that tells the change under another slot or
type than the memory (the rules typed "现在开车上班" a fact beside a commute stored as a preference) keeps its
own key and type and retires the memory (``supersedes``), where it used to block the supersede, when both
are facts or preferences (``_STATES``: a goal is never a fact's new value); a dated
life event telling the new value is taken over at ``CROSS_P``; a count the old memory states told with
another value is no weak cue (``weak_cue``); a "so" / "所以" clause is cut before the new value it introduces
(``_split_therefore``); and a slug key naming the old value's words gets a slug of the new value
(``fresh_key``: "constraint-..._notion" no longer holds "Obsidian").

Since issue 24's session 18: the update-intent model also speaks for a sentence with a change word whose
statement nothing of the message kept: where the words find no new value, the model reads a change and the
retraction-intent model no withdrawal (``reads_change``), its supersede and retract are read together and
the sentence, a memory of the slot's type for the classifier, is the new value
(``judge_supersede.supersede_new``).

Since issue 24's session 21: a candidate of the message that holds the statement's new value under another
slot, told after the cue sentence, is written once, in the slot; a sentence whose candidates are side facts of
other slots gives the memory its strongly cued clause no candidate holds (``untold``); a second memory stating
the old value reads the sentence's supersede and retract together.

Since issue 24's session 22: the texts the classifier gate read as no memory and kept nowhere
(``gate.GateReading.unkept``) are no new value of a memory other than a rule on the statement path (the text
itself, not a part of it the gate never read alone) unless the update-intent model
reads the sentence as a change (``tells_change``) or the sentence tells the memory's own value changed
(``judge_supersede.own_strong_change``): thanks, a mood or the day's news with a cue word ("I'm working hard
to make it happen", "我现在心情好多了") no longer overwrite a memory.

The upsert stage records ``superseded by message N`` / ``retracted by message N``
(``core.memory.upsert._linked``). Deterministic.

The stages, each its own module with the thresholds and helpers it reads (the names above live there):
``judge_cues`` (which sentences are judged and the cue words a text carries), ``judge_pairs`` (the one
embedding batch, the live memories each sentence is paired with and the pair model's reading),
``judge_retract`` (a retraction's topic and what it withdraws, whole or in part), ``judge_supersede`` (the
candidate that gives a memory its new value, and a second memory stating the old one), ``judge_values`` (the
clauses of a statement that are the new value), over the ``judge_ledger`` of what the message has written,
deleted and decided. ``UpdateJudge.apply`` runs them per cue sentence in this order: pair; a retraction
sentence withdraws; else read the surest relation and retract or supersede.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from core.extraction.candidates import CandidateOp, ExistingMemory, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.horizon import HORIZON_DROP, shipped_horizon
from core.extraction.pairs import RELATIONS, PairModel, has_cue, time_word_only
from core.extraction.retraction_intent import INTENT_P as WITHDRAWAL_P
from core.extraction.retraction_intent import RetractionIntent
from core.extraction.retraction_target import RetractionTarget
from core.extraction.rules import rule_values
from core.extraction.rules.analysis import CUED_RULE_ON, cued_rule, cued_rule_texts
from core.extraction.rules.gate_keys import TopicKeys, catch_all
from core.extraction.rules.judge_cues import (
    ADDITIVE,
    CLAUSE,
    QUESTION,
    STRONG_CUE,
    cue_context,
    cue_statements,
    is_anaphoric,
    own_referent,
    retracts,
    sentences,
    tells_new_value,
)
from core.extraction.rules.judge_ledger import Ledger, type_of
from core.extraction.rules.judge_pairs import MAX_EXISTING, Pairing, embed_message, pair, reading
from core.extraction.rules.judge_retract import RETRACT_P, retract_paired, retraction_topic, withdraw
from core.extraction.rules.judge_supersede import CROSS_P, STATES, SUPERSEDE_P, SURE_P, supersede_paired
from core.extraction.slot_reading import SLOT_READING_ON, SlotReading, shipped_slot_reading
from core.extraction.update_intent import TIME_WORD_INTENT_P, TIME_WORD_VETO_ON, UPDATE_INTENT_P
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType

# session 27 (upd46): a cue sentence whose one new-value clause the topic keys file under a paired memory's
# own taste slot replaces that memory when the pair model reads it under its bars (``UpdateJudge._same_slot``)
SLOT_SUPERSEDE_ON = True
SLOT_TYPES = (MemoryType.PREFERENCE,)
# session 28 (upd47): a sentence without a change word that the classifier types as a live rule's type and the
# topic keys file under that rule's own topic (a new value for a held slot: "中文回复吧" beside "reply in
# English please") is judged too; the pair model decides (``UpdateJudge.slot_restated``). Rules only: a taste
# or fact told that way is as often a detail of it (read refine, dev zh-pref-002), measured in RESULTS.md
SLOT_GATE_ON = True
SLOT_GATE_TYPES: tuple[MemoryType, ...] = (MemoryType.CONSTRAINT,)
# session 30 (upd49): a sentence telling a change (a strong change cue, the update-intent model's change,
# or the pair model's supersede at ``SUPERSEDE_P`` of the memory) that nothing replaced gives its new value
# to a paired fact or taste memory the slot reading (``core.extraction.slot_reading``) reads as the
# sentence's own slot, as a sure supersede (``UpdateJudge._slot_rank``); never a sentence about someone
# else (``_OTHER_SUBJECT``)
_OTHER_SUBJECT = re.compile(
    r"^\W*(?:my|our|his|her|their)\s+(?:\w+\s+)?(?:wife|husband|partner|son|daughter|kids?|child(?:ren)?|mom|mum|"
    r"dad|mother|father|parents|brother|sister|boyfriend|girlfriend|bf|gf|friend|buddy|roommate|coworker|"
    r"colleague|boss|neighbou?r|cousin|aunt|uncle|grandma|grandpa)\b|"
    r"^\W*(?:我|我们)?(?:的)?(?:老公|老婆|丈夫|妻子|媳妇|儿子|女儿|孩子|爸|妈|父母|哥|姐|弟|妹|表|堂|男朋友|女朋友|"
    r"对象|室友|朋友|闺蜜|同事|老板|邻居)", re.IGNORECASE)


class UpdateJudge:
    """Applies the pair model to one message's candidates against the user's live memories."""

    def __init__(self, classifier: MemoryClassifier, model: PairModel,
                 intent: RetractionIntent | None = None, withdrawal: RetractionIntent | None = None,
                 target: RetractionTarget | None = None, standing: RetractionIntent | None = None) -> None:
        """``intent``: the update-intent model (``core.extraction.update_intent``); with it a sentence
        without a change word that it reads as a change (p >= ``UPDATE_INTENT_P``) is judged too, as if
        it carried a strong change cue, for the most similar memory only, never a list or an addition.
        ``withdrawal``: the retraction-intent model (``core.extraction.retraction_intent``); a sentence it
        reads as a withdrawal (p >= its ``INTENT_P``) is never gated ("leave the X out of your notes").
        ``target``: the retraction-target model (``core.extraction.retraction_target``); a retraction that
        names its own thing by no word of a memory withdraws it only when the model does not read it under
        its ``veto`` bar. ``standing``: the standing-instruction model; a sentence whose forget cue word is
        part of a rule (``analysis.cued_rule_texts`` read at ``CUED_RULE`` or more) withdraws nothing."""
        self.classifier = classifier
        self.standing = standing
        self.model = model
        self.intent = intent
        self.withdrawal = withdrawal
        self.target = target
        self._keys: TopicKeys | None = None
        self._slots: SlotReading | None = shipped_slot_reading() if SLOT_READING_ON else None

    def _cued_rule(self, sentence: str) -> bool:
        """The sentence's forget cue word is part of a rule (``analysis.cued_rule`` on ``cued_rule_texts``;
        ``CUED_RULE_ON``), as the rules and the retraction resolver read it."""
        texts = cued_rule_texts(sentence) if self.standing is not None and CUED_RULE_ON else []
        if not texts:
            return False
        assert self.standing is not None
        vectors = self.classifier.embed(texts)
        withdrawal = 0.0 if self.withdrawal is None else float(self.withdrawal.predict_proba(vectors[:1])[0])
        return cued_rule(self.standing.predict_proba(vectors).tolist(), withdrawal)

    def _same_slot(self, sentence: str, pairing: Pairing, live: list[ExistingMemory]) -> int | None:
        """The rank of the paired memory whose key is the topic slot (``gate_keys.TopicKeys``, of the
        memory's own type) of the clause of ``sentence`` that tells the new value (an update cue, no
        retraction or end word: ``tells_new_value``), when there is one such clause and the slot is a named
        taste topic (``SLOT_TYPES``), not a catch-all; else None."""
        told = [c.strip() for c in CLAUSE.findall(sentence) if c.strip() and tells_new_value(c)]
        if len(told) != 1 or ADDITIVE.search(sentence):
            return None
        if self._keys is None:
            self._keys = TopicKeys(self.classifier)
        vector = self.classifier.embed(told)[0]
        for rank, j in enumerate(pairing.order):
            memory = live[j]
            memory_type = type_of(memory)
            if memory_type not in SLOT_TYPES or catch_all(memory.key) or memory.key.count("-") != 1:
                continue
            if self._keys.key(memory_type, told[0], vector) == memory.key:
                return rank
        return None

    def _slot_rank(self, sentence: str, pairing: Pairing, live: list[ExistingMemory]) -> int | None:
        """The rank of the first paired fact or taste memory whose slot the slot reading reads as the
        sentence's own (``slot_reading.SlotReading.read``: both read, the same slot); None without the
        reading, for a sentence about someone else (``_OTHER_SUBJECT``), one the horizon model reads as of
        this day, week or trip (at its ``HORIZON_DROP``), or when none is."""
        if self._slots is None or _OTHER_SUBJECT.search(sentence):
            return None
        horizon = shipped_horizon()
        if horizon is not None and float(horizon.predict_proba(self.classifier.embed([sentence]))[0]) \
                >= HORIZON_DROP:
            return None  # of this day, week or trip: "had a latte today bc the tea machine at work was
            # broken" beside "im a tea person" (both read diet; horizon 0.68)
        ranks = [r for r, j in enumerate(pairing.order) if type_of(live[j]) in STATES]
        if not ranks:
            return None
        vectors = self.classifier.embed([sentence, *(live[pairing.order[r]].content for r in ranks)])
        slots = self._slots.read(vectors)
        if slots[0] is None:
            return None
        return next((r for r, slot in zip(ranks, slots[1:], strict=True) if slot == slots[0]), None)

    def gated(self, message: str, live: Sequence[ExistingMemory] = ()) -> frozenset[str]:
        """The message's sentences without a change word that the update-intent model reads as a change
        (no question, no addition: "also into X", "我也在学Y"); with ``live``, also those that restate a live
        rule's value (``rule_values``: its value and another of the same kind) and the classifier types a
        rule (``RULE_VALUE_GATE_ON``), and those that tell a value of a live rule's own slot
        (``slot_restated``, ``SLOT_GATE_ON``)."""
        read, slotted = self._gates(message, live)
        return read | frozenset(slotted)

    def _gates(self, message: str, live: Sequence[ExistingMemory] = ()
               ) -> tuple[frozenset[str], dict[str, frozenset[str]]]:
        """``gated`` in two parts: the sentences gated by the update-intent model or a restated rule value,
        and those gated on the slot reading alone, each with the keys of the live memories whose slot it
        tells (such a sentence may replace one of those only: ``apply``)."""
        if self.intent is None or retracts(message):
            return frozenset(), {}  # a message withdrawing something: its other sentences tell no new value
        plain = [t for t in sentences(message) if len(t) >= 3 and not has_cue(t)
                 and not ADDITIVE.search(t) and not QUESTION.search(t)]
        if not plain:
            return frozenset(), {}
        out = {t for t, change in zip(plain, self.reads_change(self.classifier.embed(plain)), strict=True)
               if change}
        restated = rule_values.restated_rules([t for t in plain if t not in out], live) \
            if rule_values.RULE_VALUE_GATE_ON else []
        if restated:
            out.update(t for t, p in zip(restated, self.classifier.predict(restated), strict=True)
                       if p.memory_type is MemoryType.CONSTRAINT)
        slotted = self.slot_restated([t for t in plain if t not in out], live) if SLOT_GATE_ON and live \
            else {}
        return frozenset(out), slotted

    def slot_restated(self, texts: list[str], live: Sequence[ExistingMemory]) -> dict[str, frozenset[str]]:
        """Of ``texts`` (sentences without a change word), those that tell a value of a live memory's own
        slot: the memory classifier types the sentence as the memory's type (``SLOT_GATE_TYPES``), and the
        topic keys (``gate_keys.TopicKeys``: the rules' topic words, else the nearest topic by e5) file the
        sentence and the memory under the same named topic (no catch-all). Never a request about this time
        only ("just give me a paragraph for this one": ``rule_values.this_time``). The pair model then reads
        it as any judged sentence."""
        texts = [t for t in texts if not rule_values.this_time(t)]
        held = [m for m in live if type_of(m) in SLOT_GATE_TYPES and not catch_all(m.key)]
        if not texts or not held:
            return {}
        if self._keys is None:
            self._keys = TopicKeys(self.classifier)
        vectors = self.classifier.embed([*texts, *(m.content for m in held)])
        readings = self.classifier.predict_vectors(vectors[:len(texts)], texts=texts)
        topics = [self._keys.key(type_of(m), m.content, v) for m, v in zip(held, vectors[len(texts):],
                                                                          strict=True)]
        out: dict[str, frozenset[str]] = {}
        for text, vector, seen in zip(texts, vectors[:len(texts)], readings, strict=True):
            slots = frozenset(memory.key for memory, topic in zip(held, topics, strict=True)
                              if seen.memory_type is type_of(memory) and not catch_all(topic)
                              and self._keys.key(type_of(memory), text, vector) == topic)
            if slots:
                out[text] = slots
        return out

    def reads_change(self, vectors: np.ndarray) -> list[bool]:
        """Per sentence (its ``passage:`` vector), whether the update-intent model reads it as a change of a
        state the user told (p >= ``UPDATE_INTENT_P``) and the retraction-intent model reads no withdrawal
        (p < its ``INTENT_P``: "leave X out of it" is no new value). For a sentence without a change word
        that gates it (``gated``); for one with a change word, the model's word stands where the words'
        checks find no new value (``judge_pairs.reading``, ``judge_supersede.supersede_paired``). All False
        without the model."""
        if self.intent is None or not len(vectors):
            return [False] * len(vectors)
        p = self.intent.predict_proba(vectors)
        w = self.withdrawal.predict_proba(vectors) if self.withdrawal is not None else np.zeros(len(vectors))
        return [bool(q >= UPDATE_INTENT_P and r < WITHDRAWAL_P) for q, r in zip(p, w, strict=True)]

    def reads_a_change(self, message: str) -> bool:
        """Whether a cue sentence of ``message`` tells a change of a state the user told: a strong change
        cue (``STRONG_CUE``: "switched to", "no longer", "转岗", "早就不去了"), or the update-intent model
        reads it as a change (``reads_change``; a sentence without a change word: ``gated``). The message
        may then give an earlier statement nothing stored holds its new value (``judge_shadows``); a time
        word alone ("today", "now", "最近": the day's news, a mood of these days) is no change. False
        without the model and for a message withdrawing something."""
        if self.intent is None or retracts(message):
            return False
        said = [s for s, _ in cue_statements(message)]
        if any(STRONG_CUE.search(s) for s in said):
            return True
        if said and any(self.reads_change(self.classifier.embed(said))):
            return True
        return bool(self.gated(message))

    def tells_change(self, vectors: np.ndarray) -> list[bool]:
        """Per sentence (its ``passage:`` vector), whether the update-intent model reads it as a change of a
        state the user told (p >= ``UPDATE_INTENT_P``), whatever the retraction-intent model reads ("ok
        switch that to X, the Y trip got cancelled" withdraws and changes at once). All False without the
        model: then only the words (``judge_supersede.own_strong_change``) speak for a sentence the gate
        read as no memory."""
        if self.intent is None or not len(vectors):
            return [False] * len(vectors)
        return [bool(q >= UPDATE_INTENT_P) for q in self.intent.predict_proba(vectors)]

    def dated_only(self, said: list[str], vectors: np.ndarray) -> list[bool]:
        """Per sentence, whether its every update cue is a time word (``pairs.time_word_only``) and the
        update-intent model reads no change in it (p < ``TIME_WORD_INTENT_P``): "最近我在看一些电影" dates
        news, it replaces no memory. All False without the model or with ``TIME_WORD_VETO_ON`` off."""
        if self.intent is None or not TIME_WORD_VETO_ON or not len(vectors):
            return [False] * len(said)
        p = self.intent.predict_proba(vectors)
        return [bool(time_word_only(s) and q < TIME_WORD_INTENT_P) for s, q in zip(said, p, strict=True)]

    def apply(self, message: str, existing: tuple[ExistingMemory, ...],
              candidates: list[MemoryCandidate], previous: str | None = None,
              unkept: frozenset[str] = frozenset()) -> list[MemoryCandidate]:
        """``candidates`` with the pair model's retractions and supersessions; ``previous``: the user's
        previous turn, the referent of a bare "forget that" / "当我没说"; ``unkept``: the texts of the message
        the classifier gate read as no memory (``gate.GateReading.unkept``): such a text becomes a memory's
        new value only when the update-intent model reads its sentence as a change (``tells_change``) or it
        tells a strong change of the memory's own value (``judge_supersede.read_as_none``,
        ``own_strong_change``)."""
        live = [m for m in existing if m.content.strip()][-MAX_EXISTING:]
        read, slotted = self._gates(message, live) if live else (frozenset(), {})
        # a sentence gated on the slot reading alone replaces only a memory of the slot it tells ("感谢你的
        # 建议" typed a rule beside a rule of advice, paired nearest a taste that thanks too: refine 0.96)
        gated = read | frozenset(slotted)
        statements = cue_statements(message, gated) if live else []
        if not statements:
            return candidates
        said = [s for s, _ in statements]
        # "forget that" reaches back to the previous turn only when the rules found nothing this message
        # withdraws ("I don't watch horror movies anymore, forget that" names its own thing)
        rules_deleted = any(c.op is CandidateOp.DELETE for c in candidates)
        befores = cue_context(message, gated)
        # ... and never past a statement of this message before it ("ugh I forgot my keys at the office.
        # forget it, it's fine": the keys, not the city told the turn before)
        pointing = [is_anaphoric(s) and not own_referent(b) for s, b in zip(said, befores, strict=False)]
        anaphoric = previous is not None and not rules_deleted and any(pointing)
        topics = [retraction_topic(s) for s in said]
        emb = embed_message(self.classifier, said, topics, live, previous if anaphoric else None)
        # a message withdrawing something tells no new value on the model's word (as ``gated``)
        reads_change = [False] * len(said) if retracts(message) else self.reads_change(emb.sentences)
        # what the gate read as no memory counts for a sentence the update-intent model reads no change in
        # (a mood, thanks, the day's news); one it reads as a change is judged as before ("movers came
        # friday, we're officially X people now": chat words the gate drops)
        told = self.tells_change(emb.sentences) if unkept else [False] * len(said)
        dated = self.dated_only(said, emb.sentences)
        ledger = Ledger.of(candidates)
        for i, (sentence, tail) in enumerate(statements):
            pairing = pair(self.model, emb, i, sentence, topics[i], live, previous, anaphoric and pointing[i],
                           ledger.done, self.classifier.embed)
            if pairing is None:
                continue
            topic, s_vec, t_vec = topics[i], emb.sentences[i], emb.topics[i]
            if retracts(sentence) and not tells_new_value(sentence):
                if self._cued_rule(sentence):
                    continue  # "给我推荐菜的时候把辣的都去掉": a rule about what to leave out, no withdrawal
                withdraw(self.classifier, self.model, ledger, live, pairing, sentence, topic, s_vec, t_vec,
                         self.target)
                continue
            intent = not has_cue(sentence)  # judged on the update-intent model's word alone
            best, relation, p = reading(pairing.probs, sentence, intent, reads_change[i])
            memory = live[pairing.order[best]]
            slots = next((k for t, k in slotted.items() if sentence.startswith(t)), None)
            if slots is not None and memory.key not in slots:
                continue  # gated on the slot reading alone: only that slot's memory may take its value
            if intent and memory.memory_type == MemoryType.GOAL.value:
                continue  # a goal changes with a word of change; without one, news of it is progress
            if relation == "retract" and p >= RETRACT_P and retracts(sentence):
                retract_paired(self.classifier, self.model, ledger, memory, sentence, s_vec, t_vec, p)
            else:
                rank = self._same_slot(sentence, pairing, live) if SLOT_SUPERSEDE_ON and not intent \
                    and not dated[i] and not retracts(sentence) \
                    and not (relation == "supersede" and p >= SUPERSEDE_P) else None
                if rank is not None:  # the new value's slot is the memory's own: the pair model's
                    # reading under its bars ("跑步太伤膝盖了，现在改骑动感单车" / "我每天早上跑五公里":
                    # supersede 0.60; across scripts, "badminton 先停了，现在改去游泳" / "我每周打三次
                    # 羽毛球": unrelated 0.90) is read as a sure change of that slot
                    supersede_paired(self.classifier, ledger, live, pairing, rank, CROSS_P, sentence, tail,
                                     befores[i], intent, reads_change[i], frozenset() if told[i] else unkept)
                elif relation == "supersede" and not dated[i]:
                    supersede_paired(self.classifier, ledger, live, pairing, best, p, sentence, tail,
                                     befores[i], intent, reads_change[i], frozenset() if told[i] else unkept)
                change = intent or reads_change[i] or bool(STRONG_CUE.search(sentence)) or (
                    relation == "supersede" and p >= SUPERSEDE_P)
                if SLOT_READING_ON and change and not dated[i] and not retracts(sentence) \
                        and not any(live[j].key in ledger.done for j in pairing.order):
                    slot_rank = self._slot_rank(sentence, pairing, live)
                    unrelated = RELATIONS.index("unrelated")
                    if slot_rank is not None and float(pairing.probs[slot_rank, unrelated]) >= CROSS_P:
                        slot_rank = None  # the pair model sure they are unrelated: "shellfish allergy
                        # unfortunately" beside "mostly Thai, especially curries" (both read diet): 0.91
                    if slot_rank is not None:  # a change nothing replaced, of a paired memory's own slot:
                        # "现在天天在幼儿园带一群小朋友，上个月入的职" keyed fact-family beside a job (0.81);
                        # "boxes finally unpacked in our portland apartment" beside a home (unrelated 0.69)
                        supersede_paired(self.classifier, ledger, live, pairing, slot_rank, SURE_P, sentence,
                                         tail, befores[i], intent, reads_change[i],
                                         frozenset() if told[i] else unkept, slot_same=True)
        return ledger.out
