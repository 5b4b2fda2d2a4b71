"""The classifier's part in the rules extractor: rules propose, the classifier gates and types.

Rules stay in charge of what rules do well: clause segmentation, the hard filters (time windows,
questions, requests, profile fields, AI names, hypotheticals, tests, task payloads: a sentence
with any such clause is never rescued), slots and their keys, content cleaning, updates and
retractions. The classifier (``core.extraction.classifier``) then, for one burst, in one
embedding batch:

1. *gates*: a rule candidate the classifier calls ``drop`` with probability >= the gate
   threshold is removed (support talk with "always", pleasantries, settings, snapshots);
   catalogue slots (``fact-job``, ``constraint-language``...) need a higher probability;
2. *types*: a rule candidate under a per-statement fallback key (no catalogue slot) whose type
   the classifier contradicts with high probability (or finds implausible) is re-keyed under the
   classifier's type;
3. *third parties*: a preference or goal clause with no first person that follows a family or
   relationship fact in the same sentence ("我儿子今年五岁，特别喜欢恐龙") is that person's, so it
   joins the relationship fact instead of becoming the user's preference;
4. *rescues*: a sentence in which no rule fired and nothing was hard-dropped becomes a candidate
   when the classifier keeps it with high probability ("I train racehorses", "I like to cross
   stitch"), under a readable key: the rules' topic words when they match, else the nearest
   topic of its type by embedding (``preference-crafts``, ``fact-job``), never a hash. A sentence
   whose subject is a relative or partner, or a friend or colleague, is filed as a fact about the
   user's relationships (``fact-family``, ``fact-friends``: "my roommate is a night owl"), never as
   the user's preference; one about someone unnamed ("he loves sushi") is not rescued. A list of up
   to 7 clauses is read clause by clause, a clause that elides its subject with the user as subject
   ("41, divorced, into model trains" -> "i'm into model trains"); a condition ("when you …", "…的时候")
   is read with the instruction after it, and a run the classifier keeps whole as a rule stays whole.
   A list-style self-introduction (``list_items``: the list-item head of ``core.extraction.list_items``) has
   each item read alone, by the list fragment model instead of the classifier and the precision model.

With the precision model (``core/extraction/data/memory_mlp_precision.npz``, the extractor's default; the
same MLP shape trained on the corpus plus the companion-chat template sets), a second opinion on keep/drop:
where it says drop more surely than the classifier, its p(drop) replaces the classifier's for the gate of
a rule candidate (from ``PRECISION_DROP``; never a standing rule, a single identity slot or a life event) and
for a rescue of a taste, goal or project (always; from ``PRECISION_DROP`` for one that tells a taste or a
habit, and for a rescued fact or rule; a model that reads the turn counts from ``CONTEXT_FLOOR`` at least,
except for a rescued taste, goal or project whose topic no words name: from 0.0; ``gate_opinion``); the type
stays the classifier's, and a rule group it drops still gives up its continuation clauses that are memories of
their own (``gate_splits``). Splits, the update judge and retractions read the classifier alone; the judge is
told which texts the gate read as no memory (``GateReading.unkept``, ``ClassifierGate.read``).

With the standing-instruction model (``core.extraction.standing_instruction``), a rescue unit the
classifier types as a rule that the model calls a standing rule (``STANDING_RESCUE``) needs no p(keep) of
its own (``gate_standing``): a rule said with a question tag or in chat words, which the classifier keeps
too rarely. With the lasting-statement head (``core.extraction.lasting``; off in the product, a measured
arm), a unit of the user's own the classifier keeps under the rescue bar, from ``LASTING_FLOOR``, as a
fact or a taste, that the head reads as lasting needs only the p(keep) it has (``gate_lasting``; issue 24,
session 22). With ``AGREE_ON`` (off, session 23's measured arm), such a unit typed as a fact that the
precision model keeps at ``AGREE_KEEP`` or more needs only the p(keep) it has too (``agreed_units``).

The classifier reads each text alone first; with a context model (the ablation arm
``memory_mlp_context.npz``; the shipped MLP reads the text alone), a text whose p(drop) falls within
``CONTEXT_BAND`` (``gate_opinion``) is read again with the previous turn (the assistant's question or
the user's earlier message, embedded once per burst and only then), so an answer such as "yes, every
weekend" is judged with the question it answers.

The stages, each its own module with its thresholds: ``gate_opinion`` (the readings: again with the turn
before, the precision model's second opinion), ``gate_verdicts`` (keep, drop or re-type a rule candidate),
``gate_heads`` (a group dropped whole read again by its first clause), ``gate_splits`` (continuation clauses
that leave their group), ``gate_standing`` (the standing-instruction model's say on a rescue),
``gate_rescue`` (the units a rescue tries and the rescued candidates), ``gate_keys`` (the key of a rescued or
re-typed memory), over the units of ``gate_units``. ``ClassifierGate.apply`` runs them over one burst in this
order: fold third parties; read every text in one embedding batch (the classifier, again with the turn before,
then the precision model); let the standing model lower a rescue unit's bar; gate each rule candidate; re-read
heads; split; rescue.

Deterministic: same input, same output. Thresholds are constants of the stage module that reads them,
checked against the corpus's held-out split and the dev cases (no change there); the rescue threshold's
tiebreak between 0.85 and 0.90 was a 400-turn LoCoMo sample (``bench/RESULTS.md`` section 5).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from core.extraction.candidates import CandidateOp, MemoryCandidate
from core.extraction.classifier import MemoryClassifier, MLPModel, Prediction, turn_tail
from core.extraction.lasting import Lasting
from core.extraction.list_items import ListReader
from core.extraction.rules.analysis import Analysis, message_clauses
from core.extraction.rules.gate_heads import reread_heads
from core.extraction.rules.gate_keys import TopicKeys
from core.extraction.rules.gate_lasting import AGREE_ON, agreed_units, lasting_units
from core.extraction.rules.gate_opinion import (
    guessed_topics,
    needs_turn,
    read_in_context,
    rescue_floors,
    second_opinion,
    vetoable,
)
from core.extraction.rules.gate_rescue import add_rescues, dated_changes, own_subjects, rescue_units, tasted
from core.extraction.rules.gate_splits import apply_splits
from core.extraction.rules.gate_standing import standing_rules
from core.extraction.rules.gate_units import (
    FIRST_PERSON_WORD,
    NEVER,
    fold_third_party,
    item_candidates,
    list_message,
    said_texts,
    split_points,
)
from core.extraction.rules.gate_verdicts import gate_upserts
from core.extraction.rules.holders import without_relatives_tastes
from core.extraction.rules.referent import leans
from core.extraction.rules.refine import CandidateMeta, contained
from core.extraction.rules.segment import clean_content, has_cjk
from core.extraction.standing_instruction import StandingInstruction
from core.types import MemoryType


def listed_candidates(analysis: Analysis, upserts: list[MemoryCandidate], items: frozenset[int]) -> list[int]:
    """The positions in ``upserts`` of the rule candidates whose group is one clause, an item of the list
    (``ClassifierGate.list_items``)."""
    if not items:
        return []
    out: list[int] = []
    for i, cand in enumerate(upserts):
        groups = [g for g in analysis.groups if g.key == cand.key]
        if len(groups) == 1 and len(groups[0].clauses) == 1 and groups[0].clauses[0].index in items:
            out.append(i)
    return out


def unkept(texts: list[str], out: list[MemoryCandidate]) -> frozenset[str]:
    """Of ``texts`` (read as no memory), those that no kept upsert of ``out`` holds and that hold no kept
    upsert (a clause of a run kept whole, or a run one clause of which was kept, is not left out)."""
    kept = [c.content for c in out if c.op is CandidateOp.UPSERT]
    return frozenset(t for t in texts if t.strip() and not any(
        contained(t, k) or contained(k, t) for k in kept))


@dataclass(frozen=True)
class GateReading:
    """What ``ClassifierGate.read`` returns: the ``candidates`` and their refine ``meta``, and ``unkept``:
    the texts of the message (a rule candidate's content, a rescue unit) that the gate read as no memory on
    the precision model's word (its p(drop) replaced the classifier's) and that no kept candidate holds. The
    update judge reads them (``UpdateJudge.apply``): such a text is no memory's new value unless the
    update-intent model reads a change or it tells a change of the memory's own value."""

    candidates: list[MemoryCandidate]
    meta: dict[str, CandidateMeta]
    unkept: frozenset[str] = frozenset()


class ClassifierGate:
    """Applies one ``MemoryClassifier`` to the rules' candidates of a burst (see module doc)."""

    def __init__(self, classifier: MemoryClassifier, precision: MLPModel | None = None,
                 standing: StandingInstruction | None = None, lists: ListReader | None = None,
                 lasting: Lasting | None = None) -> None:
        self.classifier = classifier
        self.lasting = lasting
        self.precision = precision
        self.standing = standing
        self.lists = lists
        self.keys = TopicKeys(classifier)

    def list_items(self, analysis: Analysis) -> frozenset[int]:
        """The clauses (by index) the list-item head calls items when the message is a list
        (``gate_units.list_message``); empty otherwise, and without a list reader. Only the short clauses of
        a message that may be a list are embedded (``gate_units.item_candidates``)."""
        if self.lists is None:
            return frozenset()
        clauses = message_clauses(analysis)
        short = item_candidates(clauses)
        if not short:
            return frozenset()
        texts = [clean_content(clauses[i].text) for i in short]
        flags = self.lists.head.is_item(self.classifier.embed(texts))
        if not list_message(clauses, sum(flags)):
            return frozenset()
        items = {clauses[i].index for i, flag in zip(short, flags, strict=True) if flag}
        # a clause in the first person that the classifier reads as a taste ("I enjoy knitting, sewing,
        # baking bread, …", "我喜欢唱歌，健身，…"): the short clauses after it in its sentence are its objects
        leads = [c for c in clauses if c.index not in items and FIRST_PERSON_WORD.search(c.norm)]
        if leads:
            readings = self.classifier.predict_vectors(self.classifier.embed([clean_content(c.text)
                                                                              for c in leads]))
            for lead, pred in zip(leads, readings, strict=True):
                if pred.memory_type is MemoryType.PREFERENCE and pred.p_keep >= 0.5:
                    items -= {c.index for c in clauses
                              if c.sentence == lead.sentence and c.index > lead.index}
            if not list_message(clauses, len(items)):
                return frozenset()
        return frozenset(items)

    def apply(self, analysis: Analysis, candidates: list[MemoryCandidate],
              meta: dict[str, CandidateMeta], prev: str | None = None,
              filled: frozenset[str] = frozenset(), asked_about: str | None = None,
              ) -> tuple[list[MemoryCandidate], dict[str, CandidateMeta]]:
        """Gated, re-typed and rescued candidates (deletes pass untouched) and their refine metadata
        (``read`` without what it left out)."""
        reading = self.read(analysis, candidates, meta, prev, filled, asked_about)
        return reading.candidates, reading.meta

    def _p_preference(self, texts: list[str]) -> list[float]:
        """P(preference | kept) of each text by the memory classifier (``holders``: a statement read in the
        first person; which type it would be, whether or not it is worth a memory)."""
        return [p.p_type(MemoryType.PREFERENCE) for p in self.classifier.predict(texts)]

    def read(self, analysis: Analysis, candidates: list[MemoryCandidate],
             meta: dict[str, CandidateMeta], prev: str | None = None,
             filled: frozenset[str] = frozenset(), asked_about: str | None = None) -> GateReading:
        """Gated, re-typed and rescued candidates (deletes pass untouched), their refine metadata, and the
        texts the gate read as no memory (``GateReading.unkept``).
        ``prev``: the turn before the message (context for a context model; embedded only when it can change
        the precision model's reading, ``gate_opinion.needs_turn``);
        ``filled``: the keys of the user's live memories (a rescue never takes over a single slot among
        them unless it says a change, "now", "no longer"...: ``gate_rescue.rescue``; "I used to bird watch"
        is no change of job);
        ``asked_about``: the thing the user's previous turn asked the assistant about
        (``referent.asked_thing``): a rescue unit that leans on a thing named outside it ("obsessed w it
        honestly, i eat it like twice a week" after "have u ever had injera?") is read with that thing
        before it, as it will be stored (``precision.with_referents``); what a rescue stores is still the
        unit's own words."""
        candidates = fold_third_party(analysis, candidates)
        upserts = [c for c in candidates if c.op is CandidateOp.UPSERT]
        items = self.list_items(analysis)
        units = rescue_units(analysis, items)
        units = own_subjects(units, self.classifier.embed)
        if asked_about:
            sep = "，" if has_cjk(asked_about) else ". "
            units = [replace(u, read=f"{asked_about}{sep}{u.model_text}")
                     if not u.item and leans(u.text) else u for u in units]
        splits = split_points(analysis, upserts)
        said = said_texts(analysis)  # a templated content ("Lives in Rotterdam") is read as the user said it
        texts = [said.get(c.content, c.content) for c in upserts] + [u.model_text for u in units] + \
            [sp.text for sp in splits]
        if not texts:
            return GateReading(candidates, meta)
        vectors = self.classifier.embed(texts)
        first_reading = self.classifier.predict_vectors(vectors, texts=texts)
        predictions = read_in_context(self.classifier, vectors, first_reading, prev)
        n_units = len(upserts) + len(units)
        rest = slice(len(upserts), n_units)
        floors = rescue_floors(units, predictions[rest])
        # the turn before, for a precision model that reads it, embedded only when it can change the reading
        # of a text the precision model has a say on (a vetoable rule candidate, a rescue it may drop)
        turn = turn_tail(prev) if self.precision is not None and self.precision.context else ""
        asked = [i for i, cand in enumerate(upserts) if vetoable(cand)] + \
            [len(upserts) + i for i, floor in enumerate(floors) if floor < NEVER]
        turn_vector = self.classifier.embed([turn]) if turn and needs_turn(self.precision, vectors[asked]) \
            else None
        alone = predictions[:len(upserts)]
        classifier_units = predictions[rest]
        opinion = second_opinion(self.precision, vectors[:len(upserts)], alone, turn=turn_vector)
        predictions[:len(upserts)] = [second if vetoable(cand) else first
                                      for cand, first, second in zip(upserts, alone, opinion, strict=True)]
        predictions[rest] = second_opinion(self.precision, vectors[rest], predictions[rest], floors,
                                           turn_vector, guessed_topics(units, predictions[rest]))
        # where the precision model had its say (its p(drop) replaced the classifier's), per text
        opined = [p is not a for p, a in zip(predictions[:len(upserts)], alone, strict=True)] + \
            [p is not a for p, a in zip(predictions[rest], classifier_units, strict=True)]
        listed = listed_candidates(analysis, upserts, items)
        if self.lists is not None and listed:
            # a rule candidate that is one item of a list ("gluten-free (coeliac)" among a job, a city and the
            # pets) is read like the list's other items: by the list fragment model alone
            rows = self.lists.fragment.predict_proba(vectors[listed])
            for i, row in zip(listed, rows, strict=True):
                predictions[i] = Prediction(tuple(round(float(p), 6) for p in row))
                opined[i] = False
        if self.lists is not None and any(u.item for u in units):
            # an item of a list is read by the list fragment model alone (``core.extraction.list_items``)
            at = [j for j, u in enumerate(units) if u.item]
            rows = self.lists.fragment.predict_proba(vectors[rest][at])
            for j, row in zip(at, rows, strict=True):
                predictions[len(upserts) + j] = Prediction(tuple(round(float(p), 6) for p in row))
                opined[len(upserts) + j] = False
        units = standing_rules(self.standing, units, predictions[rest], vectors[rest])
        units = lasting_units(self.lasting, units, predictions[rest], vectors[rest])
        units = dated_changes(units, vectors[rest])
        units = agreed_units(self.precision if AGREE_ON else None, units, predictions[rest], vectors[rest])
        gated, vetoed = gate_upserts(upserts, predictions[:len(upserts)], alone, vectors, self.keys, filled)
        reread_heads(self.classifier, self.precision, self.keys, analysis, upserts, gated, filled,
                     turn_vector)
        out: list[MemoryCandidate] = []
        new_meta = dict(meta)
        ghosts: set[str] = set()
        for cand in candidates:
            if cand.op is not CandidateOp.UPSERT:
                out.append(cand)
                continue
            kept = gated[id(cand)]
            if kept is None and id(cand) in vetoed:
                # a vetoed group still gives up its continuation clauses that are memories of their own
                # (``gate_splits``: "I went to see X's concert, it was stunning. I'd also like to attend
                # concerts by Y"), then goes
                kept = vetoed[id(cand)]
                ghosts.add(kept.key)
            if kept is None:
                continue
            if kept.key != cand.key:
                new_meta[kept.key] = meta.get(cand.key, CandidateMeta())
            out.append(kept)
        for i in listed:  # held as a list item: the horizon model leaves it to the fragment model's reading
            key = upserts[i].key
            if key in new_meta or any(c.key == key for c in out):
                new_meta[key] = replace(new_meta.get(key, CandidateMeta()), listed=True)
        out = apply_splits(out, splits, predictions[n_units:], vectors[n_units:], new_meta, analysis,
                           self.keys, filled)
        if ghosts:
            out = [c for c in out if c.op is not CandidateOp.UPSERT or c.key not in ghosts]
        predictions[rest] = tasted(units, predictions[rest], vectors[rest])
        add_rescues(out, new_meta, units, predictions[rest], vectors[rest], analysis, self.keys, filled)
        out.sort(key=lambda c: (c.op is not CandidateOp.DELETE, -c.importance))
        # a relationship fact that tells a relative's or friend's taste: the taste is theirs (``holders``)
        out = without_relatives_tastes(out, self._p_preference, analysis.message)
        # what the precision model dropped: the reading of thanks, moods and the day's news that the memory
        # classifier alone (which the judge reads) does not have. A text the classifier alone drops is not
        # counted: a new value told in chat words often is one (counted too, a pooled check case was lost)
        read_as_none = [c.content for i, c in enumerate(upserts) if gated[id(c)] is None and opined[i]]
        read_as_none += [u.text for j, u in enumerate(units) if opined[len(upserts) + j]]
        return GateReading(out, new_meta, unkept(read_as_none, out))
