"""``RulesExtractor``: the offline, rule-based extraction provider (Chinese and English).

No model, no network: patterns and lexicons decide what is a long-term memory (see
``analysis`` for the boundaries). Deterministic: the same input always gives the same output.
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from core.extraction.candidates import CandidateOp, ExtractionInput, MemoryCandidate
from core.extraction.rules import analysis as _analysis
from core.extraction.rules import judge_shadows, lexicon, patterns
from core.extraction.rules.analysis import (
    Analysis,
    Group,
    HorizonReading,
    RuleReading,
    analyse,
    cued_rule,
    message_clauses,
)
from core.extraction.rules.answers import answer_folded, pronoun_details
from core.extraction.rules.coherence import nearest_cosine
from core.extraction.rules.events import EventHit, is_event_key
from core.extraction.rules.keys import content_slug
from core.extraction.rules.leave_out import object_back, objects_joined, with_object_before
from core.extraction.rules.precision import Precise, precise_parts, with_referents
from core.extraction.rules.progress import told_next, with_progress
from core.extraction.rules.referent import asked_thing
from core.extraction.rules.refine import CandidateMeta, gives_up_old, refine_candidates
from core.extraction.rules.segment import has_cjk, join_clauses, normalise
from core.extraction.rules.slots import is_known_slot, spec
from core.extraction.rules.topics import topic_matches, topic_of
from core.extraction.rules.two_turn import with_opener
from core.filters import is_noise_content, is_structured_payload, normalise_key
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType
from schemas.events import MAX_MEMORY_CONTENT_CHARS

if TYPE_CHECKING:
    from core.extraction.asked_turn import AskedTurn
    from core.extraction.classifier import MemoryClassifier, MLPModel
    from core.extraction.companion_remark import CompanionRemark
    from core.extraction.day_news import DayNews
    from core.extraction.horizon import Horizon
    from core.extraction.list_items import ListReader
    from core.extraction.rescue_turn import RescueTurn
    from core.extraction.retraction_intent import RetractionIntent
    from core.extraction.rules.referent_choice import ReferentChooser
    from core.extraction.rules.retraction import RetractionResolver
    from core.extraction.standing_instruction import StandingInstruction

log = logging.getLogger(__name__)
MAX_CONTENT = MAX_MEMORY_CONTENT_CHARS


@dataclass(frozen=True)
class _Built:
    """Memoised per input (``ExtractionInput`` is frozen and hashable), so refine does not redo
    stage 1; callers get copies of the list."""

    candidates: tuple[MemoryCandidate, ...]
    meta: dict[str, CandidateMeta]
    analysis: Analysis | None = None
    unkept: frozenset[str] = frozenset()  # the texts the classifier gate read as no memory (``GateReading``)


# the old value, then (group "keep", put back) the change it was followed by
_FROM_OLD = [
    re.compile(r"从[^,，。从]{1,12}?(?P<keep>(?:搬|跳槽|换|转|调|改)[^,，。]{0,3}(?:到|去|成|为))"),
    re.compile(r"\bfrom (?:a |an |the )?[\w .'&-]{1,30}? (?P<keep>to\b)", re.IGNORECASE),
]


def _without_old_value(content: str) -> str:
    """"从北京搬到了上海" -> "搬到了上海", "moved from Boston to Denver" -> "moved to Denver": the
    old value of a changed slot is not part of the new memory."""
    for rx in _FROM_OLD:
        content = rx.sub(r"\g<keep>", content)
    return content


_PROJECT_NAME_I = [re.compile(rx.pattern, re.IGNORECASE) for rx in patterns.PROJECT_NAME]


def _project_key(text: str) -> str:
    nf = unicodedata.normalize("NFKC", text)
    for rx in _PROJECT_NAME_I:
        m = rx.search(nf)
        if m:
            name = m.group("n").strip()
            if name and name.lower() not in {"it", "this", "that", "a", "the"}:
                return normalise_key(f"project-{name if name.isascii() else content_slug(name)}")
    norm = normalise(text)
    for noun, slug in sorted(lexicon.PROJECT_NOUNS_ZH.items(), key=lambda kv: -len(kv[0])):
        if noun in norm:
            return f"project-{slug}"
    for noun, slug in sorted(lexicon.PROJECT_NOUNS_EN.items(), key=lambda kv: -len(kv[0])):
        if re.search(rf"\b{re.escape(noun)}s?\b", norm):
            return f"project-{slug}"
    return f"project-{content_slug(text)}"


def _final_key(group: Group, content: str) -> str:
    key = group.key
    if key == "project-pending":
        return _project_key(content)
    if key == "goal-pending":
        topic = topic_of("goal", normalise(content))
        return f"goal-{topic}" if topic else f"goal-{content_slug(content)}"
    return key


@lru_cache(maxsize=128)
def build(data: ExtractionInput, horizon: HorizonReading | None = None,
          rule: RuleReading | None = None) -> _Built:
    """Candidates for ``data.user_message`` plus, per key, what refine needs to know.

    One candidate per key. Statements are read in order: a later statement about the same slot
    made with a change signal ("现在改成…", "update: I moved…") replaces the earlier one, a later
    retraction cancels it, otherwise details accumulate. This matters when the pipeline coalesces
    a burst of user messages into one extraction. ``horizon``: the horizon model's reading, which lets a
    lasting statement with a near date past the rules' hard time filter (``analysis.analyse``); ``rule``: the
    standing-instruction model's reading, which keeps a rule with a forget cue word a rule.
    """
    if is_structured_payload(data.user_message):
        return _Built((), {})  # a JSON tool call or body is no statement of the user's
    analysis: Analysis = analyse(data, horizon, rule)
    zh = analysis.lang_zh
    latest: dict[str, MemoryCandidate] = {}
    meta: dict[str, CandidateMeta] = {}
    for group in analysis.groups:
        hit = group.hit
        content = hit.content or join_clauses(analysis.message, group.clauses, zh)
        if not hit.content and hit.op is CandidateOp.UPSERT \
                and spec(group.key).memory_type is MemoryType.CONSTRAINT:
            # "raisins. hate them. strip them out of …": the rule read with the object said before it
            content = with_object_before(analysis.message, message_clauses(analysis), group.clauses,
                                         object_back()) or content
        content = _without_old_value(content)
        if isinstance(hit, EventHit) and hit.date:
            content = f"{content[:MAX_CONTENT - len(hit.date) - 3]} ({hit.date})"
        content = content[:MAX_CONTENT]
        if hit.op is CandidateOp.UPSERT and (len(content) < 2 or is_noise_content(content)):
            continue
        if any(topic_matches(t, content) for t in analysis.forget_topics):
            continue
        key = normalise_key(_final_key(group, content))
        if key in analysis.forgotten_slots:
            continue
        slot = spec(key)
        changed = bool({group.sentence, group.sentence - 1} & analysis.change_sentences)
        previous = latest.get(key)
        confidence = hit.confidence
        if hit.op is CandidateOp.UPSERT and previous is not None and previous.op is CandidateOp.UPSERT:
            confidence = max(confidence, previous.confidence)
            if not (changed and not hit.force_merge):
                if normalise(content) in normalise(previous.content):
                    content = previous.content
                else:
                    sep = "；" if has_cjk(content) else "; "
                    content = (previous.content + sep + content)[:MAX_CONTENT]
        latest[key] = MemoryCandidate(
            op=hit.op, memory_type=slot.memory_type, key=key,
            content=content if hit.op is CandidateOp.UPSERT else (content or key),
            importance=slot.importance, confidence=confidence, ttl_days=slot.ttl_days,
        )
        old = meta.get(key)
        meta[key] = CandidateMeta(
            changed=(old.changed if old else False) or changed,
            force_merge=(old.force_merge if old else False) or hit.force_merge,
        )
    for deletion in analysis.deletions:
        key = normalise_key(deletion.key)
        if key in latest and latest[key].op is CandidateOp.UPSERT:
            continue
        try:
            memory_type = MemoryType(deletion.memory_type)
        except ValueError:
            memory_type = MemoryType.FACT
        latest[key] = MemoryCandidate(op=CandidateOp.DELETE, memory_type=memory_type, key=key,
                                      content=deletion.content[:MAX_CONTENT], importance=3, confidence=0.9)
    out = list(latest.values())
    out.sort(key=lambda c: (c.op is not CandidateOp.DELETE, -c.importance))
    return _Built(tuple(out), meta, analysis)


# a message that adds to what the user told ("I also like to go hiking", "我也养了一只猫") ...
_ADDITIVE = re.compile(r"\b(?:also|too|as well|in addition)\b|也|另外|此外")


def additions_kept(message: str, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """A message that adds to what the user told, with no word of change or of giving up ("It's a lot of
    fun. I get to travel the world and meet new people. I also get to..."; "I also like to go hiking. I
    love being outdoors and exploring new places"), replaces none of the user's other memories: an upsert
    naming another key in ``supersedes`` (the pair judge's reading, here on "new" of "meet new people")
    keeps its own memory and leaves that one live, like refine's rule that a preference is a list a new
    item joins. Same-key overwrites and deletions are untouched."""
    norm = normalise(message or "")
    if not _ADDITIVE.search(norm) or patterns.CHANGE.search(norm) or gives_up_old(message):
        return candidates
    return [c.model_copy(update={"supersedes": None})
            if c.op is CandidateOp.UPSERT and c.supersedes and normalise_key(c.supersedes) != c.key else c
            for c in candidates]


def _over_turns(data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """What the message adds to the memories of earlier turns: a detail told with a pronoun joins its
    memory (``answers.pronoun_details``), an answer to the assistant's question joins what the user just
    said (``answers.answer_folded``), news of a live project updates it (``progress.with_progress``, and
    ``progress.told_next`` for the next turn that goes on about it without naming it)."""
    candidates = answer_folded(data, pronoun_details(data.existing, candidates))
    return told_next(data, with_progress(data.user_message, data.existing, candidates))


def _intent_model() -> RetractionIntent | None:
    """The shipped retraction-intent model, or None (cue words only) when its weights do not load."""
    from core.extraction.retraction_intent import RetractionIntentError, shipped_intent_model

    try:
        return shipped_intent_model()
    except RetractionIntentError as exc:
        log.warning("retraction-intent model unavailable, retraction cue words only: %s", exc)
        return None


def _precision_model() -> MLPModel | None:
    """The shipped precision model (the gate's second opinion on keep/drop), or None when its weights do
    not load (the gate then reads the memory classifier alone)."""
    from core.extraction.classifier import ClassifierError, shipped_precision_mlp

    try:
        return shipped_precision_mlp()
    except ClassifierError as exc:
        log.warning("precision model unavailable, the memory classifier alone gates: %s", exc)
        return None


def _list_reader() -> ListReader | None:
    """The shipped list reader (the list-item head and the list fragment model), or None when its weights do
    not load (a list-style message is then read as any other)."""
    from core.extraction.classifier import ClassifierError
    from core.extraction.list_items import shipped_list_reader
    from core.extraction.logistic_head import LogisticHeadError

    try:
        return shipped_list_reader()
    except (ClassifierError, LogisticHeadError) as exc:
        log.warning("list reader unavailable, lists read as any message: %s", exc)
        return None


def _standing_model() -> StandingInstruction | None:
    """The shipped standing-instruction model, or None (the rules' request words only) when its weights do
    not load."""
    from core.extraction.standing_instruction import StandingInstructionError, shipped_standing_model

    try:
        return shipped_standing_model()
    except StandingInstructionError as exc:
        log.warning("standing-instruction model unavailable, request words only: %s", exc)
        return None


def _referent_chooser(on: bool | None) -> ReferentChooser | None:
    """The learned referent chooser when switched on (``on``, else ``REFERENT_MODEL_ON``), or None (the rule
    chooses; also when its weights do not load)."""
    from core.extraction.rules.referent_choice import (
        REFERENT_MODEL_ON,
        ReferentChooserError,
        shipped_referent_chooser,
    )

    if not (REFERENT_MODEL_ON if on is None else on):
        return None
    try:
        return shipped_referent_chooser()
    except ReferentChooserError as exc:
        log.warning("referent chooser unavailable, the rule chooses: %s", exc)
        return None


ONE_PER_STATEMENT = True  # multi46: one statement is one memory, never two keys with the same content


def _one_per_statement(candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """``candidates`` without an upsert whose content is an earlier upsert's of the same type: two slot
    detectors that fired on one clause ("Gluten-free (celiac)": an allergy and a diet) make one memory, not
    two copies that take two of the turn's writes (``LONG_TERM_MEMORY_MAX_WRITE_ITEMS``) from the last
    statements of a long message (semantic dedup would merge the copies after the write anyway)."""
    if not ONE_PER_STATEMENT:
        return candidates
    seen: set[tuple[MemoryType, str]] = set()
    out: list[MemoryCandidate] = []
    for cand in candidates:
        if cand.op is CandidateOp.UPSERT:
            said = (cand.memory_type, normalise(cand.content))
            if said in seen:
                continue
            seen.add(said)
        out.append(cand)
    return out


def named_slot(key: str) -> bool:
    """The rules provider's named slots (``RulesExtractor.named_slot``): a catalogue slot or a life event."""
    return is_known_slot(key) or is_event_key(key)


def _or_as_refined(head: str, candidates: list[MemoryCandidate],
                   read: Callable[[], list[MemoryCandidate]]) -> list[MemoryCandidate]:
    """``read()``, a pass after refine that only takes statements out; ``candidates`` unchanged when its
    head's embedder fails (``EmbeddingError``): the rules' answer is still a sound answer."""
    from core.embedding.base import EmbeddingError

    try:
        return read()
    except EmbeddingError as exc:
        log.warning("%s head unavailable, written as refined: %s", head, exc)
        return candidates


class RulesExtractor:
    """Offline rule-based ``CandidateExtractor`` for Chinese and English (name ``rules``).

    With a ``classifier`` (``MEMORY_EXTRACTOR_RULES_CLASSIFIER=on``, the factory's default) the rules
    propose and the classifier gates, types and rescues (``core.extraction.rules.gate``, reading the
    previous turn as context), and in refine the pair model decides updates and retractions against
    the user's live memories (``core.extraction.rules.judge``); without one, rules only. Either way
    deterministic and memoised per input.
    """

    name = "rules"
    #: pure in-process computation: bursts beyond the cores only share them (``CONSUMER_EXTRACTOR_CPU_SLOTS``)
    cpu_bound = True

    def __init__(self, classifier: MemoryClassifier | None = None, judge: bool = True,
                 precision: bool = True, referent_model: bool | None = None, lists: bool = True,
                 retraction_target: bool | None = None, lasting: bool | None = None) -> None:
        """``judge``: with a classifier, also the pair model's update/retraction decision in refine;
        ``precision``: with a classifier, also the precision model's second opinion in the gate;
        ``lists``: with a classifier, a list-style message's items read by the list reader
        (``core.extraction.list_items``);
        ``referent_model``: with a classifier, the learned referent chooser in place of the rule's choice
        (``core.extraction.rules.referent_choice``; unset: ``REFERENT_MODEL_ON``, off);
        ``retraction_target``: with a classifier and ``judge``, the retraction-target model in the resolver
        and the judge (``core.extraction.retraction_target``; unset: ``RETRACTION_TARGET_ON``, off);
        ``lasting``: with a classifier, the lasting-statement head's say on a rescue
        (``core.extraction.rules.gate_lasting``; unset: ``LASTING_ON``, off: measured, not shipped)."""
        if classifier is not None and classifier.type_pairs is None and classifier.shipped:
            from core.extraction.rules.type_pairs import shipped_type_pairs

            classifier.type_pairs = shipped_type_pairs()  # the shipped MLP's heads (``TYPE_PAIRS_ON``)
        self.classifier = classifier
        self._chooser = _referent_chooser(referent_model) if classifier is not None else None
        self._gated = lru_cache(maxsize=128)(self._apply_classifier)
        self._precised = lru_cache(maxsize=128)(self._apply_precision)
        if classifier is not None:
            from core.extraction.pairs import shipped_pair_model
            from core.extraction.rules.gate import ClassifierGate
            from core.extraction.rules.judge import UpdateJudge
            from core.extraction.rules.retraction import RetractionResolver

            self._standing: StandingInstruction | None = _standing_model()
            from core.extraction.horizon import HORIZON_ON, shipped_fact_horizon, shipped_horizon

            self._horizon: Horizon | None = shipped_horizon() if HORIZON_ON else None
            self._fact_horizon: Horizon | None = shipped_fact_horizon() if HORIZON_ON else None
            from core.extraction.day_news import DAY_NEWS_ON, shipped_day_news

            self._day_news: DayNews | None = shipped_day_news() if DAY_NEWS_ON else None
            from core.extraction.day_news import WRITTEN_NEWS_ON

            self._written_news: DayNews | None = shipped_day_news() if WRITTEN_NEWS_ON else None
            from core.extraction.companion_remark import COMPANION_REMARK_ON, shipped_companion_remark

            self._remark: CompanionRemark | None = shipped_companion_remark() if COMPANION_REMARK_ON else None
            from core.extraction.rescue_turn import RESCUE_TURN_ON, shipped_rescue_turn

            self._rescue_turn: RescueTurn | None = shipped_rescue_turn() if RESCUE_TURN_ON else None
            from core.extraction.asked_turn import shipped_asked_turn

            # loaded whatever ``ASKED_TURN_ON`` says: the flag is read at call time (an arm, a test)
            self._asked_turn: AskedTurn | None = shipped_asked_turn()
            from core.extraction.lasting import LASTING_ON, shipped_lasting

            lasting = LASTING_ON if lasting is None else lasting
            self._gate: ClassifierGate | None = ClassifierGate(classifier,
                                                                 _precision_model() if precision else None,
                                                                 self._standing,
                                                                 _list_reader() if lists else None,
                                                                 shipped_lasting() if lasting else None)
            from core.extraction.retraction_target import JUDGE_VETO_ON, RETRACTION_TARGET_ON, shipped_target
            from core.extraction.update_intent import UPDATE_INTENT_ON, shipped_update_intent

            on = RETRACTION_TARGET_ON if retraction_target is None else retraction_target
            target = shipped_target() if on else None
            # the judge reads the model's veto even with the resolver's accept path off (JUDGE_VETO_ON),
            # unless the caller turned the model off (retraction_target=False)
            vetoes = target
            if vetoes is None and JUDGE_VETO_ON and retraction_target is not False:
                vetoes = shipped_target()
            self._judge: UpdateJudge | None = UpdateJudge(
                classifier, shipped_pair_model(), shipped_update_intent() if UPDATE_INTENT_ON else None,
                _intent_model(), vetoes, self._standing) if judge else None
            self._retraction: RetractionResolver | None = RetractionResolver(
                classifier, _intent_model(), self._standing, target) if judge else None
        else:
            self._gate = None
            self._judge = None
            self._retraction = None
            self._standing = None
            self._horizon = None
            self._fact_horizon = None
            self._day_news = None
            self._written_news = None
            self._remark = None
            self._rescue_turn = None
            self._asked_turn = None

    def standing(self, texts: list[str]) -> list[float]:
        """P(standing instruction) per text (``core.extraction.standing_instruction``), on the classifier's
        passage vectors (cached: the gate embedded the candidates already); empty without the model."""
        if self.classifier is None or self._standing is None or not texts:
            return [0.5] * len(texts)  # undecided: neither threshold applies
        return [float(p) for p in self._standing.predict_proba(self.classifier.embed(texts))]

    def rule_opener(self, texts: list[str]) -> list[float]:
        """P(the message names only a rule's domain) per text (``core.extraction.rule_opener``, loaded
        once per process), on the classifier's passage vectors; 0.0 (no opener) without the head."""
        from core.extraction.rule_opener import shipped_rule_opener

        head = shipped_rule_opener()
        if self.classifier is None or head is None or not texts:
            return [0.0] * len(texts)
        return [float(p) for p in head.predict_proba(self.classifier.embed(texts))]

    def horizon(self, texts: list[str]) -> list[float]:
        """P(of this day, week or trip) per text (``core.extraction.horizon``), on the classifier's passage
        vectors (cached: the gate embedded most of them already); undecided (0.0) without the model."""
        if self.classifier is None or self._horizon is None or not texts:
            return [0.0] * len(texts)
        return [float(p) for p in self._horizon.predict_proba(self.classifier.embed(texts))]

    def day_news(self, texts: list[str]) -> list[float]:
        """P(the day's news) per text (``core.extraction.day_news``), on the classifier's passage vectors
        (cached: the gate embedded most of them already); undecided (0.0) without the head."""
        if self.classifier is None or self._day_news is None or not texts:
            return [0.0] * len(texts)
        return [float(p) for p in self._day_news.predict_proba(self.classifier.embed(texts))]

    def _lasting(self, texts: list[str]) -> list[float]:
        """``horizon`` for the rules' time filter: of the moment (1.0) when the embedding fails, so the filter
        drops as without the model."""
        from core.embedding.base import EmbeddingError

        try:
            return self.horizon(texts)
        except EmbeddingError as exc:
            log.warning("horizon model unavailable, the time words alone: %s", exc)
            return [1.0] * len(texts)

    def _rule_reading(self, texts: list[str]) -> bool:
        """Whether a sentence with a forget cue word (``texts``: ``analysis.cued_rule_texts``) is a rule
        (``analysis.cued_rule``): no rule when the embedding fails or a model is missing, so the cue word
        decides as without the models."""
        from core.embedding.base import EmbeddingError

        intent = _intent_model()
        if self.classifier is None or self._standing is None or intent is None or not texts:
            return False
        try:
            vectors = self.classifier.embed(texts)
        except EmbeddingError as exc:
            log.warning("standing model unavailable, the forget cue words alone: %s", exc)
            return False
        return cued_rule(self._standing.predict_proba(vectors).tolist(),
                         float(intent.predict_proba(vectors[:1])[0]))

    def warm_up(self) -> None:
        """Load the classifier's embedding model and run it once (no-op without a classifier)."""
        if self.classifier is not None:
            self.classifier.predict(["warm-up"])

    def _apply_classifier(self, data: ExtractionInput) -> _Built:
        reads = self._horizon is not None and _analysis.HORIZON_KEEP > 0.0  # 0.0: no calibrated keep bar
        built = build(data, self._lasting if reads else None,
                      self._rule_reading if self._standing is not None else None)
        if self._gate is None or built.analysis is None:
            return built
        from core.embedding.base import EmbeddingError

        try:
            # the turn before, when it is the assistant's (the context models learned assistant turns; the
            # user's own earlier message is not a turn the message answers)
            last = data.context[-1] if data.context else None
            prev = last.content if last is not None and last.role == "assistant" else None
            filled = frozenset(m.key for m in data.existing)
            # the thing the user's own previous turn asked the assistant about ("have u ever had injera?"):
            # what a statement of this message that leans on it is read with (``referent.asked_thing``)
            told = next((m.content for m in reversed(data.context) if m.role == "user" and m.content.strip()),
                        None)
            asked = asked_thing(told) if told else None
            reading = self._gate.read(built.analysis, list(built.candidates), built.meta, prev, filled, asked)
        except EmbeddingError as exc:  # the rules' answer is still a sound answer
            log.warning("memory classifier unavailable, rules only for this input: %s", exc)
            return built
        # a rule the gate let through (a rescue too) read with the object said before it (``leave_out``)
        joined = objects_joined(built.analysis.message, message_clauses(built.analysis), reading.candidates)
        return _Built(tuple(joined), reading.meta, built.analysis, reading.unkept)

    def fact_horizon(self, texts: list[str]) -> list[float]:
        """``horizon`` for the statements of a fact, by the home-rows weights (``horizon.HOME_ROWS_FACTS``);
        undecided (0.0) without them."""
        if self.classifier is None or self._fact_horizon is None or not texts:
            return [0.0] * len(texts)
        return [float(p) for p in self._fact_horizon.predict_proba(self.classifier.embed(texts))]

    def _built(self, data: ExtractionInput) -> _Built:
        return self._gated(data) if self._gate is not None else build(data)  # no classifier: no horizon

    def _apply_precision(self, data: ExtractionInput) -> Precise:
        built = self._built(data)
        return precise_parts(built.candidates, data,
                             self.standing if self._standing is not None else None,
                             self._choose_referent if self._chooser is not None else None,
                             self.horizon if self._horizon is not None else None,
                             frozenset(key for key, m in built.meta.items() if m.listed),
                             self.day_news if self._day_news is not None else None,
                             self.fact_horizon if self._fact_horizon is not None else None)

    def _choose_referent(self, piece: str, message: str, previous: str | None) -> str | None:
        """The learned chooser's referent of ``piece`` (``core.extraction.rules.referent_choice``)."""
        from core.extraction.rules.referent_choice import referent_by_model

        assert self._chooser is not None and self.classifier is not None
        classifier = self.classifier
        return referent_by_model(self._chooser, classifier.embed,
                                 lambda texts: [p.p_keep for p in classifier.predict(texts)],
                                 piece, message, previous)

    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        """Stage 1: long-term memory candidates from ``data.user_message`` (never from context), after
        the precision pass (``precision.precise_parts``: no thanks, requests or moods as rules or goals, no
        pronoun without its referent). Each is in its own words: the sentence a statement leans on is
        joined in by ``refine``, once the update judge has read the statement alone."""
        # a rule split over two turns, the first naming only its domain (``two_turn``)
        return _one_per_statement(with_opener(data, list(self._precised(data).candidates),
                                              self.standing if self._standing is not None else None,
                                              self.rule_opener if self.classifier is not None else None))

    def refine(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        """Stage 2: against ``data.existing``: drop what is already known, reuse the key of the same
        slot, overwrite single slots and changed values, merge new detail into multi slots; news of a
        live project the message names updates that project (``progress.with_progress``). Last, a
        statement that leans on a thing named outside it gets that sentence joined before it
        (``precision.with_referents``): what is stored names its thing."""
        return with_referents(self._without_news(data, self._judged(data, candidates)),
                              self._precised(data).referents, data.user_message)

    def _without_news(self, data: ExtractionInput,
                      candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        """``candidates`` without the statements a write would add that the day's-news head reads as the day's
        news (``core.extraction.rules.written_news``; ``WRITTEN_NEWS_ON``), nor the remarks to the companion
        a rule's write would add (``written_news.without_remarks``; ``COMPANION_REMARK_ON``), nor the
        statements of the gate's rescues the rescue-turn head reads with their turn as no memory
        (``written_news.without_rescue_turns``; ``RESCUE_TURN_ON``)."""
        read = self._without_rescue_turns(data, self._without_day_news(data, candidates))
        read = self._without_asked_news(data, read)
        return self._without_own_subjects(data, self._without_remarks(data, read))

    def _without_asked_news(self, data: ExtractionInput,
                            candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        """``candidates`` without the statements a write would add that the asked-turn head reads, as the
        answer to the companion's question before the turn, as the day's news or a mood
        (``written_news.without_asked_news``; ``asked_turn.ASKED_TURN_ON``, read at call time). Nothing is
        read when the turn before is not the companion's or asks no question."""
        from core.extraction import asked_turn

        if not asked_turn.ASKED_TURN_ON or self._asked_turn is None or self.classifier is None \
                or not candidates or not data.context or data.context[-1].role != "assistant":
            return candidates
        question = asked_turn.asked_question(data.context[-1].content)
        if question is None:
            return candidates
        from core.extraction.rules.written_news import without_asked_news

        head, classifier = self._asked_turn, self.classifier
        built = self._built(data)

        def read(texts: list[str]) -> list[float]:
            vectors = classifier.embed([question, *texts])  # the question and the statements, one call
            return [float(p) for p in head.predict_proba(vectors[0], vectors[1:])]

        return _or_as_refined("asked-turn", candidates, lambda: without_asked_news(
            candidates, data.existing, read, asked_turn.ASKED_TURN_DROP,
            frozenset(key for key, m in built.meta.items() if m.listed)))

    def _without_own_subjects(self, data: ExtractionInput,
                              candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        """``candidates`` without the statements a write would add that name a subject of their own
        (``core.extraction.rules.written_subjects``; ``OWN_SUBJECT_PIECES_ON``)."""
        from core.extraction.rules import written_subjects

        if not written_subjects.OWN_SUBJECT_PIECES_ON or self.classifier is None or not candidates:
            return candidates
        from core.extraction.own_subject import shipped_own_subject
        from core.extraction.rules import gate_rescue
        from core.extraction.taste_subject import TASTE_SUBJECT_BAR, shipped_taste_subject

        head, classifier = shipped_own_subject(), self.classifier
        if head is None:
            return candidates
        taster = shipped_taste_subject() if gate_rescue.TASTE_SUBJECT_ON else None
        taste = None if taster is None else (
            lambda texts: [float(p) for p in taster.predict_proba(classifier.embed(texts))],
            TASTE_SUBJECT_BAR)
        built = self._built(data)
        return _or_as_refined("own-subject", candidates, lambda: written_subjects.without_own_subjects(
            candidates, data.existing,
            lambda texts: [float(p) for p in head.predict_proba(classifier.embed(texts))],
            written_subjects.OWN_SUBJECT_PIECE_BAR,
            frozenset() if written_subjects.READ_LISTED
            else frozenset(key for key, m in built.meta.items() if m.listed), taste))

    def _without_rescue_turns(self, data: ExtractionInput,
                              candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        if self._rescue_turn is None or self.classifier is None or not candidates:
            return candidates
        from core.extraction import rescue_turn
        from core.extraction.rescue_turn import RESCUE_TURN_DROP
        from core.extraction.rules.written_news import rescued_pieces, without_rescue_turns

        head, classifier = self._rescue_turn, self.classifier
        built = self._built(data)
        rescued = rescued_pieces(built.candidates, built.meta)
        # read at call time, so a test or an arm can turn it on or off on a built extractor
        others = rescue_turn.RESCUE_TURN_RULES_DROP if rescue_turn.RESCUE_TURN_RULES_ON else None
        if not rescued and others is None:
            return candidates

        def read(texts: list[str]) -> list[float]:
            vectors = classifier.embed([data.user_message, *texts])  # the turn and the statements, one call
            return [float(p) for p in head.predict_proba(vectors[1:], vectors[0])]

        return _or_as_refined("rescue-turn", candidates, lambda: without_rescue_turns(
            candidates, data.existing, rescued, read, RESCUE_TURN_DROP,
            frozenset(key for key, m in built.meta.items() if m.listed), others))

    def _without_remarks(self, data: ExtractionInput,
                         candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        if self._remark is None or self.classifier is None or not candidates:
            return candidates
        from core.extraction.companion_remark import COMPANION_REMARK_DROP
        from core.extraction.rules.written_news import without_remarks

        head, classifier = self._remark, self.classifier
        return _or_as_refined("companion-remark", candidates, lambda: without_remarks(
            candidates, data.existing,
            lambda texts: [float(p) for p in head.predict_proba(classifier.embed(texts))],
            COMPANION_REMARK_DROP))

    def _without_day_news(self, data: ExtractionInput,
                          candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        if self._written_news is None or self.classifier is None or not candidates:
            return candidates
        from core.extraction.day_news import RESCUE_NEWS_DROP, WRITTEN_NEWS_DROP
        from core.extraction.rules.written_news import rescued_pieces, without_written_news

        head, classifier = self._written_news, self.classifier
        built = self._built(data)
        return _or_as_refined("day's-news", candidates, lambda: without_written_news(
            candidates, data.existing,
            lambda texts: [float(p) for p in head.predict_proba(classifier.embed(texts))],
            WRITTEN_NEWS_DROP, self.standing if self._standing is not None else None,
            frozenset(key for key, m in built.meta.items() if m.listed),
            rescued_pieces(built.candidates, built.meta), RESCUE_NEWS_DROP))

    def _related(self, old: str, new: str) -> float:
        """The classifier's embedder's cosine between ``new`` and the nearest statement of ``old`` (a
        memory's content, its statements joined by "；"/"; ")."""
        from core.embedding.base import EmbeddingError

        assert self.classifier is not None
        try:
            return nearest_cosine(self.classifier.embed, old, new)
        except EmbeddingError as exc:  # the topic words alone decide, as without a classifier
            log.warning("embedder unavailable, merge topic check by words only: %s", exc)
            return 1.0

    def _judged(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        refined = refine_candidates(data.existing, candidates, self._built(data).meta, data.user_message,
                                    self._related if self.classifier is not None else None)
        from core.embedding.base import EmbeddingError

        if self._judge is None or not data.existing:
            refined = self._unstored_values(data, refined, refined)
            if self._retraction is not None and not data.existing:
                refined = self._withdrawn_within(data, refined)
            return _over_turns(data, refined)

        try:
            previous = next((m.content for m in reversed(data.context)
                             if m.role == "user" and m.content.strip()), None)
            judged = self._judge.apply(data.user_message, data.existing, refined, previous,
                                       self._built(data).unkept)
            judged = self._unstored_values(data, refined, judged)
            if self._retraction is not None:
                judged = self._retraction.apply(data.user_message, data.existing, judged, previous)
            judged = additions_kept(data.user_message, judged)
        except EmbeddingError as exc:  # the rules' answer is still a sound answer
            log.warning("update judge unavailable, rules only for this input: %s", exc)
            judged = refined
        return _over_turns(data, judged)

    def _unstored_values(self, data: ExtractionInput, refined: list[MemoryCandidate],
                         judged: list[MemoryCandidate]) -> list[MemoryCandidate]:
        """``judged`` (the judge's reading of ``refined`` against the live memories) and the new values the
        message gives earlier statements nothing stored holds (``judge_shadows``: with ``SHADOWS_ON``, for a
        message the update-intent model reads a change in, ``CHANGE_ONLY``)."""
        from core.embedding.base import EmbeddingError

        judge = self._judge
        if judge is None or not judge_shadows.SHADOWS_ON or self._gate is None or not data.context:
            return judged
        try:
            if judge_shadows.CHANGE_ONLY and not judge.reads_a_change(data.user_message):
                return judged
            unstored = judge_shadows.shadows(data.context, data.existing, judge.classifier, self._gate.keys)
            if not unstored:
                return judged
            previous = next((m.content for m in reversed(data.context)
                             if m.role == "user" and m.content.strip()), None)
            shadowed = judge.apply(data.user_message, (*data.existing, *unstored), refined, previous,
                                   self._built(data).unkept)
        except EmbeddingError as exc:
            log.warning("embedder unavailable, no unstored statements read: %s", exc)
            return judged
        return judge_shadows.added(judged, shadowed, unstored, refined, judge.classifier, self._gate.keys)

    def _withdrawn_within(self, data: ExtractionInput,
                          candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        """``candidates`` of a user with no live memory, without what the message withdraws within itself
        ("X……算了当我没说。对了Y": X is no memory); the resolver reads only cued sentences then."""
        from core.embedding.base import EmbeddingError

        assert self._retraction is not None
        previous = next((m.content for m in reversed(data.context)
                         if m.role == "user" and m.content.strip()), None)
        try:
            return self._retraction.apply(data.user_message, data.existing, candidates, previous)
        except EmbeddingError as exc:  # the rules' answer is still a sound answer
            log.warning("retraction resolver unavailable, rules only for this input: %s", exc)
            return candidates

    def reads_context(self, data: ExtractionInput) -> bool:
        """Whether refine has earlier turns of ``data`` to read with no candidate and no live memory
        (``core.extraction.candidates.reads_context``): an earlier statement nothing stored holds may be the
        old value of a change the message tells in chat words (``judge_shadows.reads_earlier``)."""
        return judge_shadows.reads_earlier(data)

    def named_slot(self, key: str) -> bool:
        """A slot of this extractor's catalogue, or one life event (``fact-event-*``: each event the
        user tells is its own dated fact, the same event retold gets the same key): the upsert never
        maps one of them onto another semantically, by key reuse or by merge."""
        return named_slot(key)
