"""The enumerated values some variables take (``LONG_TERM_MEMORY_RETRIEVE_MODE`` and the providers)."""

from __future__ import annotations

from enum import StrEnum


class RetrieveMode(StrEnum):
    FULL_INJECT = "full_inject"
    DENSE = "dense"


class ExtractorProvider(StrEnum):
    RULES = "rules"
    OPENAI = "openai"


class EmbeddingProvider(StrEnum):
    LOCAL = "local"
    OPENAI = "openai"
