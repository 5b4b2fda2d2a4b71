"""The index text of a memory and its hash: ``[{memory_type}] {memory_key}: {content}``
(``docs/design.md#indexer``)."""

from __future__ import annotations

import hashlib


def index_text(memory_type: str | None, memory_key: str, content: str | None) -> str:
    return f"[{memory_type or 'fact'}] {memory_key}: {content or ''}"


def text_hash(text: str) -> str:
    """SHA-256 hex of the index text (fits ``vector_text_hash VARCHAR(64)``)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
