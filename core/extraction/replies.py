"""Reading a model's reply as candidates, and the reply schema asked for (the OpenAI-compatible
provider's structured output, ``core.extraction.openai_provider``).

Contracts:
- ``strict_json_schema`` returns a copy of a JSON schema that OpenAI strict mode accepts: every object
  closed (``additionalProperties: false``) with all properties required, the originally optional ones
  nullable, unsupported keywords removed; the input is not changed;
- ``parse_candidates`` reads ``{"candidates": [...]}``, a bare list, or such JSON in a Markdown fence or
  surrounded by prose; ``None`` values mean "the default"; an item that fails validation is dropped
  and counted, never raised; no candidates list at all raises ``MalformedReply``.
"""

from __future__ import annotations

import copy
import json
import logging
import re
from typing import Any

from pydantic import ValidationError

from core.extraction.candidates import MemoryCandidate

log = logging.getLogger("core.extraction.openai_provider")  # the provider's log, as before the split

# Keywords OpenAI's strict structured outputs accept; others are removed from the derived schema
# (pydantic validates the reply against the full model anyway).
_STRICT_DROP = {"default", "title", "description", "minLength", "maxLength", "minimum", "maximum",
                "exclusiveMinimum", "exclusiveMaximum"}


class MalformedReply(ValueError):
    """The reply could not be read as a candidate list."""


def strict_json_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` made acceptable to OpenAI strict mode: every object closed
    (``additionalProperties: false``) with all properties required, originally optional ones
    nullable; unsupported keywords removed. ``None`` values in a reply mean "use the default"."""
    out: dict[str, Any] = copy.deepcopy(schema)

    def walk(node: Any, is_properties: bool = False) -> None:
        if isinstance(node, dict):
            if not is_properties:  # in a "properties" map the keys are field names, not keywords
                for key in _STRICT_DROP.intersection(node):
                    node.pop(key)
                if node.get("type") == "object" and "properties" in node:
                    props: dict[str, Any] = node["properties"]
                    required = set(node.get("required", []))
                    for name, prop in props.items():
                        if name not in required and not _is_nullable(prop):
                            props[name] = {"anyOf": [prop, {"type": "null"}]}
                    node["required"] = list(props)
                    node["additionalProperties"] = False
            for key, value in node.items():
                walk(value, is_properties=(key == "properties" and not is_properties))
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(out)
    return out


def _is_nullable(prop: dict[str, Any]) -> bool:
    return any(isinstance(alt, dict) and alt.get("type") == "null" for alt in prop.get("anyOf", []))


def _strip_nulls(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _strip_nulls(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, list):
        return [_strip_nulls(v) for v in obj]
    return obj


_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def parse_candidates(text: str | None) -> tuple[list[MemoryCandidate], int]:
    """Candidates in a model reply, and how many items were dropped as invalid.

    Accepts ``{"candidates": [...]}``, a bare list, and a JSON object wrapped in a Markdown fence or
    surrounded by prose. Raises ``MalformedReply`` when no such JSON is found.
    """
    if not text or not text.strip():
        raise MalformedReply("empty reply")
    raw = text.strip()
    fenced = _FENCE.match(raw)
    if fenced:
        raw = fenced.group(1)
    try:
        data = json.loads(raw)
    except ValueError:
        start, end = raw.find("{"), raw.rfind("}")
        if start < 0 or end <= start:
            raise MalformedReply("reply is not JSON") from None
        try:
            data = json.loads(raw[start:end + 1])
        except ValueError:
            raise MalformedReply("reply is not JSON") from None
    if isinstance(data, list):
        data = {"candidates": data}
    if isinstance(data, dict) and "candidates" in data and data["candidates"] is None:
        data["candidates"] = []  # strict schemas make the list nullable
    if not isinstance(data, dict) or not isinstance(data.get("candidates"), list):
        raise MalformedReply("reply has no 'candidates' list")
    out: list[MemoryCandidate] = []
    dropped = 0
    for item in data["candidates"]:
        try:
            out.append(MemoryCandidate.model_validate(_strip_nulls(item)))
        except ValidationError as exc:
            dropped += 1
            log.info("dropping invalid candidate %r: %s", item, exc.errors()[0].get("msg"))
    return out, dropped
