"""What the classifier gate reads besides the rules' candidates: the units a rescue tries (a sentence,
a run of clauses or one clause of it, with its owner when it is about someone else), the continuation
clauses that may leave a rule group (split points), the relationship facts third-party clauses join,
and the user's own wording of templated contents. Pure functions over an ``Analysis``; the decisions
and thresholds that use them are in the gate's stages (``core.extraction.rules.gate`` and its ``gate_*``
modules)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from core.extraction.candidates import CandidateOp, MemoryCandidate
from core.extraction.classifier import Prediction
from core.extraction.rules import patterns
from core.extraction.rules.analysis import Analysis, message_clauses
from core.extraction.rules.segment import (
    Clause,
    clean_content,
    has_cjk,
    join_clauses,
    normalise,
)
from core.extraction.rules.slots import spec
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType
from schemas.events import MAX_MEMORY_CONTENT_CHARS

LIST_SENTENCE = 4  # clauses of a sentence that lists facts (a subjectless clause after a fact is read alone)
RESCUE_KEEP = 0.90  # p(keep) at which a sentence no rule fired on becomes a candidate
NEVER = 2.0  # above any probability: a p(keep) no unit reaches, a floor the precision model never does
RESCUE_MIN_CHARS_ZH = 5
RESCUE_MIN_WORDS_EN = 3

CONSEQUENCE = re.compile(r"^(?:so|which|that's why|that is why|hence|thus|therefore)\b|"
                          r"^(?:所以|因此|于是|这样)")
# a clause with its own first-person subject ("..., and I'd love to walk the Camino one day")
# (a filler between the joint and the subject is no subject: "..., and honestly my happy place is X")
OWN_SUBJECT = re.compile(r"^(?:(?:and|but|also|plus|oh|honestly|tbh|ngl|actually|btw|anyway|lol|really)"
                         r",?\s+)*(?:i|i'm|im|i'd|i've|ive|i'll|my)\b|"
                         r"^(?:而且|并且|还有|另外|也|但是?|不过)?我")

# a clause that opens with an intent and no subject of its own, after at most a short lead of time
# ("退休后打算…", "明年准备…", "plan 明年考…", "and hoping to …")
INTENT_LEAD = re.compile(r"^[^\s，,]{0,4}?(?:打算|计划|准备|想要|希望|梦想|决定)|"
                         r"^(?:(?:and|also|plus|btw|then|eventually|someday)\s+)*(?:plan|plans|planning|hoping|"
                         r"hope|aim|aiming|dreaming|gonna|going to|want to|wanna)\b")


@dataclass(frozen=True)
class Unit:
    text: str
    sentence: int
    owner: str | None = None  # the relationship fact a sentence about someone else is filed under
    threshold: float = RESCUE_KEEP  # p(keep) it needs (higher when it overrules a drop of the rules)
    run: int = -1  # the run of clauses it belongs to (a run is tried clause by clause, then whole)
    whole: bool = True  # the whole run (else one clause of it)
    read: str | None = None  # what the classifier reads instead of ``text`` (the subject it elides)
    # a clause of a long run (``gate_rescue.LONG_RUN``): its span in the message and its run's, so a kept
    # clause takes the run's clauses no clause of it was kept for (``partition_long_runs``)
    span: tuple[int, int] | None = None
    run_span: tuple[int, int] | None = None
    # the rules dropped it as a question or a request, or it is a consequence of the fact before it: a rule
    # said with a question tag or in chat words may be one (``gate_standing.standing_rules``)
    asked: bool = False
    # the standing model's bar for an asked unit when not ``STANDING_RESCUE``
    # (``gate_rescue._with_rule_reads``: a clause that speaks to the assistant and does not ask)
    bar: float | None = None
    # an item of a list-style message (``list_message``): read by the list fragment model, not the classifier
    item: bool = False
    # the opening clause of a sentence read with the user as its elided subject
    # (``gate_rescue.ELIDED_SENTENCE``): what the own-subject head reads (``gate_rescue.own_subjects``); empty
    # for every other unit
    elided: str = ""
    # the opening clause of a Chinese sentence no rule fired on, read as written with no owner
    # (``gate_rescue.OWN_SUBJECT_WRITTEN``): dropped when the own-subject head reads a subject of its own
    opening: str = ""
    # the run names a date or a clause of it was dropped by the rules as ``past``
    # (``gate_rescue.dated_changes`` reads it with the dated-change head); ``past``: a clause was such a drop
    # (never kept unless the head reads a lasting change); ``change``: the head read a lasting change (kept at
    # ``DATED_CHANGE_KEEP``, a fact)
    dated: bool = False
    past: bool = False
    change: bool = False
    # a noun-subject clause the taste head reads for a taste for a kind of thing
    # (``gate_rescue.taste_units``): kept as a preference when the head reads it at its bar, never otherwise
    taste: bool = False

    @property
    def model_text(self) -> str:
        return self.read or self.text


@dataclass(frozen=True)
class Split:
    """A continuation clause of a rule group that may be a memory of its own ("I'm gluten-intolerant,
    and I'd love to walk the Camino one day")."""

    key: str  # the candidate it would leave
    text: str  # the clause alone (what the classifier reads)
    head: str  # the candidate's content without it and what follows
    tail: str  # it and what follows: the new memory's content
    sentence: int
    clauses: tuple[Clause, ...] = ()  # the group's clauses, in order
    pos: int = 0  # where in ``clauses`` it starts
    own: bool = False  # a statement of its own: its own subject (not a list item that elides the user)
    owner: str | None = None  # a relative's or friend's statement: the relationship fact it becomes
    lead: str = ""  # the clause as the user wrote it (normalised), its connector included
    elided: bool = False  # a detector's verb-led clause read "i <verb> …" (``ABSORBED_OWN``)


ABSORBED_OWN = True  # multi46: a verb-led English clause a detector fired on, absorbed into its group, is
# read as the user's statement (``split_points``)


def with_user_subject(clause: Clause, text: str, verbs: bool = False) -> str | None:
    """A clause of a list of the user's own facts that elides its subject ("…, physio at a clinic in
    glasgow, into model trains big time, 周末踢五人制足球"), as the classifier should read it: with the
    user as its subject ("i'm …", "我…"); the stored content keeps the user's words. ``None`` when the
    clause names a subject of its own (the user, someone else, a pronoun). ``verbs``: an English clause is
    read so only when it opens with a verb, as "i <verb> …" ("work as a pharmacist"; never "i'm always celsius
    for temperatures", a rule read as a taste); list items keep the "i'm …" they were trained on."""
    if patterns.FIRST_PERSON.search(clause.norm) or THIRD_PRONOUN.search(clause.norm) \
            or owner_of(clause) is not None or patterns.NAMED_SUBJECT_EN.match(clause.text):
        return None
    if has_cjk(text):
        return f"我{text}"
    first = normalise(text).split(" ", 1)[0]
    if verbs:
        return f"i {text}" if first in _BARE_VERBS else None
    return f"i'm {text}"


def elided_statement(clause: Clause, text: str) -> str | None:
    """A sentence of ordinary prose no rule fired on that elides its subject ("terrified of heights, cant even
    do a stepladder", "love a bit of fly fishing when the weather allows", "backend dev, mostly golang"), as
    the classifier should read it: the user's statement, "i <verb> …" when it opens with a verb or an intent,
    else "i'm …" ("我…" in Chinese); the stored content keeps the user's words. ``None`` when its first clause
    names a subject of its own (``with_user_subject``)."""
    if with_user_subject(clause, text) is None:
        return None
    if has_cjk(text):
        return f"我{text}"
    first = normalise(text).split(" ", 1)[0]
    if patterns.FIRST_PERSON.search(" ".join(normalise(text).split(" ")[:ELIDED_LEAD_WORDS])):
        # "im in a used kia ev6 now", "Um, I vaguely remember …": the user is its subject, after a filler
        # clause or said without an apostrophe
        return None
    word = text.split(" ", 1)[0]
    if word[:1].isupper() and word[1:].islower():  # "Terrified of …" read mid-sentence: "i'm terrified of …"
        text = text[:1].lower() + text[1:]
    return f"i {text}" if first in _BARE_VERBS or first in _INTENT_VERBS else f"i'm {text}"


# a first person in a sentence's first words names its subject (session 29, multi48)
ELIDED_LEAD_WORDS = 3


# an intent or a habit word that opens a subject-elided sentence ("plan to retire at 58", "dont eat pork")
_INTENT_VERBS = frozenset({
    "want", "wanna", "plan", "hope", "need", "wish", "would", "can't", "cant", "cannot", "don't", "dont",
    "never", "always", "usually", "prefer", "adore",
    "miss", "wear", "use", "support", "follow", "believe", "avoid", "eat", "drink", "smoke", "take",
    "learned", "learnt", "started", "quit", "gave", "became", "joined", "lost", "had", "went", "was", "got",
    "finished", "took", "left", "switched", "sold", "bought"})


# a clause that opens with a verb and elides "I" ("work as a pharmacist", "live near york"): read "i <verb> …"
_BARE_VERBS = frozenset({
    "work", "live", "teach", "drive", "run", "own", "have", "play", "grow", "study", "speak", "cook",
    "collect", "volunteer", "coach", "fix", "build", "make", "write", "paint", "love", "like", "hate",
    "enjoy", "do", "got", "go", "moved", "worked", "lived", "grew", "ride", "swim", "knit", "bake", "sing",
    "dance", "read", "watch", "keep", "raise", "rent"})


def intent_subject(text: str) -> str:
    """An intent that elides its subject (``INTENT_LEAD``) as the classifier should read it: the user's
    ("我退休后打算…", "i plan to…", "i'm hoping to…"); an object pronoun after it is no subject
    ("打算明年搬去北京跟她一起")."""
    if has_cjk(text):
        return f"我{text}"
    first = normalise(text).split(" ", 1)[0]
    return f"i'm {text}" if first.endswith("ing") or first == "gonna" else f"i {text}"


# a list-style message (a self-introduction told as a list of items, most with no verb and no "I": "29,
# welder, rotterdam. two kids.", "38了，在港口开吊车"): at least LIST_ITEMS clauses, at least half of them
# items. A clause can be an item only when it is short (ITEM_WORDS words, ITEM_CHARS_ZH characters:
# ``short_item``); whether a short clause is an item and not a clause of ordinary prose (a verb's objects
# listed after it, a reply word, a Chinese prose clause) is the list-item head's call
# (``core.extraction.list_items``, on the clause's vector); its items are read one by one with the list
# fragment model (``gate_rescue.rescue_units``, ``gate.ClassifierGate``)
LIST_ITEMS = 4
LIST_MIN_ITEMS = 3  # a list has three items at least ("hi, AI companion. Today I ...": two short clauses)
LIST_MAX_CLAUSES = 16  # a self-introduction, not a wall of fragments (nor a flood of repeated junk)
ITEM_WORDS = 5
ITEM_CHARS_ZH = 12


def short_item(clause: Clause) -> bool:
    """A clause short enough to be a list item rather than a statement."""
    if has_cjk(clause.text):
        return len(re.findall(r"[\u3400-\u9fff]", clause.text)) <= ITEM_CHARS_ZH
    return len(re.findall(r"[A-Za-z']+|[0-9]+", clause.text)) <= ITEM_WORDS


def item_candidates(clauses: list[Clause]) -> list[int]:
    """Positions of the clauses the list-item head reads: the short ones of a message long enough and
    short enough in its clauses to be a list (none otherwise: no vector is computed)."""
    short = [i for i, c in enumerate(clauses) if short_item(c) and clean_content(c.text)]
    if not LIST_ITEMS <= len(clauses) <= LIST_MAX_CLAUSES:
        return []
    return short if 2 * len(short) >= len(clauses) else []


def list_message(clauses: list[Clause], items: int) -> bool:
    """The message is a list (``LIST_ITEMS``): at least half of its clauses are items, three at least."""
    return len(clauses) >= LIST_ITEMS and items >= LIST_MIN_ITEMS and 2 * items >= len(clauses)


# a clause that speaks to the assistant ("for any recipes you give me"): a rule's frame, never a list item
ADDRESSED = re.compile(r"[你您]|\b(?:you|your|u|ur|yours)\b")


FIRST_PERSON_WORD = re.compile(r"我|\b(?:i|i'm|i've|i'd|my|me|mine|myself)\b")
THIRD_PRONOUN = re.compile(r"[他她]|\b(?:he|she|him|her|his|hers|he's|she's)\b")
RELATION_KEYS = ("fact-family", "fact-relationship", "fact-friends")


def fold_third_party(analysis: Analysis, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
    """Preference/goal clauses about the family member or partner named earlier in the sentence
    become detail of that relationship fact (see module doc, step 3)."""
    by_key = {c.key: c for c in candidates if c.op is CandidateOp.UPSERT}
    groups_per_key: dict[str, int] = {}
    for group in analysis.groups:
        groups_per_key[group.key] = groups_per_key.get(group.key, 0) + 1
    folded: dict[str, str] = {}
    for group in analysis.groups:
        kind = group.key.split("-")[0]
        if kind not in ("preference", "goal") or group.hit.op is not CandidateOp.UPSERT:
            continue
        if groups_per_key[group.key] != 1 or group.key not in by_key or not group.clauses:
            continue
        first = min(c.index for c in group.clauses)
        before = [g for g in analysis.groups if g.sentence == group.sentence and g.clauses
                  and max(c.index for c in g.clauses) < first]
        # the subject carries over from the statement just before only: "老公是程序员，我对海鲜过敏，
        # 喜欢看悬疑小说" -- the taste follows the user's own allergy, so it is the user's
        owner = max(before, key=lambda g: max(c.index for c in g.clauses), default=None)
        if owner is None or owner.key not in RELATION_KEYS or owner.key not in by_key:
            continue
        if any(FIRST_PERSON_WORD.search(c.norm) for c in group.clauses):
            continue
        folded[group.key] = owner.key
    if not folded:
        return candidates
    out: list[MemoryCandidate] = []
    for cand in candidates:
        if cand.op is CandidateOp.UPSERT and cand.key in folded:
            continue
        extra = [by_key[k].content for k, owner in folded.items() if owner == cand.key]
        if extra and cand.op is CandidateOp.UPSERT:
            sep = "，" if has_cjk(cand.content) else ", "
            joined = sep.join([cand.content, *extra])[:MAX_MEMORY_CONTENT_CHARS]
            cand = cand.model_copy(update={"content": joined})
        out.append(cand)
    return out


# a sentence whose subject is a thing or an unnamed group ("yeah the squirrels are the main suspects lol",
# "those things are impossible to find", "it was a mess") and which never speaks of the user: not the user's
_THING_SUBJECT = re.compile(r"^(?:(?:yeah|yea|ya|yep|lol|lmao|haha|oh|ok|okay|well|so|and|but|honestly|tbh|"
                            r"ugh)[,!. ]+)*(?:the|these|those|they|they're|it|it's|that's|there's)\b"
                            + re.not_followed_by(" days", " day", " past", " year", " week", " month",
                                                 " morning", " time", " moment", " weekend", " summer",
                                                 " winter"))
_ANY_FIRST_PERSON = re.compile(r"我|\b(?:i|im|i'm|ive|i've|id|i'd|ill|i'll|my|me|mine|myself|we|our|us)\b")


def owner_of(clause: Clause) -> str | None:
    """Whose the sentence starting with ``clause`` is: ``None`` the user's; ``fact-family`` /
    ``fact-friends`` a relative's or partner's / a friend's or colleague's, a fact about the user's
    relationships; ``""`` someone else's with no relation named ("he...", "Jenny..."), not kept. A
    leading connector is no subject ("and my sister just had a baby", "还有我老公…")."""
    body = normalise(clean_content(clause.text)) or normalise(clause.text)
    if patterns.FAMILY_SUBJECT.search(body):
        return "fact-family"
    if patterns.FRIEND_SUBJECT.search(body):
        return "fact-friends"
    if patterns.THIRD_PARTY_START.search(body) or (patterns.NAMED_SUBJECT_EN.match(clause.text)
                                            and not patterns.FIRST_PERSON.search(body)):
        return ""
    if _THING_SUBJECT.search(body) and not _ANY_FIRST_PERSON.search(body):
        return ""
    return None


def relationship_fact(unit: Unit, pred: Prediction) -> MemoryCandidate:
    """A kept sentence about a relative or friend, as a fact about the user's relationships (never the
    user's own preference or fact, whatever type the classifier gives it)."""
    assert unit.owner
    target = spec(unit.owner)
    confidence = round(min(0.9, 0.75 + 0.15 * (pred.p_keep - RESCUE_KEEP) / (1.0 - RESCUE_KEEP)), 3)
    return MemoryCandidate(op=CandidateOp.UPSERT, memory_type=MemoryType.FACT, key=unit.owner,
                           content=unit.text, importance=target.importance, confidence=confidence,
                           ttl_days=target.ttl_days)


def long_enough(text: str, among_facts: bool = False, item: bool = False) -> bool:
    """Long enough to stand alone; ``among_facts``: a clause run of a sentence where rules fired (its
    neighbours say what it is about: "glassblower, 41" in a self-introduction) needs one word less;
    ``item``: an item of a list-style message (``list_message``) needs only one word of two letters or a
    number ("Boston", "vegan", "34"), or two Chinese characters; a lone letter ("h") is no item."""
    words = len(re.findall(r"[A-Za-z']+|[0-9]+", text))  # "civil engineer, 34": three
    if item:
        return len(re.findall(r"[\u3400-\u9fff]", text)) >= 2 or bool(re.search(r"[A-Za-z]{2}|[0-9]", text))
    less = 1 if among_facts else 0
    if has_cjk(text):  # a Latin word counts as two characters ("我是 data analyst")
        return len(re.findall(r"[\u3400-\u9fff]", text)) + 2 * words >= RESCUE_MIN_CHARS_ZH - less
    return words >= RESCUE_MIN_WORDS_EN - less


def partition_long_runs(units: list[Unit], chosen: set[int], message: str) -> dict[int, Unit]:
    """The kept clauses of a long run (``Unit.span``) cover the whole run: each takes the clauses after it
    up to the next kept one, the first also those before it ("my life rn: night shifts as an ER nurse,
    living with my sister in Glasgow, two cats (Miso and Tofu), and I drink way too much black coffee, no
    sugar ever": the job, the home with the cats, the coffee with "no sugar"). One memory per statement
    the classifier keeps, and no clause of the run lost, nor a detail cut from the statement it belongs to.
    Returns the replaced units by index."""
    by_run: dict[int, list[int]] = {}
    for j in sorted(chosen):
        if units[j].span is not None and units[j].run_span is not None and not units[j].whole:
            by_run.setdefault(units[j].run, []).append(j)
    out: dict[int, Unit] = {}
    for members in by_run.values():
        members.sort(key=lambda j: units[j].span[0])  # type: ignore[index]
        run_start, run_end = units[members[0]].run_span  # type: ignore[misc]
        for n, j in enumerate(members):
            start = run_start if n == 0 else units[j].span[0]  # type: ignore[index]
            end = units[members[n + 1]].span[0] if n + 1 < len(members) else run_end  # type: ignore[index]
            text = clean_content(message[start:end])[:MAX_MEMORY_CONTENT_CHARS]
            if text and text != units[j].text:
                out[j] = replace(units[j], text=text)
    return out


def chosen_units(units: list[Unit], predictions: list[Prediction]) -> set[int]:
    """Indices of the units to rescue: per run, the clauses that pass alone; when none does, the
    whole run if it passes."""
    passing = {j for j, (u, p) in enumerate(zip(units, predictions, strict=True)) if p.p_keep >= u.threshold}
    chosen: set[int] = set()
    runs: dict[int, list[int]] = {}
    for j, unit in enumerate(units):
        runs.setdefault(unit.run, []).append(j)
    for members in runs.values():
        singles = [j for j in members if not units[j].whole and j in passing]
        whole_rule = [j for j in members if units[j].whole and j in passing
                      and predictions[j].memory_type is MemoryType.CONSTRAINT]
        if whole_rule and not any(predictions[j].memory_type is MemoryType.CONSTRAINT for j in singles):
            chosen.update(whole_rule)  # a standing rule is kept whole, with its object and its reason
        elif singles:
            chosen.update(singles)
        else:
            chosen.update(j for j in members if units[j].whole and j in passing)
    return chosen


def split_points(analysis: Analysis, upserts: list[MemoryCandidate]) -> list[Split]:
    """For each rule group whose candidate is exactly its clauses joined, each continuation clause long
    enough to stand alone where a detector fired or with its own first-person subject (read by the
    classifier in the same batch; ``gate_splits.apply_splits``)."""
    by_content = {c.content: c for c in upserts}
    out: list[Split] = []
    zh = analysis.lang_zh
    sizes: dict[int, int] = {}
    for clause in message_clauses(analysis):
        sizes[clause.sentence] = sizes.get(clause.sentence, 0) + 1
    for group in analysis.groups:
        if group.hit.content is not None or len(group.clauses) < 2 or group.hit.op is not CandidateOp.UPSERT:
            continue
        clauses = sorted(group.clauses, key=lambda c: c.index)
        cand = by_content.get(join_clauses(analysis.message, clauses, zh))
        if cand is None or cand.memory_type is MemoryType.CONSTRAINT:
            continue  # a standing rule is kept whole, with its object
        for i in range(1, len(clauses)):
            if clauses[i].sentence != clauses[0].sentence:
                break
            text = clean_content(clauses[i].text)
            owner = owner_of(clauses[i])
            if not long_enough(text) or CONSEQUENCE.search(clauses[i].norm) or owner == "" or (
                    owner is not None and (owner == cand.key or (i == 1 and owner_of(clauses[0]) == owner))):
                continue  # "my brother and i share a flat, he's a nurse": a detail of the relationship
            # an intent told with the user's subject elided ("我平时爱下象棋，退休后打算去云南住几年",
            # "特别爱吃火锅，plan 明年考 HSK 5") is a statement of its own, read with the user as its subject
            intent = owner is None and bool(INTENT_LEAD.search(normalise(text)))
            elided = False
            own = owner is not None or intent or bool(OWN_SUBJECT.search(clauses[i].norm)
                                                      or OWN_SUBJECT.search(normalise(text)))
            if intent:
                text = intent_subject(text)
            elif owner is None and not own and ABSORBED_OWN and clauses[i].index in analysis.absorbed_hits \
                    and not has_cjk(text) \
                    and (said := with_user_subject(clauses[i], text, verbs=True)) is not None:
                # a clause a detector fired on, held in the group as a detail of the same kind, that opens
                # with a verb and elides "I" ("pescatarian since 2015, play drums in a ska band on weekends"):
                # a statement of its own, read "i <verb> …" (read bare, the classifier keeps it at 0.10).
                # Any verb-led clause (not only a detector's) was measured worse: imperatives to the
                # assistant ("…, keep that in mind for any food stuff"), a taste beside a city
                text, own, elided = said, True, True
            elif owner is None and clauses[i].index not in analysis.absorbed_hits and not own:
                in_list = sizes.get(clauses[0].sentence, 0) >= LIST_SENTENCE
                listed = with_user_subject(clauses[i], text) if in_list else None
                if listed is None:
                    continue  # a detail of the group ("和家人一起生活"), not read (no model text for it)
                text = listed  # "…, bad knee from rugby, into birdwatching big time": read as the user's
            out.append(Split(cand.key, text, join_clauses(analysis.message, clauses[:i], zh),
                              join_clauses(analysis.message, clauses[i:], zh), clauses[0].sentence,
                              tuple(clauses), i, own, owner, clauses[i].norm, elided))
    return out


def said_texts(analysis: Analysis) -> dict[str, str]:
    """Templated contents of the rules (a slot's fixed wording, "Lives in Rotterdam") -> the user's own
    clauses they came from, which the classifier reads instead (it was trained on what people say)."""
    out: dict[str, str] = {}
    for group in analysis.groups:
        if group.hit.content is not None and group.clauses and not group.hit.said:
            clauses = sorted(group.clauses, key=lambda c: c.index)
            out.setdefault(group.hit.content, join_clauses(analysis.message, clauses, analysis.lang_zh))
    return out
