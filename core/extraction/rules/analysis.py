"""Stage 1 of the rules extractor: from one user message to slot groups.

Pipeline of a message (at most its first 8000 characters / 120 clauses; clauses over 400
characters are pasted text and skipped, so any input is processed in bounded time):
1. split into clauses (``segment``);
2. per sentence: a *test* sentence ("测试一下记忆…") yields nothing; a *forget* sentence yields only
   deletions of matching memories (by topic words or by slot name: "把我的地址删了"); an AI-persona
   instruction ("你就叫小橘", "多用颜文字") taints its sentence; the payload of a task ("翻译：…",
   "write a bio saying I'm…") is not about the user;
3. per clause: a standing rule for the assistant becomes a constraint (it may span the next
   clauses, "以后只要有台风预警，就提醒我…"; a preceding time window scopes it and kills it);
   otherwise the clause is dropped when it is short-lived (time window, reminder, todo, question,
   one-off request, hypothetical, passing mood, a profile field, noise, an old state the user is
   correcting), else slot detectors fire (facts, then project / goal / preference);
4. clauses without a trigger continue the previous group of the same sentence (detail such as
   "越酸越好", "今年三岁了"), so content keeps the user's own words; a recent one-off event
   ("昨天加班到两点") never does;
5. when the user replaced a value ("现在不喝乌龙了，改喝普洱"), the clause negating the old value
   is left out.

Only ``user_message`` is a source of facts. ``context`` only resolves "here/这边" to a place the
user named earlier, a bare "forget that" (in a sentence that states nothing else) to the user's
previous turn, and a short reply to the
assistant's question ("Favorite game?" -> "Wingspan"; "所以以后都用中文？" -> "对"), where the
fact is the user's answer and the question only its frame.

Helpers by responsibility: ``detectors`` (the fact and intent slot detectors, ``Hit``),
``constraints`` (standing rules for the assistant), ``forget`` (forget requests and the deletions they
make), ``topics`` (topic words, forget-topic matching), ``places`` (place names), ``followup`` (short
replies to the assistant's question), ``questions`` (is a clause a question), ``patterns`` and
``lexicon`` (the compiled patterns and word lists), ``segment`` (clauses).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput
from core.extraction.horizon import HORIZON_DROP, HORIZON_KEEP
from core.extraction.retraction_intent import INTENT_P
from core.extraction.rules import forget, patterns
from core.extraction.rules.constraints import ConstraintDetectors, changed_rule
from core.extraction.rules.detectors import Hit, SlotDetectors
from core.extraction.rules.events import dated, event_hit
from core.extraction.rules.followup import bare_answer, first_sentence_answer, followup_statement
from core.extraction.rules.forget import Deletion
from core.extraction.rules.keys import salient_tokens
from core.extraction.rules.places import places_in
from core.extraction.rules.questions import is_question
from core.extraction.rules.segment import (
    Clause,
    clean_content,
    has_cjk,
    join_clauses,
    normalise,
    split_clauses,
)
from core.extraction.rules.topics import topic_of
from core.extraction.standing_instruction import STANDING_RESCUE
from core.filters import is_noise_content
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

MAX_MESSAGE_CHARS = 8000
MAX_CLAUSES = 120
MAX_CLAUSE_CHARS = 400

# a clause that only names the topic of the next one ("As for writing, I like to create poems")
_LEAD_TOPIC = re.compile(r"^(?:as for|speaking of|when it comes to|regarding|至于|说到|说起|谈到|关于)\s*\S|"
                         # the frame of a project told after it ("side thing on weekends rn: rigging a …")
                         r"^(?:(?:my|a|the|current|new|little|big|fun)\s+)*(?:side|weekend|passion|pet|hobby|"
                         r"lockdown|winter|summer|evening) (?:thing|project|hustle|quest|build)s?\b|"
                         r"^(?:我的?)?(?:业余|周末|下班后)(?:的)?(?:小)?(?:项目|副业|爱好项目)")


# a clause telling of the user's own project in progress, and a task's address to the assistant
_OWN_PROJECT = re.compile(r"(?:在|正在|最近在|一直在)(?:搞|做|弄|折腾|捣鼓)(?:一个|个)?\s*"
                          r"(?:side project|副业|小?项目|业余项目|个人项目|东西|小工具)|"
                          r"\b(?:working on|building) (?:a|my) (?:little )?"
                          r"(?:side )?(?:project|thing)\b")
_ASKED = re.compile(r"^(?:帮我|请|麻烦|你|给我)|^(?:please|pls|can you|could you)\b")


@dataclass
class _Result:
    hits: list[Hit]
    reason: str | None
    absorbed: bool = False


@dataclass
class Group:
    key: str
    hit: Hit
    sentence: int
    clauses: list[Clause] = field(default_factory=list)


@dataclass
class Analysis:
    groups: list[Group]
    deletions: list[Deletion]
    forget_topics: list[str]
    change_sentences: set[int]
    message: str
    lang_zh: bool
    dropped: dict[int, str] = field(default_factory=dict)  # clause index -> reason (for debugging/tests)
    forgotten_slots: set[str] = field(default_factory=set)  # slots the user named in a forget request
    # clauses where a detector fired but which continue the group before them (a weak hit, or a taste after a
    # taste): where the gate may cut a memory of another type out of that group (``gate_units.split_points``)
    absorbed_hits: set[int] = field(default_factory=set)
    # every clause of the message (its first ``MAX_MESSAGE_CHARS`` characters, ``MAX_CLAUSES`` clauses), split
    # once here and read by the gate (``message_clauses``)
    clauses: list[Clause] = field(default_factory=list)


def message_clauses(analysis: Analysis) -> list[Clause]:
    """The message's clauses as the analyser split them (split here for an ``Analysis`` made without
    them)."""
    return analysis.clauses or split_clauses(analysis.message[:MAX_MESSAGE_CHARS], MAX_CLAUSES)


# --- the analyser ----------------------------------------------------------------------------
_CUE_CLAUSE = re.compile(r"[^,，;；。!！?？]+")


def cued_rule_texts(sentence: str) -> list[str]:
    """What the standing model reads of a sentence with a forget cue word (``patterns.FORGET``) to call it a
    rule (``CUED_RULE``): the sentence and its clauses with the cue word; empty without the cue word. The
    retraction resolver and the update judge read a sentence this way before they withdraw on it."""
    if not patterns.FORGET.search(normalise(sentence)):
        return []
    parts = [p.strip() for p in _CUE_CLAUSE.findall(sentence) if p.strip()]
    return list(dict.fromkeys([sentence, *(p for p in parts if patterns.FORGET.search(normalise(p)))]))


def cued_rule(rule_p: Sequence[float], withdrawal_p: float) -> bool:
    """A sentence with a forget cue word is a rule: the standing model reads it or one of its cued
    clauses (``rule_p``, in the order of ``cued_rule_texts``) at ``CUED_RULE`` or more, and the
    retraction-intent model reads the sentence (``withdrawal_p``) under ``CUED_WITHDRAWAL``."""
    return bool(rule_p) and max(rule_p) >= CUED_RULE and withdrawal_p < CUED_WITHDRAWAL


CUED_RULE_ON = True
"""A forget cue word ("去掉", "删掉") inside a sentence the standing-instruction model reads as a rule is
part of the rule, not a request to forget (``_Analyser._cued_rule``; the retraction resolver reads it the
same way)."""
CUED_RULE = STANDING_RESCUE
"""The standing model's reading at or over which a cued sentence is a rule: the rescue's bar for a rule said
in chat words (0.60). On the readable sets' 89 cued sentences (every retraction request of the dev sets and
the pooled tune halves) one reads over it, an update ("forget the motorbike plan, putting the money toward …",
0.80), which the retraction-intent model reads at 0.74 (``CUED_WITHDRAWAL``)."""
CUED_WITHDRAWAL = INTENT_P
"""The retraction-intent model's reading of the sentence under which a cued sentence may be a rule: its own
bar for a withdrawal (0.70). The rules about what to leave out written for this reading read 0.51-0.60."""
HorizonReading = Callable[[list[str]], list[float]]
"""P(of this day, week or trip) per text (``core.extraction.horizon`` through the extractor's classifier)."""
RuleReading = Callable[[list[str]], bool]
"""Whether a sentence with a forget cue word, read as ``cued_rule_texts`` gives it, is a rule (``cued_rule``
on the standing-instruction and retraction-intent models, through the extractor's classifier)."""


class _Analyser(SlotDetectors, ConstraintDetectors):
    def __init__(self, data: ExtractionInput, horizon: HorizonReading | None = None,
                 rule: RuleReading | None = None) -> None:
        self.data = data
        self.horizon = horizon
        self.rule = rule
        self.message = data.user_message or ""
        # bounded work on any input: the first clauses only; a huge clause is pasted text
        self.clauses = split_clauses(self.message[:MAX_MESSAGE_CHARS], MAX_CLAUSES)
        self.lang_zh = has_cjk(self.message)
        self.dropped: dict[int, str] = {}
        self.absorbed_hits: set[int] = set()
        self._last_place = ""
        self._constraint_keys: set[str] = set()  # constraints stated earlier in this message
        self._payload_from = 1 << 30  # clauses after a "translate:"-style lead-in are the task's payload
        self.existing: tuple[ExistingMemory, ...] = data.existing
        self.sentences: dict[int, list[Clause]] = {}
        for clause in self.clauses:
            if len(clause.text) > MAX_CLAUSE_CHARS:
                self.dropped[clause.index] = "too-long"
                continue
            self.sentences.setdefault(clause.sentence, []).append(clause)

    # -- context --------------------------------------------------------------------------
    def _context_place(self, before: int) -> str | None:
        for clause in reversed(self.clauses[:before]):
            places = places_in(clause.text)
            if places:
                return places[-1]
        for msg in reversed(self.data.context):
            if msg.role != "user":
                continue
            places = places_in(msg.content)
            if places:
                return places[-1]
        return None

    def _next_sentence(self, clauses: list[Clause]) -> list[Clause]:
        """The clauses of the sentence after ``clauses``' (detail of a life event told there)."""
        return self.sentences.get(clauses[-1].sentence + 1, []) if clauses else []

    # -- sentence level -----------------------------------------------------------------------
    def run(self) -> Analysis:
        deletions: list[Deletion] = []
        forget_topics: list[str] = []
        change_sentences: set[int] = set()
        kept: list[list[Clause]] = []
        for sentence, clauses in self.sentences.items():
            clauses = [c for c in clauses if c.index <= self._payload_from]
            if not clauses:
                continue
            text = " ".join(c.norm for c in clauses)
            if patterns.CHANGE.search(text) or any(patterns.PAST_REF.search(c.norm) for c in clauses) \
                    or any(changed_rule(c.norm, self.existing) for c in clauses):
                change_sentences.add(sentence)  # a new value for a rule ("…, cap it at 3") is a change too
            if patterns.TEST.search(text):
                for c in clauses:
                    self.dropped[c.index] = "test"
                continue
            if any(patterns.FORGET.search(c.norm) for c in clauses) and not forget.is_about_self(text) \
                    and not patterns.KEEP_REMINDER.search(normalise(text)) and not self._cued_rule(clauses):
                topics = forget.forget_topics(clauses, self.data.context)
                forget_topics.extend(topics)
                deletions.extend(forget.deletions_for(topics, self.existing))
                for c in clauses:
                    self.dropped[c.index] = "forget"
                continue
            kept.append(self._without_payload(clauses))
        results = {id(clauses): self._sentence_results(clauses) for clauses in kept}
        self._drop_replaced_values(kept, results, change_sentences)
        groups: list[Group] = []
        for clauses in kept:
            groups.extend(self._sentence_groups(clauses, results[id(clauses)]))
        groups = _fold_grounds(groups)
        forgotten = {slot for topic in forget_topics for slot, rx in patterns.SLOT_NAMES.items()
                     if rx.search(normalise(topic))}
        return Analysis(groups, deletions, forget_topics, change_sentences, self.message, self.lang_zh,
                        self.dropped, forgotten, self.absorbed_hits, self.clauses)

    def _cued_rule(self, clauses: list[Clause]) -> bool:
        """A sentence with a forget cue word that the standing-instruction model reads as a rule for
        what the assistant writes from now on ("以后给我的回答把表情符号都去掉", "给我推荐菜的时候把辣的都
        去掉"): the sentence or one of its cued clauses at ``CUED_RULE`` or more. It is read as a statement,
        not a request to forget (``CUED_RULE_ON``; unset without the model)."""
        if self.rule is None or not CUED_RULE_ON:
            return False
        texts = cued_rule_texts(" ".join(c.text for c in clauses))
        return bool(texts) and self.rule(texts)

    def _sentence_results(self, clauses: list[Clause]) -> list[_Result]:
        """Per clause: its hits and drop reason; clauses swallowed by a multi-clause rule are marked."""
        out: list[_Result] = []
        absorbed_until = -1
        for pos in range(len(clauses)):
            if pos <= absorbed_until:
                out.append(_Result([], None, absorbed=True))
                continue
            hits, reason = self._clause_hits(clauses, pos)
            span = max((h.span for h in hits), default=0)
            absorbed_until = max(absorbed_until, pos + span)
            out.append(_Result(hits, reason))
        return out

    def _drop_replaced_values(self, kept: list[list[Clause]], results: dict[int, list[_Result]],
                              change_sentences: set[int]) -> None:
        """"现在不喝乌龙了，改喝普洱": when the user replaces a value, the clause that negates the old
        value is not part of the new memory (its slot is filled by the replacement)."""
        keys_by_clause: dict[int, set[str]] = {}
        for clauses in kept:
            for clause, res in zip(clauses, results[id(clauses)], strict=True):
                keys_by_clause[clause.index] = {h.key for h in res.hits if h.op is CandidateOp.UPSERT}
        for clauses in kept:
            for clause, res in zip(clauses, results[id(clauses)], strict=True):
                if clause.sentence not in change_sentences or not patterns.NEGATED_OLD.search(clause.norm):
                    continue
                mine = keys_by_clause.get(clause.index, set())
                others = set().union(*(k for i, k in keys_by_clause.items() if i != clause.index))
                if mine and mine & others:
                    res.hits = [h for h in res.hits if h.op is CandidateOp.DELETE]
                    res.reason = "replaced-value" if not res.hits else None

    def _without_payload(self, clauses: list[Clause]) -> list[Clause]:
        """Text the user hands over for a task ("翻译：…", "write a bio saying I'm…") is not about
        the user; an AI-persona instruction ("你叫小橘", "多用颜文字") taints its whole sentence."""
        out: list[Clause] = []
        for clause in clauses:
            if patterns.PERSONA.search(clause.norm):
                for c in clauses:
                    self.dropped[c.index] = "profile"
                return []
            if patterns.TASK.search(clause.norm) and not (
                    out and _OWN_PROJECT.search(out[-1].norm) and not _ASKED.search(clause.norm)):
                # (after "最近在搞一个 side project", "写个记账的 telegram bot…" tells what it is: no task)
                for c in clauses[clauses.index(clause):]:
                    self.dropped[c.index] = "task-payload"
                if clause.terminator in {":", "："}:
                    self._payload_from = clause.index
                break
            out.append(clause)
        return out

    # -- clause level -------------------------------------------------------------------------
    def _sentence_groups(self, clauses: list[Clause], results: list[_Result]) -> list[Group]:
        groups: list[Group] = []
        active: list[Group] = []
        for pos, (clause, res) in enumerate(zip(clauses, results, strict=True)):
            if res.absorbed:
                continue
            hits, reason = res.hits, res.reason
            if reason is not None:
                self.dropped[clause.index] = reason
                active = []
                continue
            if hits and active and not patterns.TOPIC_SHIFT.search(clause.norm) and (
                    all(h.weak for h in hits) or all(_same_kind(h, active) for h in hits)
                    or _relatives_detail(clause, hits, active)):
                self.absorbed_hits.add(clause.index)
                hits = []  # a detail of the preference/goal this sentence is already about
            if hits:
                previous, active = active, []
                for hit in hits:
                    pending = next((g for g in previous if g.key == hit.key.split("-")[0] + "-pending"), None)
                    if pending is not None and not hit.key.endswith("-pending"):
                        pending.key, pending.hit = hit.key, hit
                    group = next((g for g in groups if g.key == hit.key and g.hit.op == hit.op), None)
                    if group is None:
                        group = Group(hit.key, hit, clause.sentence)
                        groups.append(group)
                    lead = clauses[pos - 1] if pos > 0 else None
                    if lead is not None and self.dropped.get(lead.index) == "no-trigger" \
                            and _LEAD_TOPIC.search(lead.norm) and lead not in group.clauses:
                        group.clauses.append(lead)  # "As for writing, I like to create poems"
                    group.clauses.append(clause)
                    group.clauses.extend(clauses[pos + 1: pos + 1 + hit.span])
                    if hit.absorbs and hit.content is None and hit.op is CandidateOp.UPSERT:
                        active.append(group)
                continue
            if active and not patterns.TOPIC_SHIFT.search(clause.norm) \
                    and not patterns.RECENT_PAST.search(clause.norm):
                for group in active:
                    if len(group.clauses) < 6:
                        group.clauses.append(clause)
                continue
            self.dropped[clause.index] = "no-trigger"
            active = []
        return groups

    def _clause_hits(self, clauses: list[Clause], pos: int) -> tuple[list[Hit], str | None]:
        clause = clauses[pos]
        if len(clause.text) > MAX_CLAUSE_CHARS:
            return [], "too-long"
        body = normalise(clean_content(patterns.MEMORY_REQUEST_PREFIX.sub("", clause.norm))) or clause.norm
        if is_noise_content(clause.text):
            return [], "noise"
        emoji_rule = clause.had_emoji and patterns.ASSISTANT_STRONG.search(body) and re.search(
            r"加|add|use|用|结尾|end", body)
        if patterns.PROFILE.search(body) or emoji_rule:
            return [], "profile"
        if patterns.WRONG_SLOT.search(body):
            return [], "wrong-slot"
        if patterns.PRAISE.search(body):
            return [], "pleasantry"
        if _PLOT.search(body):
            return [], "plot"  # what a film or book is about is not the user's own goal or taste
        retractions = self._retractions(body)
        if patterns.PAST_REF.search(body) and not patterns.JOB_HISTORY_EN.search(body):
            return retractions, ("past" if not retractions else None)
        constraint = self._constraint(clauses, pos, body) or self._value_change(body)
        if constraint is not None:
            return [constraint], None
        if patterns.TIME_HARD.search(body):
            event = None if retractions else event_hit(clauses, pos, body, self.data.sent_at,
                                                                  self._next_sentence(clauses))
            if retractions or event or not self._lasts(clauses, pos):
                return retractions or ([event] if event else []), \
                    ("time" if not (retractions or event) else None)
            # a lasting statement with a near date ("we move to Lisbon next month"): read like any other
        if patterns.TIME_SOFT.search(body) and not patterns.HABIT.search(body):
            return [], "time-soft"  # a weekday or a clock time: the classifier may still keep a habit
        if is_question(body) and not _CLEFT.search(body):
            return [], "question"
        if clause.terminator in {"?", "？"}:  # a statement said with a rising tone ("I'm kinda into X now?")
            return [], "question-mark"  # the classifier may still keep it (``gate``: an overridable drop)
        if patterns.REQUEST.search(body) and not (
                patterns.DISLIKE.search(body) and topic_of("preference", body)) and not (
                pos > 0 and _OWN_PROJECT.search(clauses[pos - 1].norm) and not _ASKED.search(body)):
            return [], "request"
        if _make_believe(clauses, pos):
            return [], "make-believe"  # never rescued: a game's premise is nobody's fact
        if patterns.HYPOTHETICAL.search(body) or _consequent(clauses, pos, body):
            return [], "hypothetical"
        if patterns.ACK_COMMIT.search(body) or (
                patterns.ACK_ADVICE.search(body) and not topic_of("goal", body)):
            return [], "ack"
        if patterns.TRANSIENT.search(body):
            return [], "transient"
        if pos > 0 and _about_someone_else(clauses[0].norm) and not patterns.FIRST_PERSON.search(body):
            # "我 roommate 是个 vegan，所以冰箱里基本没有肉": the rest of a sentence about a friend or
            # colleague is theirs, not the user's (a rescue may still file it as a fact about friends)
            return [], "no-trigger"
        ahead = " ".join(c.norm for c in clauses[pos - 1 if pos and _LEAD_TOPIC.search(clauses[pos - 1].norm)
                                                 else pos: pos + 3])
        intent = [] if patterns.RECENT_PAST.search(body) else self._intent(clause, body, ahead)
        hits = retractions + self._facts(clause, body, pos) + intent
        if not hits:
            followup = self._followup_constraint(body)
            if followup is not None:
                hits.append(followup)
        if not retractions:  # a life event (``events``): its own dated fact, or the date of a fact slot
            event = event_hit(clauses, pos, body, self.data.sent_at, self._next_sentence(clauses))
            if event is not None:
                hits = [dated(h, event.date) for h in hits] if hits else [event]
        return hits, None

    # -- detectors ----------------------------------------------------------------------------
    def _lasts(self, clauses: list[Clause], pos: int) -> bool:
        """The horizon model reads the clause as lasting (``HORIZON_KEEP`` or less), or its sentence as
        lasting and the clause not as of the moment ("passing my driving test next month, my big goal")."""
        if self.horizon is None or HORIZON_KEEP <= 0.0:
            return False  # no calibrated keep bar: the time words alone decide
        clause = self.message[clauses[pos].start:clauses[pos].end]
        sentence = self.message[clauses[0].start:clauses[-1].end]
        texts = [clause] if sentence == clause else [clause, sentence]
        p = self.horizon(texts)
        return p[0] <= HORIZON_KEEP or (len(p) > 1 and p[1] <= HORIZON_KEEP and p[0] < HORIZON_DROP)

    def _retractions(self, body: str) -> list[Hit]:
        hits: list[Hit] = []
        if patterns.DIET_RETRACT.search(body):
            hits.append(Hit("preference-diet", 0.85, op=CandidateOp.DELETE, absorbs=False))
        if patterns.BREAKUP.search(body):
            hits.append(Hit("fact-relationship", 0.85, op=CandidateOp.DELETE, absorbs=False))
        if patterns.JOB_LOSS.search(body) and not patterns.JOB_ENDS_SOON.search(body):
            hits.append(Hit("fact-job", 0.8, op=CandidateOp.DELETE, absorbs=False))
        return hits


# "what I actually enjoy is…", "我最喜欢的其实是…": a statement, not a question
_CLEFT = re.compile(r"^what (?:i|we) (?:\w+ )?(?:love|like|enjoy|want|need|prefer|miss|hate|care about|do)"
                    r" (?:\w+ )?(?:is|are)\b")
# the plot of a story, film or book: "讲述的是一个父亲为了女儿的梦想…", "it's about a girl who wants to…"
_PLOT = re.compile(
    r"^(?:这|那)?(?:部|本|个)?(?:电影|电视剧|小说|书|故事|片子|剧)?(?:主要)?(?:讲述|讲|描述|描写)(?:的是|了)|"
    r"^(?:it|the (?:film|movie|book|novel|story|show|series|plot))(?:'s| is) about\b|"
    r"^(?:it|the (?:film|movie|book|novel|story|show|series)) (?:tells|follows) the story of\b")
_GROUNDS = ("fact-diet", "preference-diet", "fact-allergy")
_BECAUSE = re.compile(r"\bso\b|\btherefore\b|\bthat'?s why\b|所以|因此|因为|就")


def _fold_grounds(groups: list[Group]) -> list[Group]:
    """A diet or allergy fact stated as the reason of a rule in the same sentence ("I'm vegetarian,
    so never suggest meat", "我对花生过敏，以后推荐菜谱要避开花生") is one memory: the rule, its
    content keeping the fact, so the fact and the rule are not two near-duplicates."""
    out = list(groups)
    for rule in groups:
        if not rule.key.startswith("constraint-") or rule.hit.op is not CandidateOp.UPSERT:
            continue
        rule_text = " ".join(c.norm for c in rule.clauses)
        for ground in groups:
            if ground.key not in _GROUNDS or ground.sentence != rule.sentence or ground not in out \
                    or ground.hit.op is not CandidateOp.UPSERT or ground.hit.content is not None:
                continue
            ground_text = " ".join(c.norm for c in ground.clauses)
            if rule.key == "constraint-food" or _BECAUSE.search(rule_text) \
                    or salient_tokens(ground_text) & salient_tokens(rule_text):
                rule.clauses = sorted(ground.clauses + rule.clauses, key=lambda c: c.index)
                out.remove(ground)
    return out


def _about_someone_else(first_clause: str) -> bool:
    """The sentence's subject is someone other than the user and not a relative or partner (whose
    details join the family fact, ``gate_units.fold_third_party``)."""
    return bool(patterns.THIRD_PARTY_START.search(first_clause)) \
        and not patterns.FAMILY_SUBJECT.search(first_clause)


_RELATIONSHIP_KEYS = frozenset({"fact-family", "fact-friends"})


def relative_subject(norm: str) -> bool:
    """A relative, partner or friend is the subject of the clause ("我老公…", "my sister …")."""
    return bool(patterns.FAMILY_SUBJECT.search(norm) or patterns.FRIEND_SUBJECT.search(norm))


def theirs_after(key: str, before: str, clause: str) -> bool:
    """In a relationship memory (``key``), ``clause`` has no subject of its own and follows a relative's
    statement ``before``: it says more of the relative (a retraction of them takes it too)."""
    return key in _RELATIONSHIP_KEYS and relative_subject(normalise(before)) \
        and not patterns.FIRST_PERSON.search(normalise(clause))


def _relatives_detail(clause: Clause, hits: list[Hit], active: list[Group]) -> bool:
    """A fact clause with no subject of its own right after a relative's or friend's statement is theirs
    ("我老公叫王磊，在华为上班": the husband's job, not the user's; "my sister is a nurse, lives in
    leeds")."""
    theirs = any(g.key in _RELATIONSHIP_KEYS and g.clauses and relative_subject(g.clauses[0].norm)
                 for g in active)
    return theirs and not patterns.FIRST_PERSON.search(clause.norm) and all(
        h.op is CandidateOp.UPSERT and h.key.startswith("fact-") and h.key not in _RELATIONSHIP_KEYS
        for h in hits)


def _same_kind(hit: Hit, active: list[Group]) -> bool:
    kind = hit.key.split("-")[0]
    return hit.op is CandidateOp.UPSERT and kind == "preference" and any(
        g.key.split("-")[0] == kind for g in active)


def _with_first_answer(analysis: Analysis, data: ExtractionInput,
                       horizon: HorizonReading | None = None, rule: RuleReading | None = None) -> Analysis:
    """"Where do you teach?" -> "albuquerque. also i brew…": the place answered first is the user's too."""
    head = first_sentence_answer(data) if data.context else None
    if head is None or any(c.index == 0 for g in analysis.groups for c in g.clauses):
        return analysis
    text, cap = head
    again = _Analyser(ExtractionInput(text, (), data.summary, data.existing, data.sent_at), horizon,
                      rule).run()
    for group in again.groups:
        content = group.hit.content or join_clauses(text, group.clauses, again.lang_zh)
        group.hit.content, group.clauses = content, []  # its words are the restatement's
        group.hit.confidence = min(group.hit.confidence, cap)
        group.hit.force_merge = True  # where the user does it: a detail of the slot, no new value
    analysis.groups[:0] = again.groups
    return analysis


BARE_ANSWER_CAP = 0.8  # confidence of a memory read from a bare answer in its question's frame


def _bare_answered(data: ExtractionInput, horizon: HorizonReading | None,
                   rule: RuleReading | None = None) -> Analysis | None:
    """A bare reply to the assistant's content question ("搬到哪里去了？" -> "厦门") read as its
    restatement in the question's frame (``followup.bare_answer``): the rules' slot detectors and, in the
    gate, the classifier read the restatement, not the fragment ("night porter at a hotel" alone is no
    job)."""
    restated = bare_answer(data)
    if restated is None:
        return None
    again = _Analyser(ExtractionInput(restated, (), data.summary, data.existing, data.sent_at), horizon,
                      rule).run()
    if again.deletions:
        return None
    for group in again.groups:
        group.hit.confidence = min(group.hit.confidence, BARE_ANSWER_CAP)
    return again


def analyse(data: ExtractionInput, horizon: HorizonReading | None = None,
            rule: RuleReading | None = None) -> Analysis:
    """The rules' reading of ``data.user_message``; ``horizon``: the horizon model, which lets a lasting
    statement with a near date past the hard time filter (unset: the time words alone decide); ``rule``: the
    standing-instruction model, which reads a forget cue word in a rule as part of the rule
    (``_Analyser._cued_rule``; unset: the cue word alone decides)."""
    answered = _bare_answered(data, horizon, rule) if data.context else None
    if answered is not None:
        return answered
    analysis = _Analyser(data, horizon, rule).run()
    if analysis.groups or analysis.deletions:
        return _with_first_answer(analysis, data, horizon, rule)
    restated = followup_statement(data)
    if restated is None:
        return _with_first_answer(analysis, data, horizon, rule)
    text, cap = restated
    again = _Analyser(ExtractionInput(text, (), data.summary, data.existing, data.sent_at), horizon,
                      rule).run()
    for group in again.groups:
        group.hit.confidence = min(group.hit.confidence, cap)
    return again


# the user's part in a hypothetical told in clauses of its own: the consequence after its condition
# ("假如我是老板，我就天天放假", "if i won the lottery, i'd quit"), and whatever follows a make-believe
# frame in the same sentence ("pretend you're my landlord and i'm a tenant …", "我们来玩角色扮演，我是…")
_CONSEQUENT = re.compile(r"^(?:那|那么|那样)?(?:的话)?我(?:就|肯定|一定|绝对|会|才|也会)|"
                         r"^(?:(?:and|then|so)\s+)*i(?:'d| would| could| might)\b")
_MAKE_BELIEVE = re.compile(r"^(?:(?:ok|okay|so|hey|now|let'?s|lets|can we|we)\s+)*(?:pretend|imagine|say|"
                           r"role-?play|roleplay|play a game)\b|"
                           r"^(?:好|那|我们|咱们|来|一起)*(?:假装|假设|扮演|玩(?:个|一个)?(?:游戏|角色扮演)|角色扮演)")


def _earlier(clauses: list[Clause], pos: int) -> list[Clause]:
    return [c for c in clauses[:pos] if c.sentence == clauses[pos].sentence]


def _consequent(clauses: list[Clause], pos: int, body: str) -> bool:
    """The clause at ``pos`` is the user's consequence of the condition just before it (see above)."""
    before = _earlier(clauses, pos)
    return bool(before and patterns.HYPOTHETICAL.search(before[-1].norm) and _CONSEQUENT.search(body))


def _make_believe(clauses: list[Clause], pos: int) -> bool:
    """The clause at ``pos`` follows a make-believe frame of its sentence (see above)."""
    return any(_MAKE_BELIEVE.search(c.norm) for c in _earlier(clauses, pos))
