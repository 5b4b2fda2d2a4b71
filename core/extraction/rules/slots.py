"""Slot catalogue: which keys the rules extractor writes, their type, importance, TTL and cardinality.

A *single* slot holds one value (home city, job, reply length): a new statement overwrites it.
A *multi* slot accumulates (food likes, allergies, pets): a new statement merges into it unless
the user signals a change ("现在改成…", "change of plans", "no longer").
"""

from __future__ import annotations

from dataclasses import dataclass

from core.extraction.rules import lexicon
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType


@dataclass(frozen=True)
class SlotSpec:
    memory_type: MemoryType
    importance: int
    ttl_days: int | None
    single: bool


_FIXED: dict[str, SlotSpec] = {
    "fact-home_city": SlotSpec(MemoryType.FACT, 4, 730, True),
    "fact-hometown": SlotSpec(MemoryType.FACT, 3, 3650, True),
    "fact-job": SlotSpec(MemoryType.FACT, 4, 730, True),
    "fact-work_history": SlotSpec(MemoryType.FACT, 3, 1825, False),
    "fact-education": SlotSpec(MemoryType.FACT, 3, 1095, True),
    "fact-family": SlotSpec(MemoryType.FACT, 4, 3650, False),
    "fact-relationship": SlotSpec(MemoryType.FACT, 3, 730, True),
    "fact-friends": SlotSpec(MemoryType.FACT, 3, 1825, False),
    "fact-pets": SlotSpec(MemoryType.FACT, 3, 3650, False),
    "fact-allergy": SlotSpec(MemoryType.FACT, 5, 3650, False),
    "fact-health": SlotSpec(MemoryType.FACT, 4, 1825, False),
    "fact-diet": SlotSpec(MemoryType.FACT, 4, 1825, True),  # a diet of faith or health: halal, no pork
    "preference-diet": SlotSpec(MemoryType.PREFERENCE, 4, 1825, True),  # a chosen diet: vegetarian, vegan
    "fact-traits": SlotSpec(MemoryType.FACT, 3, 3650, False),
    "fact-age": SlotSpec(MemoryType.FACT, 2, 365, True),
    "fact-birthday": SlotSpec(MemoryType.FACT, 3, 3650, True),
    "fact-vehicle": SlotSpec(MemoryType.FACT, 2, 1095, False),
    "fact-devices": SlotSpec(MemoryType.FACT, 2, 1095, False),  # the phone, computer, tablet the user has
    "fact-home": SlotSpec(MemoryType.FACT, 2, 1825, False),  # the user's home and what it has
    "fact-languages": SlotSpec(MemoryType.FACT, 3, 3650, False),
    "fact-alma_mater": SlotSpec(MemoryType.FACT, 3, 3650, True),
}
_SINGLE_CONSTRAINTS = {"reply_length", "language", "currency", "units", "tone"}
_TYPE_DEFAULTS: dict[MemoryType, SlotSpec] = {
    MemoryType.PREFERENCE: SlotSpec(MemoryType.PREFERENCE, 3, 365, False),
    MemoryType.GOAL: SlotSpec(MemoryType.GOAL, 4, 365, False),
    MemoryType.PROJECT: SlotSpec(MemoryType.PROJECT, 4, None, False),
    MemoryType.CONSTRAINT: SlotSpec(MemoryType.CONSTRAINT, 4, 730, False),
    MemoryType.FACT: SlotSpec(MemoryType.FACT, 3, 730, False),
}


def spec(key: str) -> SlotSpec:
    """The spec of ``key`` (unknown keys get their type's defaults; type from the key prefix)."""
    if key in _FIXED:
        return _FIXED[key]
    prefix, _, rest = key.partition("-")
    try:
        memory_type = MemoryType(prefix)
    except ValueError:
        memory_type = MemoryType.FACT
    base = _TYPE_DEFAULTS[memory_type]
    if memory_type is MemoryType.CONSTRAINT and rest in _SINGLE_CONSTRAINTS:
        return SlotSpec(base.memory_type, base.importance, base.ttl_days, True)
    return base


def is_single(key: str) -> bool:
    return spec(key).single


# Words that identify a slot inside someone else's key (an LLM- or tool-written memory), so the
# rules extractor can reuse that key instead of creating a parallel one.
SLOT_ALIASES: dict[str, frozenset[str]] = {
    "fact-home_city": frozenset({"city", "location", "live", "lives", "living", "residence", "home", "based",
                                 "reside", "address", "current_city", "home_city"}),
    "fact-hometown": frozenset({"hometown", "origin", "grew", "birthplace"}),
    "fact-job": frozenset({"job", "occupation", "profession", "work", "employer", "role", "title", "position",
                           "career", "company", "employment"}),
    "fact-education": frozenset({"education", "school", "university", "college", "major", "degree", "study"}),
    "fact-family": frozenset({"family", "kids", "children", "child", "daughter", "son", "wife", "husband",
                              "spouse", "parents"}),
    "fact-relationship": frozenset({"relationship", "partner", "dating", "boyfriend", "girlfriend"}),
    "fact-friends": frozenset({"friends", "friend", "roommate", "colleague", "colleagues", "coworker"}),
    "fact-pets": frozenset({"pet", "pets", "dog", "cat", "dogs", "cats"}),
    "fact-allergy": frozenset({"allergy", "allergies", "allergic", "intolerance"}),
    "fact-health": frozenset({"health", "medical", "condition", "injury", "surgery"}),
    "fact-diet": frozenset({"diet", "dietary", "halal", "kosher"}),
    "preference-diet": frozenset({"diet", "dietary", "vegetarian", "vegan", "pescatarian"}),
    "fact-traits": frozenset({"trait", "traits", "personality", "handedness"}),
    "fact-age": frozenset({"age"}),
    "fact-birthday": frozenset({"birthday", "birthdate", "dob"}),
    "fact-vehicle": frozenset({"car", "vehicle", "vehicles"}),
    "fact-devices": frozenset({"phone", "laptop", "computer", "device", "devices", "tablet"}),
    "fact-languages": frozenset({"languages", "language_spoken", "spoken_languages", "native_language"}),
    "fact-alma_mater": frozenset({"alma_mater", "graduated", "university", "college"}),
    "constraint-reply_length": frozenset({"length", "reply_length", "brevity", "concise", "max_length",
                                          "word_limit", "words", "paragraphs"}),
    "constraint-language": frozenset({"language", "reply_language", "spelling", "locale"}),
    "constraint-currency": frozenset({"currency", "price", "prices", "rmb", "cny"}),
    "constraint-format": frozenset({"format", "formatting", "bullets", "markdown"}),
    "constraint-code_comments": frozenset({"comments", "comment", "code_comments"}),
    "constraint-shell": frozenset({"shell", "bash", "terminal"}),
    "constraint-tone": frozenset({"tone", "style"}),
}
for _topic, _ in lexicon.PREF_TOPICS_EN:
    SLOT_ALIASES.setdefault(f"preference-{_topic}", frozenset({_topic}))
for _topic, _ in lexicon.GOAL_TOPICS_EN:
    SLOT_ALIASES.setdefault(f"goal-{_topic}", frozenset({_topic}))

KNOWN_KEYS: frozenset[str] = frozenset(
    set(_FIXED)
    | {f"preference-{t}" for t, _ in lexicon.PREF_TOPICS_EN + lexicon.PREF_TOPICS_ZH}
    | {f"goal-{t}" for t, _ in lexicon.GOAL_TOPICS_EN + lexicon.GOAL_TOPICS_ZH}
    | {f"constraint-{t}" for t, _ in lexicon.CONSTRAINT_TOPICS}
    | {"preference-routine"}
)


def is_known_slot(key: str) -> bool:
    """A slot of the rules catalogue (not a per-statement fallback key, not another provider's key)."""
    return key in KNOWN_KEYS


_TYPE_PREFIXES = frozenset(t.value for t in MemoryType)


def names_a_slot(key: str) -> bool:
    """A slot someone named: a catalogue slot, or a key another writer chose (an agent tool's or an
    integrator's ``diet-restriction``), told apart from the rules' per-statement ``<type>-<slug>`` keys by
    its first part not being a memory type. Two named slots never replace each other in the update judge."""
    return key in KNOWN_KEYS or key.split("-", 1)[0] not in _TYPE_PREFIXES


_TOKEN_SPLIT = re.compile(r"[-_.]+")


def key_tokens(key: str) -> set[str]:
    tokens = set(_TOKEN_SPLIT.split(key.lower()))
    parts = key.lower().split("-", 1)
    if len(parts) == 2:
        tokens.add(parts[1])
    return tokens
