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

With the precision model (``core/extraction/data/memory_mlp_precision.npz``, the extractor's default; the
same MLP shape trained on the corpus plus the companion-chat template sets), a second opinion on keep/drop:
where it says drop more surely than the classifier, its p(drop) replaces the classifier's for the gate of
a rule candidate (from ``PRECISION_DROP``; never a standing rule, a single identity slot or a life event) and
for a rescue of a taste, goal or project (always; from ``PRECISION_DROP`` for one that tells a taste or a
habit, and for a rescued fact or rule); the type stays the
classifier's, and a rule group it drops still gives up its continuation clauses that are memories of their own
(``_apply_splits``). Splits, the update judge and retractions read the classifier alone.

With the standing-instruction model (``core.extraction.standing_instruction``), a rescue unit the
classifier types as a rule that the model calls a standing rule (``STANDING_RESCUE``) needs no p(keep) of
its own (``_standing_rules``): a rule said with a question tag or in chat words, which the classifier keeps
too rarely.

The classifier reads each text alone first; with a context model (the ablation arm
``memory_mlp_context.npz``; the shipped MLP reads the text alone), a text whose
p(drop) falls within ``CONTEXT_BAND`` is read again with the previous turn (the assistant's question or
the user's earlier message, embedded once per burst and only then), so an answer such as "yes, every
weekend" is judged with the question it answers.

Deterministic: same input, same output. Thresholds are module constants, checked against the
corpus's held-out split and the dev cases (no change there); the rescue threshold's tiebreak
between 0.85 and 0.90 was a 400-turn LoCoMo sample (``bench/RESULTS.md`` section 5).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

import numpy as np
import numpy.typing as npt

from core.extraction.candidates import CandidateOp, MemoryCandidate
from core.extraction.classifier import PREV_MAX_CHARS, MemoryClassifier, MLPModel, Prediction
from core.extraction.rules import lexicon, patterns
from core.extraction.rules.analysis import MAX_CLAUSES, MAX_MESSAGE_CHARS, Analysis
from core.extraction.rules.events import is_event_key
from core.extraction.rules.gate_units import (
    CONSEQUENCE,
    FIRST_PERSON_WORD,
    OWN_SUBJECT,
    RESCUE_KEEP,
    THIRD_PRONOUN,
    Split,
    Unit,
    chosen_units,
    fold_third_party,
    long_enough,
    owner_of,
    partition_long_runs,
    relationship_fact,
    said_texts,
    split_points,
    with_user_subject,
)
from core.extraction.rules.refine import CandidateMeta
from core.extraction.rules.rescue_topics import TOPICS
from core.extraction.rules.segment import (
    Clause,
    clean_content,
    has_cjk,
    join_clauses,
    normalise,
    split_clauses,
)
from core.extraction.rules.slots import is_known_slot, spec
from core.extraction.rules.topics import topic_of
from core.extraction.standing_instruction import STANDING_RESCUE, StandingInstruction
from core.filters import is_noise_content, normalise_key
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType

GATE_DROP = 0.50  # p(drop) at which a rule candidate under a fallback key is removed (drop is the likeliest)
GATE_DROP_SLOT = 0.95  # ... under a catalogue slot (the rules' slot detectors are precise)
RETYPE = 0.85  # p(type | keep) at which a fallback-keyed candidate changes type
RETYPE_IMPLAUSIBLE = 0.10  # ... or below which the rules' type is implausible (it then takes the likeliest)
RETYPE_SLOT = 0.95  # ... a taste/goal/project catalogue slot the classifier calls another of the three
RESCUE_TYPE = 0.60  # ... and p(type | keep) its type needs
FACT_MARGIN = 0.02  # cosine lead a single fact slot needs over the next topic, else fact-personal
CONTEXT_BAND = (0.25, 0.75)  # p(drop) of a text alone within which the context model reads the turn before
RESCUE_OVERRIDE = 0.97  # p(keep) at which a clause the rules dropped as overridable (below) is rescued
RESCUE_DAY = 0.97  # p(keep) a rescue needs when it carries a marker of the day or of these days (below)
# "today", "this weekend", "lately", "最近", "这几天": what a companion-chat user tells of the day or of the
# moment (an outing, a mood, a plan to unwind) is rescued only when the classifier is very sure; a move, a
# new job or a pastime taken up is the rules' (events, slots), never a rescue
_DAY_MARKER = re.compile(r"今天|今晚|今日|这周末|这个周末|本周末|最近|这几天|这段时间|近来|"
                         r"\b(?:today|tonight|this weekend|this evening|this afternoon|lately|recently|"
                         r"these days|right now)\b")
SPLIT_KEEP = 0.90  # p(keep) at which a continuation clause of another type leaves its group ...
LIST_RUN = 4  # clauses in a run of a sentence no rule fired on from which each clause is read alone
MAX_RUN = 4  # longest run read clause by clause (at 7, long companion-chat narratives were stored as
# fragments and lost their list items: MemoryBank en query hit 0.853 -> 0.824) ...
LONG_RUN = 12  # ... and up to this length a longer run too, its kept clauses then covering the whole run
# (``gate_units.partition_long_runs``: no fragment, no lost list item; a multi-fact message is not one blob)
SPLIT_TYPE = 0.80  # ... with p(type | keep) of its own type at least this
SPLIT_TYPE_OWN = RESCUE_TYPE  # ... when the clause is a statement of its own ("…, my real passion is …")
SPLIT_OTHER = 0.20  # ... or, a statement of its own, with p(its group's type | keep) at most this,
# whichever of the other types it is ("回家还得遛我家的萨摩耶，不过我最近在学画油画": a taste or a
# project, not the dog)
# reasons the rules give for dropping a clause that rule out a rescue of its sentence
_SOFT_REASONS = {"no-trigger"}
# drops of the rules the classifier may overrule, with a higher probability (RESCUE_OVERRIDE) except for a
# weekday or clock time (the usual RESCUE_KEEP: a weak sign of a time window): a standing
# rule phrased like a request ("whenever u summarize an article for me keep it to 5 bullets"), a
# long-term condition read as a hypothetical ("if it's raining in the morning, always..."), a statement
# said with a rising tone ("I'm kinda into bouldering now?"), a habit named with a weekday ("周末喜欢去爬山")
_OVERRIDABLE_REASONS = {"request", "hypothetical", "question-mark", "time-soft"}
_STRICT_REASONS = _OVERRIDABLE_REASONS - {"time-soft"}
# clauses left out of a rescued sentence without ruling it out (a thank-you for the advice)
_SKIPPED_REASONS = {"ack"}
# ... and a question tag after a statement asks nothing of it ("I sort of enjoy my taxes, is that weird")
_TAG_QUESTION = re.compile(
    r"^(?:(?:lol|haha|lmao|ok|so|but|and|like|honestly)\s+)*(?:is (?:that|it|this) (?:weird|bad|normal|"
    r"strange|odd|crazy|dumb|silly|wrong|ok|okay|a problem|too much)|right|ya know|you know|"
    r"am i (?:the only one|weird|crazy|strange)|isn'?t it|don'?t you think|no)[?？]*$|"
    r"^(?:是不是|会不会)(?:很|有点|太)?(?:奇怪|怪|傻|矫情|离谱)|^(?:对吧|是吧|你说是吧|你懂的|奇怪吗|正常吗|很怪吗)")
# a clause that only continues the statement before it ("..., so busy season eats my spring")
# the lead of a self-introduction ("quick intro:", "so context:", "简单说下我自己："): not part of a fact
_INTRO_LEAD = re.compile(
    r"^(?:(?:hi|hey|hello|ok|okay|so|well|alright|fine)\s+)*(?:a\s+)?(?:quick|brief|short|little|some)?\s*"
    r"(?:intro|introduction|context|background|bio|about me|me in a nutshell)\b|"
    r"^(?:(?:hi|hey|hello|ok|okay|嗨|哈喽|你好|那|好吧|好|嗯)\s*)*(?:我)?(?:先|就)?(?:简单)?(?:说|介绍|讲)(?:一?下|几句)?"
    r"(?:我)?自己|^自我介绍|^(?:个人)?背景")

_INTENTS = (MemoryType.PREFERENCE, MemoryType.GOAL, MemoryType.PROJECT)
# the user and a relative together as the subject: what they do together is the user's project or goal
_USER_AND_KIN = re.compile(r"^(?:me (?:and|n|&|an') my|my (?:\w+ ){1,2}and (?:i|me)\b)|"
                           r"^我(?:和|跟|与)我?(?:的)?(?:家人|"
                           + "|".join(lexicon.FAMILY_ZH) + r")(?:一起)?(?:在|正在|打算|准备|想)")

PRECISION_DROP = 0.50  # p(drop) of the precision model from which its reading counts (``_second_opinion``)
PRECISION_RESCUE = 0.0  # ... for a rescue (a sentence no rule fired on) of a taste, goal or project: whenever
# it is the surer one (a fact, a relative's fact, a rule: PRECISION_DROP, "glassblower, 41, moved to …"),
# except for a rescue that tells a taste or a habit ("I would also like to attend concerts by …", "I've been
# spending a lot of my free time reading"): PRECISION_DROP (the companion-chat drops it learned pull such
# chatty-framed tastes down: MemoryBank en typed recall 0.853 -> 0.809 without this exception)
_TASTE_OR_HABIT = re.compile(
    r"\b(?:like|likes|love|loves|enjoy|enjoys|prefer|prefers|favou?rite|fan of|into|usually|often|always|"
    r"free time|spare time|every (?:day|week|weekend|evening|night|morning))\b|"
    r"喜欢|爱看|爱读|爱听|最爱|偏爱|热爱|平时|通常|一般(?:都|会)|经常|总是|每(?:天|周|个周末|晚)|闲暇|空闲时间|业余时间|有空")
# a wish for the long run ("I want to be a doctor when I grow up", "i kinda wanna swim across lake geneva
# someday", "将来想当兽医"): the precision model's companion-chat wants pull these down, so it has no say
_LONG_TERM = re.compile(
    r"\b(?:someday|some day|one day|when i grow up|dream|dreams|my goal|life goal|bucket list|in the future|"
    r"in the long run|(?:want|wanna|hope|plan|going) (?:to )?(?:be|become) (?:a|an)\b)|"
    r"将来|梦想|总有一天|有朝一日|长大以后|长大后|以后想(?:当|成为|做)|人生目标|这辈子")
_NEVER = 2.0  # a floor above any probability: the precision model never counts
TASTE_OR_GOAL = 0.90  # p(preference) + p(goal) at which a rescue split between the two is still rescued


# a condition that only frames the clause after it ("when you explain anything medical to me, skip …",
# "给我排行程的话，…", "你帮我看合同的时候，…"): never read alone, always with that clause
_CONDITION_LEAD = re.compile(r"(?:的话|的时候|时候)$")


def _pieces(run: list[Clause]) -> list[list[Clause]]:
    """The clauses of a run as they are read alone: a condition lead joined with the clause after it."""
    out: list[list[Clause]] = []
    i = 0
    while i < len(run):
        lead = patterns.CONDITION_START.search(run[i].norm) or _CONDITION_LEAD.search(run[i].norm)
        out.append(run[i:i + 2] if lead and i + 1 < len(run) else [run[i]])
        i += len(out[-1])
    return out


_CONTRAST = re.compile(r"^(?:but|though|although|however|yet|still)\b|^(?:不过|但是?|可是|只是|然而)")


def _vetoable(cand: MemoryCandidate) -> bool:
    """A rule candidate the precision model may drop: not a standing rule (it learned companion chat), not a
    wish for the long run (``_LONG_TERM``), and neither a single slot of who the user is nor a life event (a
    move, a new job: "moved to Bristol")."""
    if cand.memory_type is MemoryType.CONSTRAINT or is_event_key(cand.key) or \
            _LONG_TERM.search(normalise(cand.content)):
        return False
    return not (is_known_slot(cand.key) and spec(cand.key).single)


def _catch_all(key: str) -> bool:
    """``fact-personal``, ``fact-background``: keys of no topic."""
    return key.split("-", 2)[1:2] in (["personal"], ["background"])


def _fact_or_project(pred: Prediction) -> bool:
    """The classifier is sure the text is about the user's life or work but not whether a fact or a
    project ("me and my husband run a small vineyard outside of adelaide"): it is rescued as the likelier."""
    return pred.memory_type in (MemoryType.FACT, MemoryType.PROJECT) and \
        pred.p_type(MemoryType.FACT) + pred.p_type(MemoryType.PROJECT) >= TASTE_OR_GOAL


def _taste_or_goal(pred: Prediction) -> bool:
    """The classifier is sure the text is a taste or a goal but not which ("我会听古典音乐和做饭来放松"):
    it is rescued as the likelier of the two (``precision`` then reads a habit told as a goal as a taste)."""
    return pred.memory_type in (MemoryType.PREFERENCE, MemoryType.GOAL) and \
        pred.p_type(MemoryType.PREFERENCE) + pred.p_type(MemoryType.GOAL) >= TASTE_OR_GOAL


class ClassifierGate:
    """Applies one ``MemoryClassifier`` to the rules' candidates of a burst (see module doc)."""

    def __init__(self, classifier: MemoryClassifier, precision: MLPModel | None = None,
                 standing: StandingInstruction | None = None) -> None:
        self.classifier = classifier
        self.precision = precision
        self.standing = standing
        self._topic_vectors: dict[MemoryType, tuple[list[str], npt.NDArray[np.float32]]] | None = None

    def _topics(self) -> dict[MemoryType, tuple[list[str], npt.NDArray[np.float32]]]:
        if self._topic_vectors is None:
            order = [(t, name, part) for t, names in TOPICS.items() for name, text in names.items()
                     for part in text.split("|")]
            vectors = self.classifier.embed([text for _, _, text in order])  # same prefix as candidates
            out: dict[MemoryType, tuple[list[str], npt.NDArray[np.float32]]] = {}
            for memory_type in TOPICS:
                rows = [i for i, (t, _, _) in enumerate(order) if t is memory_type]
                out[memory_type] = ([order[i][1] for i in rows], vectors[rows])
            self._topic_vectors = out
        return self._topic_vectors

    def apply(self, analysis: Analysis, candidates: list[MemoryCandidate],
              meta: dict[str, CandidateMeta], prev: str | None = None,
              filled: frozenset[str] = frozenset(),
              ) -> tuple[list[MemoryCandidate], dict[str, CandidateMeta]]:
        """Gated, re-typed and rescued candidates (deletes pass untouched) and their refine metadata.
        ``prev``: the turn before the message (context for a context model; embedded in the same batch);
        ``filled``: the keys of the user's live memories (a rescue never takes over a single slot among
        them unless it says a change, "now", "no longer"...: ``_rescue``; "I used to bird watch" is no
        change of job)."""
        candidates = fold_third_party(analysis, candidates)
        upserts = [c for c in candidates if c.op is CandidateOp.UPSERT]
        units = self._rescue_units(analysis)
        splits = split_points(analysis, upserts)
        said = said_texts(analysis)  # a templated content ("Lives in Rotterdam") is read as the user said it
        texts = [said.get(c.content, c.content) for c in upserts] + [u.model_text for u in units] + \
            [sp.text for sp in splits]
        if not texts:
            return candidates, meta
        # the turn before, for a precision model that reads it (embedded in the same batch)
        turn = (prev or "").strip()[:PREV_MAX_CHARS] \
            if self.precision is not None and self.precision.context else ""
        vectors = self.classifier.embed([*texts, turn] if turn else texts)
        turn_vector = vectors[-1:] if turn else None
        vectors = vectors[:len(texts)]
        predictions = self.classifier.predict_vectors(vectors)
        prev_text = (prev or "").strip()[:PREV_MAX_CHARS] if self.classifier.uses_context else ""
        unsure = [i for i, p in enumerate(predictions) if CONTEXT_BAND[0] <= p.probs[0] <= CONTEXT_BAND[1]]
        if prev_text and unsure:  # the previous turn is embedded only when a text alone is unsure
            prev_vector = self.classifier.embed([prev_text])
            again = self.classifier.predict_vectors(vectors[unsure],
                                                    np.repeat(prev_vector, len(unsure), axis=0))
            for i, pred in zip(unsure, again, strict=True):
                predictions[i] = pred
        n_units = len(upserts) + len(units)
        alone = predictions[:len(upserts)]
        opinion = self._second_opinion(vectors[:len(upserts)], alone, turn=turn_vector)
        predictions[:len(upserts)] = [second if _vetoable(cand) else first
                                      for cand, first, second in zip(upserts, alone, opinion, strict=True)]
        rest = slice(len(upserts), n_units)
        floors = [_NEVER if _LONG_TERM.search(normalise(u.model_text)) else
                  PRECISION_RESCUE if u.owner is None and pred.memory_type in _INTENTS
                  and not _TASTE_OR_HABIT.search(normalise(u.model_text)) else PRECISION_DROP
                  for u, pred in zip(units, predictions[rest], strict=True)]
        predictions[rest] = self._second_opinion(vectors[rest], predictions[rest], floors, turn_vector)
        units = self._standing_rules(units, predictions[rest], vectors[rest])
        gated: dict[int, MemoryCandidate | None] = {}
        vetoed: dict[int, MemoryCandidate] = {}  # dropped on the precision model's word alone
        for i, (cand, pred) in enumerate(zip(upserts, predictions[:len(upserts)], strict=True)):
            gated[id(cand)] = self._gate(cand, pred, vectors[i], filled)
            if gated[id(cand)] is None and pred is not alone[i]:
                kept_alone = self._gate(cand, alone[i], vectors[i], filled)
                if kept_alone is not None:
                    vetoed[id(cand)] = kept_alone
        self._reread_heads(analysis, upserts, gated, filled, turn_vector)
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
                # (``_apply_splits``: "I went to see X's concert, it was stunning. I'd also like to attend
                # concerts by Y"), then goes
                kept = vetoed[id(cand)]
                ghosts.add(kept.key)
            if kept is None:
                continue
            if kept.key != cand.key:
                new_meta[kept.key] = meta.get(cand.key, CandidateMeta())
            out.append(kept)
        out = self._apply_splits(out, splits, predictions[n_units:], vectors[n_units:], new_meta, analysis,
                                 filled)
        if ghosts:
            out = [c for c in out if c.op is not CandidateOp.UPSERT or c.key not in ghosts]
        taken = {c.key for c in out}
        chosen = chosen_units(units, predictions[len(upserts):n_units])
        units = [*units]
        for j, unit in partition_long_runs(units, chosen, analysis.message).items():
            units[j] = unit
        for j, (unit, pred) in enumerate(zip(units, predictions[len(upserts):n_units], strict=True)):
            if j not in chosen:
                continue
            rescued: MemoryCandidate | None
            if unit.owner is not None:
                rescued = relationship_fact(unit, pred)
            elif pred.p_type(pred.memory_type) < RESCUE_TYPE and not (
                    _taste_or_goal(pred) or _fact_or_project(pred)):
                continue
            else:
                changes = patterns.CHANGE.search(normalise(unit.text))  # "I'm a handyman now"
                rescued = self._rescue(unit, pred, taken, vectors[len(upserts) + j],
                                       frozenset() if changes else filled)
            if rescued is None:
                continue
            taken.add(rescued.key)
            out.append(rescued)
            changed = unit.sentence in analysis.change_sentences
            new_meta.setdefault(rescued.key, CandidateMeta(changed=changed))
        out.sort(key=lambda c: (c.op is not CandidateOp.DELETE, -c.importance))
        return out, new_meta

    def _standing_rules(self, units: list[Unit], predictions: list[Prediction],
                        vectors: npt.NDArray[np.float32]) -> list[Unit]:
        """``units``, a unit the rules dropped as a question or a request, or a consequence of a fact
        (``Unit.asked``), that the classifier types as a rule (``RESCUE_TYPE``) and the standing-instruction
        model calls a standing rule (``STANDING_RESCUE``, calibrated on sentences that end like a question)
        needing no p(keep) of its own: a rule said with a question tag or in chat words ("no X in anything
        you suggest, ok?", "帮我…的时候pls先…"), which the classifier alone keeps too rarely."""
        if self.standing is None or not units:
            return units
        probs = self.standing.predict_proba(vectors)
        return [replace(u, threshold=0.0) if u.asked and u.owner is None
                and pred.memory_type is MemoryType.CONSTRAINT
                and pred.p_type(MemoryType.CONSTRAINT) >= RESCUE_TYPE and p >= STANDING_RESCUE else u
                for u, pred, p in zip(units, predictions, probs, strict=True)]

    def _second_opinion(self, vectors: npt.NDArray[np.float32], predictions: list[Prediction],
                        floors: list[float] | None = None, turn: npt.NDArray[np.float32] | None = None
                        ) -> list[Prediction]:
        """The precision model's reading (module doc): where it says drop more surely than the memory
        classifier, and with p >= the text's floor (``PRECISION_DROP`` unless ``floors`` says otherwise), its
        p(drop) replaces the classifier's; the type stays the classifier's (its shares of the rest). Other
        predictions are returned as they are (the same objects)."""
        if self.precision is None or not predictions:
            return predictions
        prev = None if turn is None else np.repeat(turn, len(vectors), axis=0)
        drops = self.precision.predict_proba(vectors, prev)[:, 0]
        out: list[Prediction] = []
        for i, (pred, drop) in enumerate(zip(predictions, drops, strict=True)):
            d = float(drop)
            if d < (PRECISION_DROP if floors is None else floors[i]) or d <= pred.probs[0]:
                out.append(pred)
                continue
            scale = (1.0 - d) / pred.p_keep if pred.p_keep > 0 else 0.0
            out.append(Prediction((round(d, 6), *(round(p * scale, 6) for p in pred.probs[1:]))))
        return out

    def _reread_heads(self, analysis: Analysis, upserts: list[MemoryCandidate],
                      gated: dict[int, MemoryCandidate | None], filled: frozenset[str] = frozenset(),
                      turn: npt.NDArray[np.float32] | None = None) -> None:
        """A rule candidate of several clauses the gate dropped as a whole is read again by its first
        clause ("i kinda wanna run a half marathon someday, nothing serious, just to say i did it": the
        hedges after it drown the goal); kept, it stays with that clause as its content. A standing rule is
        read by its first clause too, and kept by the classifier as a rule there ("别再给我推荐X了，我看完
        睡不着": the reason after it drowns the rule) it stays whole (with its object and reason). One more
        embedding batch, only when this happens."""
        heads: list[tuple[MemoryCandidate, str]] = []
        for cand in upserts:
            if gated[id(cand)] is not None:
                continue
            group = next((g for g in analysis.groups if g.key == cand.key and g.hit.content is None
                          and len(g.clauses) > 1), None)
            if group is None:
                continue
            first = min(group.clauses, key=lambda c: c.index)
            head = clean_content(first.text)
            if head and head != cand.content and long_enough(head) and cand.content.startswith(head[:8]):
                heads.append((cand, head))
        if not heads:
            return
        vectors = self.classifier.embed([head for _, head in heads])
        predictions = self._second_opinion(vectors, self.classifier.predict_vectors(vectors), turn=turn)
        for (cand, head), pred, vector in zip(heads, predictions, vectors,
                                              strict=True):
            if cand.memory_type is MemoryType.CONSTRAINT:  # a rule stays whole, with its object and reason
                rule = pred.probs[0] < GATE_DROP and pred.memory_type is MemoryType.CONSTRAINT
                gated[id(cand)] = cand if rule else None
                continue
            gated[id(cand)] = self._gate(cand.model_copy(update={"content": head}), pred, vector, filled)

    # -- gate and type --------------------------------------------------------------------------
    def _gate(self, cand: MemoryCandidate, pred: Prediction, vector: npt.NDArray[np.float32],
              filled: frozenset[str] = frozenset()) -> MemoryCandidate | None:
        slot = is_known_slot(cand.key) or is_event_key(cand.key)  # a dated life event is kept like a slot
        if pred.probs[0] >= (GATE_DROP_SLOT if slot else GATE_DROP):
            return None
        memory_type = pred.memory_type
        other = memory_type is not cand.memory_type and {cand.memory_type, memory_type} <= set(_INTENTS)
        if slot and other and pred.p_keep >= RESCUE_KEEP and pred.p_type(memory_type) >= RETYPE_SLOT \
                and not is_event_key(cand.key):
            return self._retyped(cand, memory_type, vector, filled)  # "翻译一本小说，纯属爱好": a project
        if cand.key == "fact-family" and memory_type in (MemoryType.PROJECT, MemoryType.GOAL) \
                and pred.p_keep >= RESCUE_KEEP and pred.p_type(memory_type) >= RETYPE_SLOT \
                and _USER_AND_KIN.search(normalise(cand.content)):
            return self._retyped(cand, memory_type, vector, filled)  # "me and my dad are rebuilding..."
        if slot or pred.p_keep < 0.5:
            return cand
        made = cand.memory_type is MemoryType.PROJECT and bool(
            patterns.PROJECT_MAKING.search(normalise(cand.content)))
        if memory_type is cand.memory_type or (pred.p_type(memory_type) < RETYPE and (
                made or pred.p_type(cand.memory_type) >= RETYPE_IMPLAUSIBLE)):
            return cand  # (a thing the user is making stays a project unless the classifier is sure)
        return self._retyped(cand, memory_type, vector, filled)

    def _retyped(self, cand: MemoryCandidate, memory_type: MemoryType, vector: npt.NDArray[np.float32],
                 filled: frozenset[str] = frozenset()) -> MemoryCandidate:
        """``cand`` under the classifier's type and a key of it: like a rescue's (``_rescue``), a guess
        that never takes over a single slot the user already has ("I work on a lot of different projects,
        ..." after "I'm an environmentalist") unless it says a change."""
        key = normalise_key(self._key(memory_type, cand.content, vector))
        if key in filled and spec(key).single and not patterns.CHANGE.search(normalise(cand.content)):
            key = f"{memory_type.value}-personal"
        target = spec(key)
        return cand.model_copy(update={"key": key, "memory_type": target.memory_type,
                                       "importance": target.importance, "ttl_days": target.ttl_days})

    # -- rescue ---------------------------------------------------------------------------------
    @staticmethod
    def _rescue_units(analysis: Analysis) -> list[Unit]:
        """What a rescue may keep: a sentence where no rule fired and every clause was dropped only for
        lack of a trigger (or for an overridable reason), as a whole; in a sentence where rules fired,
        each run of consecutive clauses they left (a job or a city among other facts: "civil engineer,
        34, just relocated to Rotterdam"), clause by clause and as a run. A clause with any other drop
        reason (a time window, a question, a profile field...) ends a run and rules its sentence out
        when nothing in it fired."""
        clauses = split_clauses(analysis.message[:MAX_MESSAGE_CHARS], MAX_CLAUSES)
        covered = {c.index for g in analysis.groups for c in g.clauses}
        by_sentence: dict[int, list[Clause]] = {}
        for clause in clauses:
            by_sentence.setdefault(clause.sentence, []).append(clause)
        units: list[Unit] = []
        blocks: list[tuple[int, list[Clause]]] = []
        for sentence, members in by_sentence.items():  # "…today 😩 btw when u reply to me …": a new block
            cut = [i for i, c in enumerate(members) if i and patterns.TOPIC_SHIFT.search(c.norm)]
            bounds = zip([0, *cut], [*cut, len(members)], strict=True)
            blocks.extend((sentence, members[a:b]) for a, b in bounds)
        for sentence, members in blocks:
            fired = any(c.index in covered for c in members)
            runs: list[list[Clause]] = [[]]
            blocked = False
            for clause in members:
                reason = analysis.dropped.get(clause.index, "no-trigger")
                tag = reason == "question" and clause is not members[0] and _TAG_QUESTION.search(clause.norm)
                if clause.index in covered or reason in _SKIPPED_REASONS or tag:
                    runs.append([])
                elif reason in _SOFT_REASONS or reason in _OVERRIDABLE_REASONS:
                    runs[-1].append(clause)
                else:
                    blocked = True
                    runs.append([])
            if blocked and not fired:
                continue
            for run in runs:
                while run and _INTRO_LEAD.search(run[0].norm):
                    run = run[1:]
                if not run:
                    continue
                owner = owner_of(run[0])
                if owner == "":
                    continue  # "he loves sushi", "Jenny plays guitar": someone else's, and who is unclear
                body = " ".join(c.norm for c in run)
                if owner is None and THIRD_PRONOUN.search(body) and not FIRST_PERSON_WORD.search(body):
                    continue  # "家里阳台都快被她占满了": about someone named in another turn
                if fired and CONSEQUENCE.search(run[0].norm):
                    # "I'm an auditor, so busy season eats my spring": a detail of the fact before, unless the
                    # standing-instruction model calls it a rule ("<a diet limit>, so no X in my recipes ok?":
                    # ``_standing_rules``); no p(keep) rescues it
                    text = clean_content(analysis.message[run[0].start:run[-1].end])
                    if long_enough(text, False) and not is_noise_content(text):
                        units.append(Unit(text, sentence, owner, _NEVER, run[0].index, True, asked=True))
                    continue
                if len(run) == 1 and analysis.dropped.get(run[0].index) == "hypothetical":
                    continue  # "if I were rich I'd buy an island"; a condition needs its rule after it
                strict = any(analysis.dropped.get(c.index) in _STRICT_REASONS for c in run)
                threshold = RESCUE_OVERRIDE if strict else RESCUE_KEEP
                run_id = run[0].index
                text = clean_content(analysis.message[run[0].start:run[-1].end])
                if patterns.RECENT_PAST.search(normalise(text)):
                    continue  # "last weekend I went to…": of the day (a move is the event detector's)
                if _DAY_MARKER.search(normalise(text)):
                    threshold = max(threshold, RESCUE_DAY)
                if long_enough(text, fired and owner is None) and not is_noise_content(text):
                    units.append(Unit(text, sentence, owner, threshold, run_id, True, asked=strict))
                listing = len(run) >= LIST_RUN and owner is None  # "41, divorced, i drive a forklift, …"
                long_run = MAX_RUN < len(run) <= LONG_RUN and listing
                if 1 < len(run) <= MAX_RUN or long_run:
                    selves = [c for c in run if OWN_SUBJECT.search(c.norm)]
                    for piece in _pieces(run):
                        clause = piece[0]
                        lead = len(piece) > 1  # a condition with the instruction after it
                        if not (fired or listing or lead) and (
                                clause not in selves or (clause is run[0] and len(selves) < 2)):
                            # nothing fired: only a clause with its own "I" is read alone, the first one
                            # when another follows ("I'm a handyman and I restore classic cars": two
                            # statements, each read alone, not only the second)
                            continue
                        one = clean_content(analysis.message[clause.start:piece[-1].end])
                        own = owner_of(clause) if clause is not run[0] else owner
                        if own != "" and long_enough(one, own is None) and not is_noise_content(one):
                            single = RESCUE_OVERRIDE if any(analysis.dropped.get(c.index) in _STRICT_REASONS
                                                            for c in piece) else RESCUE_KEEP
                            if _DAY_MARKER.search(normalise(one)):
                                single = max(single, RESCUE_DAY)
                            read = with_user_subject(clause, one) if own is None and (fired or listing) \
                                and not lead else None
                            spans = ((clause.start, piece[-1].end), (run[0].start, run[-1].end)) \
                                if long_run else (None, None)
                            asked = any(analysis.dropped.get(c.index) in _STRICT_REASONS for c in piece)
                            units.append(Unit(one, sentence, own, single, run_id, False, read,
                                              span=spans[0], run_span=spans[1], asked=asked))
        return units

    def _apply_splits(self, out: list[MemoryCandidate], splits: list[Split], predictions: list[Prediction],
                      vectors: npt.NDArray[np.float32], meta: dict[str, CandidateMeta], analysis: Analysis,
                      filled: frozenset[str] = frozenset()) -> list[MemoryCandidate]:
        """Cut the continuation clauses of a group that are memories of their own out of it: one memory, one
        thing. A clause is cut (``_cuts``) when the classifier keeps it and types it otherwise than its group,
        or, said as a statement of its own (its own subject, a list item), as a fact of another topic
        ("i'm a bus driver in bristol, my knees are shot from years of football": the job and the knee), or
        when it is a relative's or friend's statement (a fact about the user's relationships). Each cut takes
        the clauses up to the next cut; what is left before the first cut stays the group's memory."""
        by_key: dict[str, list[tuple[Split, Prediction, npt.NDArray[np.float32]]]] = {}
        for sp, pred, vector in zip(splits, predictions, vectors, strict=True):
            by_key.setdefault(sp.key, []).append((sp, pred, vector))
        zh = analysis.lang_zh
        for key, cuts in by_key.items():
            at = next((i for i, c in enumerate(out) if c.key == key and c.op is CandidateOp.UPSERT), None)
            if at is None:
                continue
            end = len(cuts[0][0].clauses)  # the first clause of the last cut made
            for sp, pred, vector in sorted(cuts, key=lambda cut: -cut[0].pos):  # the last cut first
                if not ClassifierGate._cuts(sp, pred, out[at].memory_type):
                    continue
                tail = join_clauses(analysis.message, list(sp.clauses[sp.pos:end]), zh)
                taken = {c.key for c in out}
                new: MemoryCandidate | None
                if sp.owner is not None:
                    unit = Unit(tail, sp.sentence, sp.owner)
                    new = None if sp.owner in taken else relationship_fact(unit, pred)
                else:
                    changes = patterns.CHANGE.search(normalise(tail))
                    new = self._rescue(Unit(tail, sp.sentence), pred, taken, vector,
                                       frozenset() if changes else filled)
                if new is None or new.key in taken or (_catch_all(new.key) and (
                        new.memory_type is out[at].memory_type or pred.p_type(new.memory_type) < SPLIT_TYPE)):
                    continue
                end = sp.pos
                out.append(new)
                meta.setdefault(new.key, CandidateMeta(changed=sp.sentence in analysis.change_sentences))
            group = list(cuts[0][0].clauses)
            if end < len(group):
                head = join_clauses(analysis.message, group[:end], zh)
                out[at] = out[at].model_copy(update={"content": head})
        return out

    @staticmethod
    def _cuts(sp: Split, pred: Prediction, group_type: MemoryType) -> bool:
        """The classifier's reading of a continuation clause says it leaves its group (``_apply_splits``)."""
        if pred.p_keep < SPLIT_KEEP:
            return False
        if sp.owner is not None:
            return True
        memory_type = pred.memory_type
        if not sp.own and group_type is not MemoryType.FACT and memory_type is not MemoryType.GOAL:
            return False  # an item of a list of tastes ("…, military history research, and rock climbing")
        if memory_type is not group_type:
            if sp.own and pred.p_type(group_type) <= SPLIT_OTHER:
                return True  # a statement of its own the classifier is sure is not of its group's kind
            # a job told with its company is no project, a feeling after "but" is the same topic's: the
            # lower bar is for a taste, a goal or a fact told as a statement of its own
            own = sp.own and memory_type is not MemoryType.PROJECT and not _CONTRAST.search(sp.lead)
            return pred.p_type(memory_type) >= (SPLIT_TYPE_OWN if own else SPLIT_TYPE)
        # a fact of its own: cut when its key (``_rescue``) is a topic of its own, not its group's nor another
        # taken one, nor a catch-all (``_apply_splits``: "养了一只 husky 叫 Luna" leaves the job; "mango and
        # kiwi", the cats' names, stays with the cats, "and i earn about 60k" with the job)
        return memory_type is MemoryType.FACT and pred.p_type(memory_type) >= (
            SPLIT_TYPE_OWN if sp.own else SPLIT_TYPE)

    def _rescue(self, unit: Unit, pred: Prediction, taken: set[str], vector: npt.NDArray[np.float32],
                filled: frozenset[str] = frozenset()) -> MemoryCandidate | None:
        """A candidate for a unit the classifier keeps. Its key is a guess (topic words or the nearest
        topic), so it never overwrites a single slot the user already has (``filled``: "I'm a bee farmer",
        then "I used to bird watch with my grandfather", nearest to the job, would replace the job): it
        is filed under the type's general key instead."""
        memory_type = pred.memory_type
        key = normalise_key(self._key(memory_type, unit.text, vector, taken))
        if key in filled and spec(key).single:
            key = f"{memory_type.value}-personal"
        target = spec(key)
        if target.memory_type is not memory_type:
            return None
        if key in taken and target.single:
            return None  # the rules already filled this single slot from the same burst
        above = max(0.0, pred.p_keep - RESCUE_KEEP)  # none for a rule the standing model rescued
        confidence = round(min(0.9, 0.75 + 0.15 * above / (1.0 - RESCUE_KEEP)), 3)
        return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=memory_type, key=key, content=unit.text,
                               importance=target.importance, confidence=confidence, ttl_days=target.ttl_days)

    def _key(self, memory_type: MemoryType, text: str, vector: npt.NDArray[np.float32],
             taken: Collection[str] = ()) -> str:
        """``{type}-{topic}``: the rules' topic words first, else the nearest topic by embedding (the type's
        general key when the nearest is a single slot in ``taken``)."""
        norm = normalise(text)
        if memory_type in (MemoryType.PREFERENCE, MemoryType.GOAL, MemoryType.CONSTRAINT):
            topic = topic_of(memory_type.value, norm)
            if topic:
                return f"{memory_type.value}-{topic}"
        if memory_type is MemoryType.PROJECT:
            for noun, slug in sorted({**lexicon.PROJECT_NOUNS_ZH, **lexicon.PROJECT_NOUNS_EN}.items(),
                                     key=lambda kv: (-len(kv[0]), kv[0])):
                if (noun in norm) if has_cjk(noun) else re.search(rf"\b{re.escape(noun)}s?\b", norm):
                    return f"project-{slug}"
        names, topic_vectors = self._topics()[memory_type]
        sims = topic_vectors @ vector
        best = int(np.argmax(sims))
        key = f"{memory_type.value}-{names[best]}"
        if spec(key).single and key in taken:
            # a single slot another statement of the same message fills ("i'm a software tester" beside
            # "i grow tons of herbs on my balcony in lisbon", nearest to the job too): the type's general
            # key, so the statement is not lost (a guess of another topic would file it wrongly)
            return f"{memory_type.value}-personal"
        if spec(key).single:
            others = [float(v) for n, v in zip(names, sims, strict=True) if n != names[best]]
            runner_up = max(others, default=-1.0)
            if float(sims[best]) - runner_up < FACT_MARGIN:
                return f"{memory_type.value}-personal"
        return key
