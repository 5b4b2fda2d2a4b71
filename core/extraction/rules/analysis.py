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

Helpers by responsibility: ``detectors`` (the fact and intent slot detectors, ``Hit``), ``topics``
(topic words, forget-topic matching), ``places`` (place names), ``followup`` (short replies to the
assistant's question), ``patterns`` and ``lexicon`` (the compiled patterns and word lists),
``segment`` (clauses).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput
from core.extraction.rules import patterns
from core.extraction.rules.detectors import Hit, SlotDetectors
from core.extraction.rules.events import dated, event_hit
from core.extraction.rules.followup import followup_statement
from core.extraction.rules.keys import content_slug, salient_tokens
from core.extraction.rules.places import (
    places_in,
)
from core.extraction.rules.segment import Clause, clean_content, has_cjk, normalise, split_clauses
from core.extraction.rules.topics import topic_matches, topic_of
from core.filters import is_noise_content
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

MAX_MESSAGE_CHARS = 8000
MAX_CLAUSES = 120
MAX_CLAUSE_CHARS = 400
# discourse lead-ins that carry no topic ("also", "对了")
_LEAD_IN = re.compile(r"^(?:also|and|oh|ok(?:ay)?|so|well|by the way|btw|"
                      r"还有|对了|另外|哦|嗯|那|然后)[,，\s]*")


# a clause that only names the topic of the next one ("As for writing, I like to create poems")
_LEAD_TOPIC = re.compile(r"^(?:as for|speaking of|when it comes to|regarding|至于|说到|说起|谈到|关于)\s*\S")


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
class Deletion:
    key: str
    memory_type: str
    content: str


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


_REPLY_TOPICS = {"reply_length", "format", "language", "tone", "code_comments", "code_style", "shell"}


# --- the analyser ----------------------------------------------------------------------------
class _Analyser(SlotDetectors):
    def __init__(self, data: ExtractionInput) -> None:
        self.data = data
        self.message = data.user_message or ""
        # bounded work on any input: the first clauses only; a huge clause is pasted text
        self.clauses = split_clauses(self.message[:MAX_MESSAGE_CHARS], MAX_CLAUSES)
        self.lang_zh = has_cjk(self.message)
        self.dropped: dict[int, str] = {}
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

    def _previous_user_turn(self) -> str | None:
        for msg in reversed(self.data.context):
            if msg.role == "user" and msg.content.strip():
                return msg.content
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
            if patterns.CHANGE.search(text) or any(patterns.PAST_REF.search(c.norm) for c in clauses):
                change_sentences.add(sentence)
            if patterns.TEST.search(text):
                for c in clauses:
                    self.dropped[c.index] = "test"
                continue
            if any(patterns.FORGET.search(c.norm) for c in clauses) and not self._forget_is_about_self(text) \
                    and not patterns.KEEP_REMINDER.search(normalise(text)):
                topics = self._forget_topics(clauses)
                forget_topics.extend(topics)
                deletions.extend(self._deletions_for(topics))
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
                        self.dropped, forgotten)

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
            if patterns.TASK.search(clause.norm):
                for c in clauses[clauses.index(clause):]:
                    self.dropped[c.index] = "task-payload"
                if clause.terminator in {":", "："}:
                    self._payload_from = clause.index
                break
            out.append(clause)
        return out

    @staticmethod
    def _forget_is_about_self(text: str) -> bool:
        """"我忘了带钥匙" / "I forgot my keys" is the user forgetting, not a request to forget."""
        return bool(re.search(r"我(?:又|总|老|经常|差点)?忘(?:了|记)" + re.not_followed_by("吧")
                              + r"|\bi (?:always |"
                              r"often |keep )?forg[eo]t\b", text)) \
            and not re.search(r"你|帮我|别记|不要记|删|memory|记忆|please|pls|forget (?:about )?(?:the|"
                              r"that|this|it)\b",
                              text)

    def _forget_topics(self, clauses: list[Clause]) -> list[str]:
        topics: list[str] = []
        for c in clauses:
            for rx in (patterns.FORGET_TOPIC_ZH_BA, patterns.FORGET_TOPIC_ZH, patterns.FORGET_TOPIC_EN):
                for m in rx.finditer(c.norm):
                    topic = re.sub(r"^(?:算了|对了|还有|哦|嗯|那|就|关于|"
                                   r"把|我的|我|你|about|the|my)+", "", m.group("t")).strip(
                        " 的,，")
                    if has_cjk(topic):
                        topic = patterns.FORGET_TOPIC_NOISE.sub("", topic).strip(" 的,，")
                    if topic and topic.lower() not in patterns.FORGET_STOP and len(topic) >= 2:
                        topics.append(topic)
        if not topics:
            # a bare "forget that" after a statement in the same sentence ("I don't watch horror
            # movies anymore, please forget that") is about that statement, not the previous turn
            own = [c.text for c in clauses if not patterns.FORGET.search(c.norm)
                   and salient_tokens(_LEAD_IN.sub("", c.norm))]
            if own:
                return [" ".join(own)]
            prev = self._previous_user_turn()
            if prev:
                topics.append(prev)
        return topics

    def _deletions_for(self, topics: list[str]) -> list[Deletion]:
        slots = {slot for topic in topics for slot, rx in patterns.SLOT_NAMES.items()
                 if rx.search(normalise(topic))}
        out: list[Deletion] = []
        for memory in self.existing:
            named = memory.key in slots
            if named or any(topic_matches(topic, memory.key + " " + memory.content) for topic in topics):
                out.append(Deletion(memory.key, memory.memory_type, memory.content))
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
                    all(h.weak for h in hits) or all(_same_kind(h, active) for h in hits)):
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
        constraint = self._constraint(clauses, pos, body)
        if constraint is not None:
            return [constraint], None
        if patterns.TIME_HARD.search(body):
            event = None if retractions else event_hit(clauses, pos, body, self.data.sent_at,
                                                                  self._next_sentence(clauses))
            return retractions or ([event] if event else []), ("time" if not (retractions or event) else None)
        if patterns.TIME_SOFT.search(body) and not patterns.HABIT.search(body):
            return [], "time"
        if patterns.is_question(body) or clause.terminator in {"?", "？"}:
            return [], "question"
        if patterns.REQUEST.search(body) and not (
                patterns.DISLIKE.search(body) and topic_of("preference", body)):
            return [], "request"
        if patterns.HYPOTHETICAL.search(body):
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
    def _retractions(self, body: str) -> list[Hit]:
        hits: list[Hit] = []
        if patterns.DIET_RETRACT.search(body):
            hits.append(Hit("fact-diet", 0.85, op=CandidateOp.DELETE, absorbs=False))
        if patterns.BREAKUP.search(body):
            hits.append(Hit("fact-relationship", 0.85, op=CandidateOp.DELETE, absorbs=False))
        if patterns.JOB_LOSS.search(body):
            hits.append(Hit("fact-job", 0.8, op=CandidateOp.DELETE, absorbs=False))
        return hits

    def _constraint(self, clauses: list[Clause], pos: int, body: str) -> Hit | None:
        """A standing rule for the assistant, possibly spanning the next clauses of the sentence
        ("以后只要有台风预警，就提醒我…", "whenever there's a storm warning, remind me to…")."""
        if pos > 0 and patterns.TIME_HARD.search(clauses[pos - 1].norm) \
                and not patterns.TOPIC_SHIFT.search(body):
            return None  # "下个月出差期间，每天提醒我打卡": the window scopes the rule
        if _NEVER_MIND.search(body):
            return None  # "never mind the Rust rewrite" withdraws something, it is no rule
        if _ASSOCIATION.search(body):
            return None  # "these flowers always remind me of my wedding" is a feeling, not a request
        style = patterns.STYLE_DIRECTIVE.search(body)
        if not (patterns.LONGTERM.search(body) or patterns.LONGTERM_WEAK.search(body)
                or patterns.CONDITION_START.search(body) or patterns.RECURRING.search(body)
                or patterns.REPLY_WORD.search(body) or style):
            return None
        joined = ""
        for extra, c in enumerate(clauses[pos: pos + 3]):
            text = patterns.MEMORY_REQUEST_PREFIX.sub("", c.norm)
            if patterns.PROFILE.search(text) or patterns.PERSONA.search(text) or is_noise_content(c.text) or (
                    c.had_emoji and re.search(r"加|add|use|用|结尾|end", text)):
                return None
            joined = f"{joined}，{text}" if joined else text
            windowless = _OFFSET.sub(" ", joined)  # "20 minutes earlier" shifts the reminder, no window
            if patterns.TIME_HARD.search(windowless) or (patterns.TIME_SOFT.search(windowless) and not (
                    patterns.HABIT.search(joined) or patterns.RECURRING.search(joined))):
                return None
            lasting = patterns.LONGTERM.search(joined) or patterns.CONDITION_REMIND.search(joined)
            styled = style and (topic_of("constraint", joined) in _REPLY_TOPICS
                                or patterns.ASSISTANT_STRONG.search(joined))
            imperative = (patterns.REPLY_WORD.search(joined) and patterns.IMPERATIVE.search(joined)) or styled
            weak = (patterns.RECURRING.search(joined) and re.search(r"提醒|remind", joined)) or (
                patterns.LONGTERM_WEAK.search(joined) and patterns.ASSISTANT_STRONG.search(joined))
            if not (lasting or imperative or weak):
                continue
            if patterns.SELF_RULE.search(joined):
                return None
            if patterns.GOAL_STRONG.search(joined) and not patterns.ASSISTANT_STRONG.search(joined):
                return None  # the user's own long-term plan ("我的长期计划是写一本书") is a goal, not a rule
            if patterns.HYPOTHETICAL.search(joined) and not patterns.CONDITION_REMIND.search(joined):
                return None
            topic = topic_of("constraint", joined)
            directed = patterns.ASSISTANT_STRONG.search(joined) or ((lasting or imperative) and (
                patterns.ASSISTANT_WEAK.search(joined) or topic in _REPLY_TOPICS)) or (
                lasting and _POLITE.search(joined) and not _SELF_SUBJECT.search(joined))
            # ("going forward, metric units please"; not "going forward I'll run, please wish me luck")
            if directed:
                key = f"constraint-{topic}" if topic else f"constraint-{content_slug(joined)}"
                self._constraint_keys.add(key)
                return Hit(key, 0.85 if lasting else 0.8, span=extra)
        return None

    def _followup_constraint(self, body: str) -> Hit | None:
        """A detail for a constraint the user already has ("汇率用个大概就行"), or a change of it
        ("还是改回中文回复吧", "switch back to English replies"), which then replaces it."""
        change = patterns.CHANGE.search(body) and patterns.REPLY_WORD.search(body)
        if not (patterns.FOLLOWUP_INSTRUCTION.search(body) or change):
            return None
        topic = topic_of("constraint", body)
        if topic is None:
            return None
        key = f"constraint-{topic}"
        if key in self._constraint_keys or any(m.key == key for m in self.existing):
            return Hit(key, 0.8, force_merge=not patterns.CHANGE.search(body))
        return None


# a relative offset of a standing reminder ("20 minutes earlier", "提前半小时"), not a time window
_OFFSET = re.compile(r"\b(?:\d+|a few|an?|half an?)\s*(?:minutes?|mins?|hours?|hrs?)\s+(?:earlier|early|"
                     r"later|before|ahead|in advance)\b|"
                     r"(?:提前|早|晚)(?:\d+|[一二三四五六七八九十半两]+)(?:分钟|个?小时|个?钟头?)")
_POLITE = re.compile(r"\b(?:please|pls|plz)\b|请|麻烦")
_SELF_SUBJECT = re.compile(r"\b(?:i|we|i'll|i'm|we'll)\b|我(?:们)?(?:要|会|得|想|打算|准备|也)")
_NEVER_MIND = re.compile(r"\bnever ?mind\b|\bnvm\b")
# the plot of a story, film or book: "讲述的是一个父亲为了女儿的梦想…", "it's about a girl who wants to…"
_PLOT = re.compile(
    r"^(?:这|那)?(?:部|本|个)?(?:电影|电视剧|小说|书|故事|片子|剧)?(?:主要)?(?:讲述|讲|描述|描写)(?:的是|了)|"
    r"^(?:it|the (?:film|movie|book|novel|story|show|series|plot))(?:'s| is) about\b|"
    r"^(?:it|the (?:film|movie|book|novel|story|show|series)) (?:tells|follows) the story of\b")
# "it reminds me of home", "they always remind me of that day", "that reminded me to call": something
# brings a memory back; only the imperative "remind me" (to the assistant) asks for a reminder
_ASSOCIATION = re.compile(r"\breminds me\b|\bremind(?:s|ed)? me of\b|\breminded me\b|"
                          r"让我想起|使我想起|令我想起|总让我想起")
_GROUNDS = ("fact-diet", "fact-allergy")
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
    details join the family fact, ``gate._fold_third_party``)."""
    return bool(patterns.THIRD_PARTY_START.search(first_clause)) \
        and not patterns.FAMILY_SUBJECT.search(first_clause)


def _same_kind(hit: Hit, active: list[Group]) -> bool:
    kind = hit.key.split("-")[0]
    return hit.op is CandidateOp.UPSERT and kind == "preference" and any(
        g.key.split("-")[0] == kind for g in active)


def analyse(data: ExtractionInput) -> Analysis:
    analysis = _Analyser(data).run()
    if analysis.groups or analysis.deletions:
        return analysis
    restated = followup_statement(data)
    if restated is None:
        return analysis
    text, cap = restated
    again = _Analyser(ExtractionInput(text, (), data.summary, data.existing, data.sent_at)).run()
    for group in again.groups:
        group.hit.confidence = min(group.hit.confidence, cap)
    return again
