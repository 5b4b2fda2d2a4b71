"""Standing rules for the assistant in the rules extractor: a clause, possibly with the next clauses
of its sentence ("以后只要有台风预警，就提醒我…", "going forward, metric units please"), that asks the
assistant to do something from now on becomes a ``constraint-<topic>`` hit; a detail or a change of a
constraint the user already has ("汇率用个大概就行", "switch back to English replies") continues it.

``ConstraintDetectors`` is a mixin of the analyser (``analysis._Analyser``), which supplies the user's
memories (``existing``) and the constraints stated earlier in the message (``_constraint_keys``,
which ``_constraint`` adds to). Contract of ``_constraint``: no rule when a time window precedes or
sits inside it (it is scoped, not standing), when it withdraws something ("never mind …"), names a
feeling ("reminds me of …"), or is the user's own plan or rule, a hypothetical, a profile field, an AI
persona or noise.
"""

from __future__ import annotations

from core.extraction.candidates import ExistingMemory
from core.extraction.rules import patterns
from core.extraction.rules.detectors import Hit
from core.extraction.rules.keys import content_slug
from core.extraction.rules.segment import Clause
from core.extraction.rules.topics import topic_of
from core.filters import is_noise_content
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

_REPLY_TOPICS = {"reply_length", "format", "language", "tone", "code_comments", "code_style", "shell"}

# a relative offset of a standing reminder ("20 minutes earlier", "提前半小时"), not a time window
_OFFSET = re.compile(r"\b(?:\d+|a few|an?|half an?)\s*(?:minutes?|mins?|hours?|hrs?)\s+(?:earlier|early|"
                     r"later|before|ahead|in advance)\b|"
                     r"(?:提前|早|晚)(?:\d+|[一二三四五六七八九十半两]+)(?:分钟|个?小时|个?钟头?)")
_POLITE = re.compile(r"\b(?:please|pls|plz)\b|请|麻烦")
_SELF_SUBJECT = re.compile(r"\b(?:i|we|i'll|i'm|we'll)\b|我(?:们)?(?:要|会|得|想|打算|准备|也)")
# "i never learned java": the user's own statement (a topic of replies alone does not make it a rule)
_I_SUBJECT = re.compile(r"^(?:i|we)\b")


def _own_statement(text: str) -> bool:
    """The user or someone else is the subject ("i never learned java", "my roommate is never home"): a
    statement, which a topic of replies alone does not make a rule."""
    return bool(_I_SUBJECT.match(text) or patterns.THIRD_PARTY_START.search(text)
                or patterns.FRIEND_SUBJECT.search(text))


_NEVER_MIND = re.compile(r"\bnever ?mind\b|\bnvm\b")
# a kind of task the assistant does, as the condition of a rule ("when you suggest podcasts for me keep them
# short"); not a moment ("when you get a chance, …", "when you're done, …")
_WHEN_YOU = re.compile(r"^(?:when|whenever|any ?time|every time|each time|if) (?:you|u) (?:\w+)")
_WHEN_FREE = re.compile(r"^(?:when|if|any ?time) (?:you|u) (?:get|have|find) (?:a|the|some)? ?"
                        r"(?:chance|sec|second|minute|moment|time)|"
                        r"^(?:when|if) (?:you|u)(?:'re| are| r) (?:done|free|ready|back|finished)|"
                        r"^(?:when|if) (?:you|u) (?:can|could|finish|wake)")
# "it reminds me of home", "they always remind me of that day", "that reminded me to call": something
# brings a memory back; only the imperative "remind me" (to the assistant) asks for a reminder
_ASSOCIATION = re.compile(r"\breminds me\b|\bremind(?:s|ed)? me of\b|\breminded me\b|"
                          r"让我想起|使我想起|令我想起|总让我想起")


# a new value for a rule the user already has ("actually make that 45 min", "change it to 2", "改成两本吧",
# "还是三个就行"): the number (with its unit, when it has one) that replaces the rule's number
_NUM = r"(?:\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)"
# an English count in words, as ``judge_cues.number_changed`` reads one ("make it one at a time")
_EN_WORDS = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
             "eight": "8", "nine": "9", "ten": "10"}
_EN_NUM = r"(?:\d+(?:\.\d+)?|" + "|".join(_EN_WORDS) + r")\b"
_VALUE_CHANGE = re.compile(
    r"\b(?:make (?:that|it|them)|change (?:that|it) to|switch (?:that|it) to|bump (?:that|it) (?:up|down) to|"
    r"let'?s (?:do|say|go with)|more like)\s+(?P<en>" + _EN_NUM + r")\s*(?P<enu>[a-z]+)?|"
    r"(?:改成|换成|改为|变成|还是)(?P<zh>" + _NUM + r")\s*(?P<zhu>[\u4e00-\u9fff]|[a-z]+)?")
_UNIT_EN = {"min": "min", "mins": "min", "minute": "min", "minutes": "min", "hr": "h", "hrs": "h",
            "hour": "h", "hours": "h", "h": "h", "km": "km", "kms": "km", "kilometres": "km",
            "kilometers": "km", "mi": "mi",
            "miles": "mi", "words": "words", "word": "words", "bullets": "bullets", "bullet": "bullets",
            "options": "options", "option": "options", "ideas": "ideas", "items": "items", "points": "points",
            "sentences": "sentences", "paragraphs": "paragraphs", "pages": "pages", "page": "pages",
            "recs": "recs", "picks": "picks", "books": "books", "kg": "kg", "lbs": "lb", "lb": "lb"}
_OLD_NUM_EN = re.compile(r"\b(?P<n>" + _EN_NUM + r")\s*(?P<u>[a-z]+)?", re.IGNORECASE)
_OLD_NUM_ZH = re.compile(r"(?P<n>\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)(?P<u>[\u4e00-\u9fff])")


def _unit(word: str | None) -> str | None:
    return _UNIT_EN.get(word or "")


def _value(number: str) -> str:
    """A count as digits: "two" and "2" are one value."""
    return _EN_WORDS.get(number.lower(), number)


def changed_rule(body: str, existing: tuple[ExistingMemory, ...]) -> tuple[str, str] | None:
    """``(key, content)`` of the user's one standing rule whose value ``body`` changes ("make that 45 min"
    after "keep each session to 30 min max" -> "... to 45 min max"; "改成两本吧" after "每次三本就够了"), the
    rule's own words with the new value: None when no rule of the user has a value of that kind, or when more
    than one does (which one is meant is unclear)."""
    m = _VALUE_CHANGE.search(body)
    if m is None:
        return None
    zh = m.group("zh") is not None
    new, unit = (m.group("zh"), m.group("zhu")) if zh else (m.group("en"), _unit(m.group("enu")))
    found: list[tuple[str, str]] = []
    for mem in existing:
        if mem.memory_type != "constraint":
            continue
        olds = [o for o in (_OLD_NUM_ZH if zh else _OLD_NUM_EN).finditer(mem.content)
                if (o.group("u") == unit if zh else _unit(o.group("u")) == unit or unit is None)
                and _value(o.group("n")) != _value(new)]
        if len(olds) == 1:
            o = olds[0]
            found.append((mem.key, mem.content[:o.start("n")] + new + mem.content[o.end("n"):]))
    return found[0] if len(found) == 1 else None


class ConstraintDetectors:
    """Standing-rule detectors over one clause (``body`` is its normalised text)."""

    existing: tuple[ExistingMemory, ...]  # the user's memories (``ExtractionInput.existing``)
    _constraint_keys: set[str]  # constraints stated earlier in this message

    def _constraint(self, clauses: list[Clause], pos: int, body: str) -> Hit | None:
        """A standing rule for the assistant, possibly spanning the next clauses of the sentence
        ("以后只要有台风预警，就提醒我…", "whenever there's a storm warning, remind me to…")."""
        if pos > 0 and patterns.TIME_HARD.search(clauses[pos - 1].norm) \
                and not patterns.TOPIC_SHIFT.search(clauses[pos].norm):  # raw: "btw" is cleaned off body
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
                patterns.LONGTERM_WEAK.search(joined) and patterns.ASSISTANT_STRONG.search(joined)) or (
                _WHEN_YOU.search(joined) and patterns.IMPERATIVE.search(joined)
                and not _WHEN_FREE.search(joined))
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
                patterns.ASSISTANT_WEAK.search(joined)
                or (topic in _REPLY_TOPICS and not _own_statement(joined)))) or (
                lasting and _POLITE.search(joined) and not _SELF_SUBJECT.search(joined))
            # ("going forward, metric units please"; not "going forward I'll run, please wish me luck")
            if directed:
                key = f"constraint-{topic}" if topic else f"constraint-{content_slug(joined)}"
                self._constraint_keys.add(key)
                return Hit(key, 0.85 if lasting else 0.8, span=extra)
        return None

    def _value_change(self, body: str) -> Hit | None:
        """A new value for one of the user's standing rules ("actually make that 45 min"): that rule with the
        new value, under its key (it replaces the old value)."""
        changed = changed_rule(body, self.existing)
        if changed is None:
            return None
        self._constraint_keys.add(changed[0])
        return Hit(changed[0], 0.85, content=changed[1], absorbs=False, said=True)

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

