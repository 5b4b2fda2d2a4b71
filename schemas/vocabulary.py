"""Vocabulary of the contract: the enums event payloads carry (memory types, roles, operations).

Dependency direction: ``schemas`` imports nothing of ours; ``core`` imports these from here (and
re-exports them from ``core.types`` beside the domain-only enums), so the wire contract and the domain
can never disagree on a value.
"""

from __future__ import annotations

from enum import StrEnum


# What each type holds, with examples: docs/design.md#memory-types (this docstring is the wire schema's text).
class MemoryType(StrEnum):
    """The five long-term memory types. Profile fields (nickname, the assistant's name) are never memories."""

    PREFERENCE = "preference"
    FACT = "fact"
    GOAL = "goal"
    PROJECT = "project"
    CONSTRAINT = "constraint"


class MessageRole(StrEnum):
    USER = "user"
    ASSISTANT = "assistant"
    SYSTEM = "system"
    TOOL = "tool"


class MemoryOperation(StrEnum):
    """What a write did to a memory; recorded in history and counted in metrics."""

    CREATE = "create"
    OVERWRITE = "overwrite"
    MERGE = "merge"
    APPEND = "append"
    DELETE = "delete"
    EXPIRE = "expire"
    DEDUPE = "dedupe"
    NORMALISE = "normalise"
    ERASE = "erase"
