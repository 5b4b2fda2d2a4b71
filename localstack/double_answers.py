"""TEST DOUBLE answers: one scripted ``Reply`` and the stand-in "models" ``localstack.openai_double`` serves
(``--chat``): not a product component, nothing in the service imports it."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass
class Reply:
    """One scripted reply. ``content`` is the assistant message (chat) or ignored (embeddings)."""

    content: str | None = None
    status: int = 200
    delay: float = 0.0
    raw: bytes | None = None  # sent verbatim as the body, bypassing the OpenAI envelope
    dim: int | None = None  # embeddings: reply with this dimension instead of the configured one
    prompt_tokens: int = 11
    completion_tokens: int = 7
    retry_after: float | None = None  # sent as a Retry-After header (seconds)


_EMPTY = '{"candidates": []}'


def _current_message(body: dict[str, Any]) -> str | Reply:
    """The current user message of a stage-1 prompt; or the reply itself: stage 2 (a prompt with a
    candidates block) keeps the candidates it was given, and a prompt without a message answers none."""
    from core.extraction.prompts import CANDIDATES_BLOCK, CURRENT_BLOCK
    from core.prompt_data import BlockFormatError, read_block

    messages = body.get("messages") or []
    prompt = str(messages[-1].get("content", "")) if messages else ""
    try:
        if f"<{CANDIDATES_BLOCK}>" in prompt:
            return Reply(content=json.dumps({"candidates": read_block(prompt, CANDIDATES_BLOCK)},
                                            ensure_ascii=False))
        current = read_block(prompt, CURRENT_BLOCK)
    except BlockFormatError:
        return Reply(content=_EMPTY)
    text = str(current[0].get("content", "") if current and isinstance(current[0], dict) else "").strip()
    return text or Reply(content=_EMPTY)


def echo_candidates(body: dict[str, Any]) -> Reply:
    """A stand-in "model" (``--chat echo-candidates``): stage 1 answers one ``fact`` candidate holding the
    current user message; stage 2 (a prompt with a candidates block) keeps the candidates it was given."""
    text = _current_message(body)
    if isinstance(text, Reply):
        return text
    candidate = {"memory_type": "fact", "key": "bench-statement", "content": text[:1000],
                 "importance": 3, "confidence": 0.9}
    return Reply(content=json.dumps({"candidates": [candidate]}, ensure_ascii=False))


_RULES: Any = None
_RULES_LOCK = threading.Lock()


def rules_extractor() -> Any:
    """The one ``RulesExtractor`` of this process, made (and warmed up) on first use."""
    global _RULES
    from core.extraction.rules import RulesExtractor

    with _RULES_LOCK:
        if _RULES is None:
            _RULES = RulesExtractor()
            _RULES.warm_up()
        return _RULES


def rules_candidates(body: dict[str, Any]) -> Reply:
    """A stand-in "model" (``--chat rules-candidates``): stage 1 answers the candidates the offline rules
    extractor finds in the current user message; stage 2 keeps the candidates it was given."""
    from core.extraction.candidates import ExtractionInput

    text = _current_message(body)
    if isinstance(text, Reply):
        return text
    found = rules_extractor().extract(ExtractionInput(user_message=text))
    return Reply(content=json.dumps({"candidates": [c.model_dump(mode="json") for c in found]},
                                    ensure_ascii=False))


CHAT_HANDLERS: dict[str, Callable[[dict[str, Any]], Reply]] = {
    "echo-candidates": echo_candidates,
    "rules-candidates": rules_candidates,
    "empty": lambda body: Reply(content=_EMPTY),
}
