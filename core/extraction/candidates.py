"""What extraction produces and consumes: the contract between providers and the pipeline."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from core.types import MemoryType
from schemas.events import DEFAULT_MEMORY_CONFIDENCE, MAX_MEMORY_CONTENT_CHARS, MAX_MEMORY_KEY_CHARS


class CandidateOp(StrEnum):
    """What a candidate asks the upsert stage to do."""

    UPSERT = "upsert"  # create, or overwrite the memory with the same key
    APPEND = "append"  # add to the memory with the same key
    DELETE = "delete"  # the user retracted it: deactivate the memory with this key


class MemoryCandidate(BaseModel):
    """One proposed long-term memory, as stage 1 (candidates) and stage 2 (refine) emit it.

    ``key`` is a short stable slug such as ``food-favorite_dish`` (lowercase ASCII, digits,
    ``-``, ``_``, ``.``); ``content`` is a self-contained statement in the user's language.
    """

    model_config = ConfigDict(extra="forbid")

    op: CandidateOp = CandidateOp.UPSERT
    memory_type: MemoryType
    key: str = Field(min_length=1, max_length=MAX_MEMORY_KEY_CHARS)
    content: str = Field(default="", max_length=MAX_MEMORY_CONTENT_CHARS)
    importance: int = Field(3, ge=1, le=5)
    confidence: float = Field(DEFAULT_MEMORY_CONFIDENCE, ge=0.0, le=1.0)
    ttl_days: int | None = Field(None, ge=1, le=36500)
    # the key of an EXISTING memory this candidate replaces: an update ("I used to..., now...",
    # "不...了，改...") overwrites it (same key) or deactivates it in favour of ``key``; a ``delete``
    # naming it retracts it. The write's history says "superseded/retracted by message N".
    supersedes: str | None = Field(None, min_length=1, max_length=160)


class CandidateList(BaseModel):
    """Structured-output envelope an LLM provider must return."""

    model_config = ConfigDict(extra="forbid")

    candidates: list[MemoryCandidate] = Field(default_factory=list)


@dataclass(frozen=True)
class ContextMessage:
    role: str  # "user" | "assistant" | ...
    content: str


@dataclass(frozen=True)
class ExistingMemory:
    """A memory the user already has, as refine sees it."""

    key: str
    memory_type: str
    content: str


@dataclass(frozen=True)
class ExtractionInput:
    """Everything stage 1 may look at. Only ``user_message`` is a source of facts;
    ``context`` (earlier turns, assistant replies included) and ``summary`` only help judge
    whether a statement is stable or supersedes an older one."""

    user_message: str
    context: tuple[ContextMessage, ...] = ()
    summary: str | None = None
    existing: tuple[ExistingMemory, ...] = field(default_factory=tuple)
    sent_at: datetime | None = None  # when the (last) user message was sent: resolves "yesterday" to a date


class ExtractionError(RuntimeError):
    """Extraction failed in a way that may succeed on retry (timeout, bad reply, endpoint down)."""


class ExtractionCancelled(ExtractionError):
    """The provider was closed (shutdown) before or during the burst's calls: not the burst's fault,
    so it is not counted as a failed attempt; its offsets stay uncommitted and it runs again later."""


class CandidateExtractor(Protocol):
    """Stages 1 (extract) and 2 (refine) of the write pipeline (``docs/design.md#the-write-pipeline``),
    as one provider implements them."""

    name: str

    def extract(self, data: ExtractionInput) -> list[MemoryCandidate]:
        """Stage 1: candidates from ``data.user_message``. Raises ``ExtractionError``."""
        ...

    def refine(self, data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        """Stage 2: judge each candidate against ``data.existing``: keep it, merge it into an
        existing memory (same key, combined content), reuse an existing key, or drop it."""
        ...



def is_cpu_bound(extractor: CandidateExtractor) -> bool:
    """True when the provider computes in process (``cpu_bound = True``, the ``rules`` provider) rather than
    waiting on a model server: running more of its bursts at once than there are cores only stretches
    each one toward its budget."""
    return bool(getattr(extractor, "cpu_bound", False))


def reads_context(extractor: CandidateExtractor, data: ExtractionInput) -> bool:
    """Whether ``extractor``'s refine has something to read in ``data``'s earlier turns even with no candidate
    and no live memory (the callers' "nothing to refine" shortcut: ``budget.run_burst``, the replay dry run,
    the offline bench): the provider's ``reads_context(data)``, False if it declares none. The ``rules``
    provider reads a change told in chat words against an earlier statement nothing stored holds
    (``core.extraction.rules.judge_shadows``)."""
    hook = getattr(extractor, "reads_context", None)
    return bool(hook(data)) if callable(hook) else False


class DelegatingExtractor:
    """Base of the provider decorators (budget, metrics): the provider's name, its named slots and
    its ``close`` pass through to ``inner``; a subclass wraps ``extract``/``refine``."""

    def __init__(self, inner: CandidateExtractor) -> None:
        self.inner = inner
        self.name = inner.name
        self.cpu_bound = is_cpu_bound(inner)

    def named_slot(self, key: str) -> bool:
        """The inner provider's named slots (``core.memory.upsert.NamedSlot``), none if it declares none."""
        inner = getattr(self.inner, "named_slot", None)
        return bool(inner(key)) if inner is not None else False

    def reads_context(self, data: ExtractionInput) -> bool:
        """The inner provider's ``reads_context`` (``candidates.reads_context``)."""
        return reads_context(self.inner, data)

    def close(self) -> None:
        """Cancel the inner provider's waiting and retrying calls (``ExtractionCancelled``), if it can."""
        close = getattr(self.inner, "close", None)
        if callable(close):
            close()

    def warm_up(self) -> None:
        """Load the inner provider's models now (at process start), if it has any."""
        warm = getattr(self.inner, "warm_up", None)
        if callable(warm):
            warm()
