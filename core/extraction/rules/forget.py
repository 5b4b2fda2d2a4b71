"""Requests to forget in the rules extractor ("把我的地址删了", "please forget that"): what the user
asks to forget and which of their memories that deletes.

Contracts: ``is_about_self`` tells the user forgetting something ("我忘了带钥匙", "I forgot my keys")
from a request to forget; ``forget_topics`` returns the topics a forget sentence names, else the
statement it follows in the same sentence, else the user's previous turn (from ``context``), else
nothing; ``deletions_for`` returns a ``Deletion`` for each existing memory whose slot a topic names
("地址" -> ``fact-location``) or whose key and content a topic matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from core.extraction.candidates import ContextMessage, ExistingMemory
from core.extraction.rules import patterns
from core.extraction.rules.keys import salient_tokens
from core.extraction.rules.segment import Clause, has_cjk, normalise
from core.extraction.rules.topics import topic_matches
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

# discourse lead-ins that carry no topic ("also", "对了")
_LEAD_IN = re.compile(r"^(?:also|and|oh|ok(?:ay)?|so|well|by the way|btw|"
                      r"还有|对了|另外|哦|嗯|那|然后)[,，\s]*")


@dataclass
class Deletion:
    """A memory a forget request deletes."""

    key: str
    memory_type: str
    content: str


def is_about_self(text: str) -> bool:
    """"我忘了带钥匙" / "I forgot my keys" is the user forgetting, not a request to forget."""
    return bool(re.search(r"我(?:又|总|老|经常|差点)?忘(?:了|记)" + re.not_followed_by("吧")
                          + r"|\bi (?:always |"
                          r"often |keep )?forg[eo]t\b", text)) \
        and not re.search(r"你|帮我|别记|不要记|删|memory|记忆|please|pls|forget (?:about )?(?:the|"
                          r"that|this|it)\b",
                          text)


def forget_topics(clauses: list[Clause], context: Sequence[ContextMessage]) -> list[str]:
    """The topics the forget sentence ``clauses`` names (see the module docstring)."""
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
        prev = previous_user_turn(context)
        if prev:
            topics.append(prev)
    return topics


def previous_user_turn(context: Sequence[ContextMessage]) -> str | None:
    """The latest non-empty user message of ``context``."""
    for msg in reversed(context):
        if msg.role == "user" and msg.content.strip():
            return msg.content
    return None


def deletions_for(topics: list[str], existing: Sequence[ExistingMemory]) -> list[Deletion]:
    """The memories of ``existing`` that forgetting ``topics`` deletes."""
    slots = {slot for topic in topics for slot, rx in patterns.SLOT_NAMES.items()
             if rx.search(normalise(topic))}
    out: list[Deletion] = []
    for memory in existing:
        named = memory.key in slots
        if named or any(topic_matches(topic, memory.key + " " + memory.content) for topic in topics):
            out.append(Deletion(memory.key, memory.memory_type, memory.content))
    return out
