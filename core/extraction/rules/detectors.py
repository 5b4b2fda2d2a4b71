"""Slot detectors of the rules extractor: what a clause says about the user (facts: family,
relationships, pets, allergies, health, diet, traits, home city, home town, job, education, age...)
and what the user wants or does (projects, goals, preferences), as ``Hit``s: the slot key a clause
triggers, its confidence and how later clauses may continue it. ``SlotDetectors`` is a mixin of the
analyser (``analysis._Analyser``), which supplies the context (``_context_place``, ``_last_place``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from core.extraction.candidates import CandidateOp
from core.extraction.rules import patterns
from core.extraction.rules.keys import content_slug
from core.extraction.rules.places import (
    DEICTIC_PLACES,
    HOMETOWN_EN_I,
    LOC_EN_I,
    PLACE_EN_CANON,
    canon_place_en,
    lowercase_place_en,
    valid_place_zh,
)
from core.extraction.rules.segment import Clause, clean_content, has_cjk
from core.extraction.rules.topics import topic_of
from core.filters import normalise_key
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re


@dataclass
class Hit:
    """A slot a clause triggers."""

    key: str
    confidence: float
    content: str | None = None  # fixed content (templated), else the group's clauses
    op: CandidateOp = CandidateOp.UPSERT
    absorbs: bool = True  # later clauses of the sentence may continue it
    force_merge: bool = False  # a follow-up detail: merge into the existing memory even for single slots
    span: int = 0  # extra clauses after the trigger clause that belong to it (constraint windows)
    weak: bool = False  # only a fallback: continuing the previous group of the sentence is preferred
    said: bool = False  # ``content`` is the user's own words (an earlier rule with a new value), read as is


class SlotDetectors:
    """Fact and intent detectors over one clause (``body`` is its normalised text)."""

    _last_place: str  # the place the latest clause named ("" for none), set by ``_place_and_job``

    def _context_place(self, before: int) -> str | None:
        """The place "here/这边" refers to: the latest one named before clause ``before``."""
        raise NotImplementedError

    def _facts(self, clause: Clause, body: str, pos: int) -> list[Hit]:
        hits: list[Hit] = []
        third = (patterns.THIRD_PARTY_START.search(body) or re.match(r"(?:你|您)|(?:you|your)\b", body)
                 or (patterns.NAMED_SUBJECT_EN.match(clause.text) and not patterns.FIRST_PERSON.search(body))
                 or patterns.KIN_FIRST_ZH.match(body))
        family = self._family(body)
        if family is not None:
            hits.append(family)
        relation = self._relationship(body)
        if relation is not None:
            hits.append(relation)
        if third:
            return hits
        pets = self._pets(body)
        if pets is not None:
            hits.append(pets)
        if family is None and relation is None:
            if patterns.ALLERGY.search(body):
                hits.append(Hit("fact-allergy", 0.88))
            elif patterns.HEALTH.search(body) and not re.search(r"过敏", body):
                hits.append(Hit("fact-health", 0.82))
            if patterns.DIET.search(body) and not patterns.DIET_RETRACT.search(body):
                hits.append(Hit(diet_key(body), 0.85))
            if patterns.TRAITS.search(body):
                hits.append(Hit("fact-traits", 0.85))
        hits.extend(self._place_and_job(clause, body, pos))
        if patterns.EDUCATION.search(body) and not any(h.key == "fact-job" for h in hits):
            hits.append(Hit("fact-education", 0.8))
        for i, hit in enumerate(hits):
            if hit.key == "fact-home_city" and hit.content is None and len(hits) > 1:
                place = self._last_place
                hits[i] = Hit(hit.key, hit.confidence, content=(f"常住{place}" if has_cjk(body) else
                                                                  f"Lives in {place}"), absorbs=False)
        for rx, key in ((patterns.VEHICLE, "fact-vehicle"), (patterns.TECH_DEVICE, "fact-devices"),
                        (patterns.HOME_HAS_EN, "fact-home"),
                        (patterns.LANGUAGES_SPOKEN, "fact-languages"),
                        (patterns.ALMA_MATER, "fact-alma_mater"), (patterns.BIRTHDAY, "fact-birthday")):
            taken = {h.key for h in hits}
            duplicate = key in taken or (key == "fact-alma_mater" and "fact-education" in taken)
            if rx.search(body) and not duplicate:
                hits.append(Hit(key, 0.82))
        age = patterns.AGE_ZH.search(body) or patterns.AGE_EN.search(body)
        if age and family is None:
            hits.append(Hit("fact-age", 0.8))
        return hits

    def _family(self, body: str) -> Hit | None:
        if any(rx.search(body) for rx in (*patterns.FAMILY_ZH_RX, *patterns.FAMILY_EN_RX)):
            return Hit("fact-family", 0.82)
        return None

    def _relationship(self, body: str) -> Hit | None:
        if patterns.BREAKUP.search(body):
            return None
        if any(rx.search(body) for rx in (*patterns.RELATION_ZH, *patterns.RELATION_EN)):
            return Hit("fact-relationship", 0.8)
        return None

    def _pets(self, body: str) -> Hit | None:
        if any(rx.search(body) for rx in (*patterns.PETS_ZH_RX, *patterns.PETS_EN_RX)):
            if re.search(r"想养|打算养|want a (?:dog|cat)|thinking (?:about|of) getting", body):
                return None
            return Hit("fact-pets", 0.85)
        return None

    def _place_and_job(self, clause: Clause, body: str, pos: int) -> list[Hit]:
        hits: list[Hit] = []
        place: str | None = None
        hometown: str | None = None
        zh = has_cjk(body)
        future = patterns.FUTURE_MOVE.search(body)
        if zh:
            for rx in patterns.LOC_ZH:
                m = rx.search(body)
                if m:
                    place = m.group("p")
                    break
            for rx in patterns.HOMETOWN_ZH:
                m = rx.search(body)
                if m:
                    hometown = m.group("p")
        nf = unicodedata.normalize("NFKC", clause.text)
        for rx in LOC_EN_I:
            m = rx.search(nf)
            if m and place is None:
                raw = m.group("p")
                place = raw if raw.lower() in {"here", "there"} else canon_place_en(raw)
        if place is None and not zh:
            place = lowercase_place_en(nf)
        for rx in HOMETOWN_EN_I:
            m = rx.search(nf)
            if m:
                hometown = canon_place_en(m.group("p"))
        if place is not None and patterns.TRIP.search(body):
            place = None  # on a trip / visiting: not where the user lives
        if place in DEICTIC_PLACES:
            place = self._context_place(clause.index)
        elif place is not None and zh and not valid_place_zh(place):
            place = None
        job = self._job(body, nf)
        if place is None and not zh and patterns.HOME_KIND_EN.search(body) and not future:
            hits.append(Hit("fact-home_city", 0.82))
        self._last_place = place or ""
        if place and not future:
            content = None
            if job is not None or len(clause.text) > 40:
                content = f"常住{place}" if zh else f"Lives in {place}"
            elif place not in clause.text:
                content = (f"常住{place}：" if zh else f"Lives in {place}: ") + clean_content(clause.text)
            hits.append(Hit("fact-home_city", 0.88, content=content, absorbs=content is None))
        if hometown:
            hits.append(Hit("fact-hometown", 0.82, content=(f"老家是{hometown}" if zh else f"From {hometown}")
                            if (job or place) else None))
        if job is not None:
            hits.append(job)
        return hits

    def _job(self, body: str, nf: str) -> Hit | None:
        doing = patterns.JOB_AS_ZH.search(body)
        if doing and not is_not_a_job_role(doing.group("role")) and not patterns.GOAL_NEAR.search(body):
            return Hit("fact-job", 0.86)
        if patterns.PROJECT_VERB.search(body) and patterns.PROJECT_NOUN.search(body):
            return None
        if patterns.GOAL_NEAR.search(body):
            return None
        if patterns.JOB_HISTORY_EN.search(body):
            return Hit("fact-work_history", 0.82)
        m = patterns.JOB_HISTORY_ZH.search(body)
        if m and not is_not_a_job_role(m.group("role")):
            return Hit("fact-work_history", 0.82)
        for rx in patterns.JOB_ZH:
            m = rx.search(body)
            if not m:
                continue
            groups = m.groupdict()
            role = groups.get("role") or ""
            if role and is_not_a_job_role(role):
                continue
            if "workplace" in groups:  # 在X上班: a bare city is a place, not a job
                workplace = (groups["workplace"] or "").strip()
                stripped = re.sub(r"^(?:" + patterns.DEICTIC_ZH + r")", "", workplace)
                if not stripped or valid_place_zh(stripped) or stripped in {"家", "这", "那"}:
                    continue
            return Hit("fact-job", 0.86)
        for job_rx in patterns.JOB_EN:
            m = job_rx.search(body)
            if not m:
                continue
            groups = m.groupdict()
            org = (groups.get("org") or "").strip()
            if "org" in groups and (not org or org.lower() in PLACE_EN_CANON):
                continue  # "I work in London" is a place, not a job
            return Hit("fact-job", 0.85)
        agent = patterns.AGENT_NOUN_EN.search(body)
        if agent and not patterns.NOT_AGENT_EN.search(agent.group("role")) \
                and not re.search(r"\b(?:spare|free) time\b|\bfor fun\b|\bhobby\b", body):
            return Hit("fact-job", 0.82)
        return None

    def _intent(self, clause: Clause, body: str, ahead: str = "") -> list[Hit]:
        """Goals, projects and preferences (mutually exclusive, in that order)."""
        if patterns.THIRD_PARTY_START.search(body):
            return []
        project = self._project(body, ahead)
        if project is not None:
            return [project]
        goal = self._goal(body)
        if goal is not None:
            return [goal]
        pref = self._preference(body, ahead)
        if pref is None and patterns.TECH.search(body) and not patterns.TECH_DEVICE.search(body):
            pref = Hit("preference-tech", 0.82)
        if pref is None and patterns.HABIT_STRONG.search(body) and patterns.FIRST_PERSON.search(body) \
                and not re.search(r"你|\byou\b", body):
            topic = topic_of("preference", ahead or body)
            pref = Hit(f"preference-{topic}" if topic else "preference-routine", 0.8 if topic else 0.78,
                       weak=True)
        return [pref] if pref is not None else []

    def _project(self, body: str, ahead: str = "") -> Hit | None:
        if patterns.RESTORE.search(body):
            return Hit("project-renovation", 0.82)  # a readable key, whatever is restored
        noun = patterns.PROJECT_NOUN.search(body) or patterns.PROJECT_NOUN.search(ahead)
        making = patterns.PROJECT_MAKING.search(body)
        if not ((patterns.PROJECT_VERB.search(body) and noun) or making):
            return None
        doing = patterns.JOB_AS_ZH.search(body)
        if doing and not is_not_a_job_role(doing.group("role")):
            return None  # "现在做算法工程师" is a job
        if re.search(r"想(?:做|搞|写|开)|打算|准备|计划|\b(?:want|plan|planning|"
                     r"thinking about|hope) to\b", body):
            return None
        return Hit("project-pending", 0.85)  # key fixed once the group's text (name) is known

    def _goal(self, body: str) -> Hit | None:
        strong = patterns.GOAL_STRONG.search(body)
        weak = patterns.GOAL_WEAK.search(body)
        if not (strong or weak):
            return None
        if patterns.HEDGE.search(body):
            return Hit(f"goal-{topic_of('goal', body) or 'pending'}", 0.7)  # a passing thought
        topic = topic_of("goal", body)
        if strong:
            if topic:
                return Hit(f"goal-{topic}", 0.86)
            return Hit("goal-pending", 0.8, weak=True)
        if weak and topic:
            return Hit(f"goal-{topic}", 0.82)
        return None

    def _preference(self, body: str, ahead: str = "") -> Hit | None:
        like = patterns.LIKE.search(body)
        dislike = patterns.DISLIKE.search(body)
        habit = patterns.HABIT.search(body)
        if like and _TITLE.search(body):  # a titled work: what the user does with it names the topic
            verb = _WORK_VERB.search(body)
            topic = next((t for t, g in zip(_WORK_TOPICS, verb.groups() if verb else (), strict=False) if g),
                         None)
            return Hit(f"preference-{topic or topic_of('preference', body) or 'favourite_works'}", 0.82)
        topic = topic_of("preference", body)
        if topic and (like or dislike or habit or re.search(r"以后|今后|from now on|these days", body)):
            return Hit(f"preference-{topic}", 0.85)
        if (like or dislike) and ahead:
            topic = topic_of("preference", ahead)
            if topic:
                return Hit(f"preference-{topic}", 0.82)
        if like or dislike:
            obj = self._object(body)
            if obj:
                return Hit(f"preference-{obj}", 0.78)
        return None

    @staticmethod
    def _object(body: str) -> str | None:
        m = (patterns.LIKE_OBJECT_ZH.search(body) or patterns.LIKE_OBJECT_EN.search(body)
             or patterns.LIKE_OBJECT_FAN.search(body))
        if not m:
            return None
        obj = (m.group("o") or m.groupdict().get("o2") or "").strip()
        to = patterns.LIKE_TO_EN.match(obj)
        if to and not patterns.LIKE_TO_STOP.match(to.group("o")):
            obj = to.group("o").strip()
        if patterns.OBJECT_STOP.search(obj) or len(obj) < 2:
            return None
        if has_cjk(obj):
            return content_slug(obj)
        slug = normalise_key("_".join(obj.split()[:3]))
        return slug if slug != "memory" else None


# a quoted title ("Becoming Nicole", “Dune”) and the verb that says what kind of work it is
_TITLE = re.compile(r"[\"“][A-Za-z0-9][^\"”]{0,60}(?:[\"”]|$)")  # a clause may end inside the title
_WORK_VERB = re.compile(r"\b(read|reading|re-?reading|novel|book|author)\b|\b(play|playing|game)\b|"
                        r"\b(watch|watching|binge-?watching|movie|film|show|series)\b|"
                        r"\b(listen|listening|song|album|band)\b")
_WORK_TOPICS = ("books", "games", "movies", "music")


def is_not_a_job_role(role: str) -> bool:
    return bool(patterns.NOT_JOB_ROLE.search(role.strip()))


def diet_key(body: str) -> str:
    """The slot of a diet statement (``body`` matches ``patterns.DIET``): a diet the user chose (vegetarian,
    vegan, keto, 吃素) is a taste, ``preference-diet``, as the case writers of nine independent sets and the
    LLM prompt's boundaries ("稳定的偏好和习惯（饮食…）") file it; one kept for faith or health (halal, no
    pork, gluten-free, or a chosen diet said with such a reason) is a fact about the user, ``fact-diet``."""
    if patterns.DIET_CHOSEN.search(body) and not patterns.DIET_GROUNDED.search(body):
        return "preference-diet"
    return "fact-diet"
