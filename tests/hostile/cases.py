"""The hostile-input corpus: loading and materialising ``corpus/events.jsonl`` and ``corpus/http.jsonl``.

Event lines (one JSON object each)::

    {"name": unique id-safe name, "category": one of EVENT_CATEGORIES, "kind": "chat" | "command",
     "why": what the case attacks, "expect": "dlq" | "stored" | "noop",
     "error_type": SchemaError subclass or "InvalidMemoryInput" (dlq only),
     "reason_contains": optional substring of the DLQ reason,
     one value source:
       "value_text": raw text (UTF-8) | "value_b64": raw bytes | "value_null": true (Kafka tombstone) |
       "value_generate": [[text, repeat], ...] (concatenated; large raw values built at test time) |
       "base": "chat" | "save" | "append" | "delete" | "dirty" (a valid event of that type, named after
               the case) changed by "set" {dotted.path: value}, "unset" [dotted.path],
               "generate" {"path", "text", "repeat", optional "prefix"/"suffix"} (large values are built
               at test time),
               "splice" [[find, replace], ...] on the serialised text, "ascii": escape non-ASCII
               (so lone surrogates become \\uXXXX escapes), "encoding" (default utf-8),
     "key": Kafka key (default: the event's user id, else "hostile"),
     "expect_memory": {"user", "key", "content"} for stored commands (content stored byte-exact),
     "forbid_in_memories": [strings no memory of any user may contain afterwards],
     "expect_status": for stored chat cases, the final status ("PROCESSED" | "SKIPPED") when it matters}

A ``stored`` chat case must be stored with its ``data.content`` byte-exact in ``messages.content`` and
reach a final status; ``noop`` commands are consumed without dead letter and change nothing.

HTTP lines::

    {"name", "category": one of HTTP_CATEGORIES, "method", "path", "why",
     "headers": extra headers, "auth": "token" (default: the right bearer token) | "none" |
     "duplicate" (a right and a wrong Authorization header) | a literal Authorization value,
     "auth_b64": raw Authorization header bytes ("{token}"/"{token_prefix}" in "auth" and "path"
     are replaced by the server's token / its first half),
     one body: "json": any JSON value ("ascii": false keeps non-ASCII raw) | "body_text" | "body_b64" |
     "body_generate" [[text, repeat], ...] | "generate_body" {"text", "repeat"} (a JSON object
     {"user_id", "key", "content": text*repeat} is sent),
     "expect_status": int, "expect_code": optional error code}

Bodies and values are materialised deterministically, so a failing case can be replayed by name.
"""

from __future__ import annotations

import base64
import copy
import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.types import MemoryOperation, MessageRole
from schemas import (
    ChatMessageData,
    MemoryAppendData,
    MemoryDeleteData,
    MemoryDirtyData,
    MemorySaveData,
    make_event,
    to_dict,
)

CORPUS_DIR = Path(__file__).parent / "corpus"
EVENTS_FILE = CORPUS_DIR / "events.jsonl"
HTTP_FILE = CORPUS_DIR / "http.jsonl"

EVENT_CATEGORIES = frozenset({
    "invalid_json", "encoding", "wrong_type", "missing_field", "unknown_version", "unknown_type",
    "oversized", "ids", "sql_injection", "milvus_injection", "unicode", "prompt_injection", "domain",
    "isolation", "redos",
})
HTTP_CATEGORIES = frozenset({
    "invalid_json", "encoding", "wrong_type", "missing_field", "unknown_field", "oversized", "ids",
    "sql_injection", "milvus_injection", "unicode", "auth", "routing", "domain", "headers", "ambiguous",
})
EXPECTATIONS = frozenset({"dlq", "stored", "noop"})
DEFAULT_USER = "hostile-user"
T0 = datetime(2025, 6, 1, 8, 0, tzinfo=UTC)


@dataclass(frozen=True)
class EventCase:
    name: str
    category: str
    kind: str
    expect: str
    why: str
    key: bytes | None
    value: bytes | None
    error_type: str | None = None
    reason_contains: str | None = None
    expect_memory: dict[str, str] | None = None
    forbid_in_memories: tuple[str, ...] = ()
    spec: dict[str, Any] = field(default_factory=dict)

    @property
    def data(self) -> dict[str, Any] | None:
        """The event's ``data`` object when the value is a JSON object with one (else None)."""
        try:
            obj = json.loads(self.value or b"")
        except (ValueError, RecursionError):
            return None
        data = obj.get("data") if isinstance(obj, dict) else None
        return data if isinstance(data, dict) else None


@dataclass(frozen=True)
class HttpCase:
    name: str
    category: str
    method: str
    path: str
    why: str
    headers: dict[str, str]
    auth: str
    body: bytes | None
    expect_status: int
    expect_code: str | None = None
    auth_raw: bytes | None = None

    def url(self, token: str) -> str:
        return _fill(self.path, token)

    def request_headers(self, token: str) -> list[tuple[bytes, bytes]]:
        """Headers to send (a list: the same name may repeat), Authorization included per ``auth``."""
        out = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in self.headers.items()]
        if self.auth_raw is not None:
            out.append((b"authorization", self.auth_raw))
        elif self.auth == "token":
            out.append((b"authorization", f"Bearer {token}".encode()))
        elif self.auth == "duplicate":
            out += [(b"authorization", f"Bearer {token}".encode()), (b"authorization", b"Bearer wrong")]
        elif self.auth != "none":
            out.append((b"authorization", _fill(self.auth, token).encode("latin-1")))
        return out


def _fill(text: str, token: str) -> str:
    return text.replace("{token}", token).replace("{token_prefix}", token[: len(token) // 2])


def _base_event(base: str, name: str) -> dict[str, Any]:
    ident = f"h-{name}"[:128]
    if base == "chat":
        data: Any = ChatMessageData(message_id=ident, user_id=DEFAULT_USER, conversation_id=ident,
                                    role=MessageRole.USER, content="hello there", created_at=T0)
    elif base == "save":
        data = MemorySaveData(command_id=ident, user_id=DEFAULT_USER, key="note", content="a note")
    elif base == "append":
        data = MemoryAppendData(command_id=ident, user_id=DEFAULT_USER, key="note", content="more")
    elif base == "delete":
        data = MemoryDeleteData(command_id=ident, user_id=DEFAULT_USER, key="note")
    elif base == "dirty":
        data = MemoryDirtyData(memory_id=1, user_id=DEFAULT_USER, user_pk=1, memory_key="note",
                               operation=MemoryOperation.CREATE, outbox_id=1, changed_at=T0)
    else:
        raise ValueError(f"unknown base {base!r}")
    return to_dict(make_event(data, source="hostile-corpus", time=T0))


def _walk(obj: dict[str, Any], path: str) -> tuple[dict[str, Any], str]:
    *parents, last = path.split(".")
    for part in parents:
        obj = obj[part]
    return obj, last


def _materialise_value(spec: dict[str, Any]) -> bytes | None:
    if spec.get("value_null"):
        return None
    if "value_text" in spec:
        return str(spec["value_text"]).encode("utf-8")
    if "value_b64" in spec:
        return base64.b64decode(spec["value_b64"])
    if "value_generate" in spec:
        return "".join(str(text) * int(n) for text, n in spec["value_generate"]).encode("utf-8")
    obj = _base_event(spec["base"], spec["name"])
    for path, value in (spec.get("set") or {}).items():
        parent, last = _walk(obj, path)
        parent[last] = copy.deepcopy(value)
    for path in spec.get("unset") or ():
        parent, last = _walk(obj, path)
        parent.pop(last)
    gen = spec.get("generate")
    if gen:
        parent, last = _walk(obj, gen["path"])
        run = str(gen["text"]) * int(gen["repeat"])
        parent[last] = str(gen.get("prefix", "")) + run + str(gen.get("suffix", ""))
    text = json.dumps(obj, ensure_ascii=bool(spec.get("ascii")), separators=(",", ":"))
    for find, replace in spec.get("splice") or ():
        if find not in text:
            raise ValueError(f"{spec['name']}: splice target {find!r} not in the serialised event")
        text = text.replace(find, replace, 1)
    return text.encode(spec.get("encoding", "utf-8"), spec.get("encode_errors", "strict"))


def _default_key(spec: dict[str, Any], value: bytes | None) -> bytes:
    if "key" in spec:
        return str(spec["key"]).encode("utf-8")
    try:
        obj = json.loads(value or b"")
        user = obj["data"]["user_id"]
        if isinstance(user, str) and user:
            return user.encode("utf-8", "surrogatepass")
    except (ValueError, KeyError, TypeError, RecursionError):
        pass
    return b"hostile"


def load_event_cases(path: Path = EVENTS_FILE) -> list[EventCase]:
    cases = []
    for line in path.read_text("utf-8").split("\n"):  # not splitlines: U+2028 is data
        if not line.strip():
            continue
        spec = json.loads(line)
        value = _materialise_value(spec)
        cases.append(EventCase(
            name=spec["name"], category=spec["category"], kind=spec["kind"], expect=spec["expect"],
            why=spec["why"], key=_default_key(spec, value), value=value, error_type=spec.get("error_type"),
            reason_contains=spec.get("reason_contains"), expect_memory=spec.get("expect_memory"),
            forbid_in_memories=tuple(spec.get("forbid_in_memories") or ()), spec=spec))
    return cases


def _materialise_body(spec: dict[str, Any]) -> bytes | None:
    if "json" in spec:
        return json.dumps(spec["json"], ensure_ascii=bool(spec.get("ascii", True))).encode("utf-8")
    if "body_text" in spec:
        return str(spec["body_text"]).encode("utf-8")
    if "body_b64" in spec:
        return base64.b64decode(spec["body_b64"])
    if "body_generate" in spec:
        return "".join(str(text) * int(n) for text, n in spec["body_generate"]).encode("utf-8")
    gen = spec.get("generate_body")
    if gen:
        return json.dumps({"user_id": "http-big", "key": "big",
                           "content": str(gen["text"]) * int(gen["repeat"])}).encode("utf-8")
    return None


def load_http_cases(path: Path = HTTP_FILE) -> list[HttpCase]:
    cases = []
    for line in path.read_text("utf-8").split("\n"):  # not splitlines: U+2028 is data
        if not line.strip():
            continue
        spec = json.loads(line)
        headers = dict(spec.get("headers") or {})
        json_body = "json" in spec or "generate_body" in spec
        if json_body and not any(k.lower() == "content-type" for k in headers):
            headers["content-type"] = "application/json"
        cases.append(HttpCase(
            name=spec["name"], category=spec["category"], method=spec["method"], path=spec["path"],
            why=spec["why"], headers=headers, auth=spec.get("auth", "token"),
            body=_materialise_body(spec), expect_status=int(spec["expect_status"]),
            expect_code=spec.get("expect_code"),
            auth_raw=base64.b64decode(spec["auth_b64"]) if "auth_b64" in spec else None))
    return cases
