"""What a write to the memory truth is, before ``MemoryWriter`` applies it: who and what it is
attributed to (``WriteContext``), what the row must become (``MemoryWrite``), what it did
(``WriteResult``), where known vectors come from (``KnownVectors``), and the input rules every write
passes first.

Contracts:
- ``validate_key`` returns the normalised key, or raises ``InvalidMemoryInput`` for a key that is empty
  after normalisation, a known noise key or a profile field;
- ``clean_content`` returns the content with NULs removed, whitespace collapsed and cut to
  ``MAX_MEMORY_CONTENT_CHARS``, or raises ``InvalidMemoryInput`` when nothing is left.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import numpy as np

from core.filters import is_noise_key, is_profile_key, key_has_substance, normalise_key
from core.memory.errors import InvalidMemoryInput
from core.types import MemoryOperation, MemoryType, WriteSource
from schemas.events import DEFAULT_MEMORY_CONFIDENCE, MAX_MEMORY_CONTENT_CHARS


@dataclass(frozen=True)
class WriteContext:
    """Who and what a write is attributed to."""

    user_pk: int
    source: WriteSource
    conversation_pk: int | None = None
    source_message_pk: int | None = None
    command_id: str | None = None
    reason: str | None = None
    origin_at: datetime | None = None  # creation time of the message/command that caused the write


@dataclass(frozen=True)
class WriteResult:
    memory_id: int | None
    memory_key: str
    operation: MemoryOperation | None  # None: nothing changed

    @property
    def changed(self) -> bool:
        return self.operation is not None


@dataclass(frozen=True)
class MemoryWrite:
    """A fully resolved write: what the row must become."""

    key: str
    memory_type: MemoryType
    content: str
    importance: int = 3
    confidence: float = DEFAULT_MEMORY_CONFIDENCE
    ttl_days: int | None = None


class KnownVectors(Protocol):
    """The write side's passage vectors (``SemanticDeduper``, cached by text hash). Used only where the
    write side embeds every written text anyway (the extractor's post-write merge), so asking for one
    costs no model call that would not happen otherwise."""

    @property
    def model(self) -> str: ...

    def vector(self, text: str) -> np.ndarray: ...


def validate_key(raw: str) -> str:
    """The normalised key, or ``InvalidMemoryInput`` for empty, noise and profile keys."""
    key = normalise_key(raw)
    if not key or not key_has_substance(raw):
        # "   " and "!!!---" would both become the fallback "memory" and overwrite each other
        raise InvalidMemoryInput("memory key is empty after normalisation (it needs a letter or a digit)")
    if is_noise_key(key):
        raise InvalidMemoryInput(f"memory key {key!r} is a known noise key")
    if is_profile_key(key):
        raise InvalidMemoryInput(f"memory key {key!r} is a profile field, not a memory")
    return key


def clean_content(content: str) -> str:
    """The content as stored (see the module docstring); ``InvalidMemoryInput`` when empty."""
    content = " ".join(content.replace("\x00", "").split())
    if not content:
        raise InvalidMemoryInput("memory content is empty")
    return content[:MAX_MEMORY_CONTENT_CHARS]
