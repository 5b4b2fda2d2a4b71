"""The AsyncAPI 3.0 document of every Kafka topic the service produces or consumes, from the code.

    python -m schemas.asyncapi            # write schemas/asyncapi.yaml
    python -m schemas.asyncapi --check    # exit 1 if the file differs from the code

Channels are the default topic names (``schemas.topics``, the defaults of ``TOPIC_*``, and ``<group><suffix>``
for each consumer group's DLQ); message payloads are the event models' JSON Schemas (the same as
``schemas/json/``, with ``$ref``s inlined so each payload stands alone); keys are the user id (the
DLQ keeps the failed record's key); headers are those the producers set (``PRODUCER_HEADERS``, checked
against the producers' constants by the tests). Deterministic output: a diff means the contract changed.
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path
from typing import Any

import yaml

from schemas import topics
from schemas.events import (
    CHAT_MESSAGE_V1,
    DEAD_LETTER_V1,
    EPISODE_DIRTY_V1,
    ID_PATTERN,
    MEMORY_COMMAND_V1,
    MEMORY_DIRTY_V1,
)
from schemas.generate import schema_for
from schemas.generated_file import check_or_write, stale_file, write_file

ASYNCAPI_FILE = Path(__file__).resolve().parent / "asyncapi.yaml"
ASYNCAPI_VERSION = "3.0.0"
KAFKA_BINDING_VERSION = "0.5.0"
PAYLOAD_FORMAT = "application/schema+json;version=draft-2020-12"
CLOUDEVENTS_CONTENT_TYPE = "application/cloudevents+json; charset=utf-8"
OUTBOX_ID_HEADER = "pai-outbox-id"

PRODUCER_HEADERS: dict[str, dict[str, str]] = {
    "producers.client.MemoryEventProducer": {"content-type": CLOUDEVENTS_CONTENT_TYPE},
    "producers.outbox_relay": {"content-type": CLOUDEVENTS_CONTENT_TYPE, OUTBOX_ID_HEADER: "<outbox row id>"},
    "consumers.dlq.DeadLetterPublisher": {},
}
"""Kafka headers each producer sets on every record (name -> value or a description of it)."""


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with local ``#/$defs/...`` references replaced by the definitions (no ``$defs`` left)."""
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                merged = {**copy.deepcopy(defs[ref.removeprefix("#/$defs/")]),
                          **{k: v for k, v in node.items() if k != "$ref"}}
                return walk(merged)
            return {k: walk(v) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    out: dict[str, Any] = walk(schema)
    return out


def _defaults() -> dict[str, Any]:
    return {
        "TOPIC_CHAT_MESSAGES": topics.TOPIC_CHAT_MESSAGES,
        "TOPIC_MEMORY_COMMANDS": topics.TOPIC_MEMORY_COMMANDS,
        "TOPIC_MEMORY_DIRTY": topics.TOPIC_MEMORY_DIRTY, "DLQ_TOPIC_SUFFIX": topics.DLQ_TOPIC_SUFFIX,
        "GROUP_EXTRACTOR": topics.GROUP_EXTRACTOR, "GROUP_COMMANDS": topics.GROUP_COMMANDS,
        "GROUP_INDEXER": topics.GROUP_INDEXER, "KAFKA_TOPIC_PARTITIONS": topics.TOPIC_PARTITIONS,
    }


def _headers(producer: str) -> dict[str, Any] | None:
    headers = PRODUCER_HEADERS[producer]
    if not headers:
        return None
    props: dict[str, Any] = {}
    for name, value in headers.items():
        if value.startswith("<"):
            props[name] = {"type": "string", "description": value.strip("<>") + " (decimal, UTF-8)"}
        else:
            props[name] = {"type": "string", "const": value}
    return {"type": "object", "properties": props, "required": sorted(headers)}


def _message(name: str, event_type: str, summary: str, key: dict[str, Any], producer: str) -> dict[str, Any]:
    payload = inline_refs(schema_for(event_type))
    payload.pop("$schema", None)
    message: dict[str, Any] = {
        "name": event_type,
        "title": name,
        "summary": summary,
        "contentType": CLOUDEVENTS_CONTENT_TYPE if PRODUCER_HEADERS[producer] else "application/json",
        "payload": {"schemaFormat": PAYLOAD_FORMAT, "schema": payload},
        "bindings": {"kafka": {"key": key, "bindingVersion": KAFKA_BINDING_VERSION}},
    }
    headers = _headers(producer)
    if headers is not None:
        message["headers"] = headers
    return message


def build_document() -> dict[str, Any]:
    """The AsyncAPI 3.0 document as a dict (deterministic)."""
    d = _defaults()
    user_key = {"type": "string", "pattern": ID_PATTERN,
                "description": "the external user id (= the event's subject and data.user_id): one user's "
                               "events stay in one partition, in order"}
    dlq_key = {"type": ["string", "null"], "description": "the failed record's key, unchanged (the user id "
               "when the record had one)"}
    groups = {"extractor": d["GROUP_EXTRACTOR"], "commands": d["GROUP_COMMANDS"],
              "indexer": d["GROUP_INDEXER"]}
    partitions = d["KAFKA_TOPIC_PARTITIONS"]

    def channel(address: str, message: str, description: str, *more: str) -> dict[str, Any]:
        return {"address": address, "description": description,
                "messages": {m: {"$ref": f"#/components/messages/{m}"} for m in (message, *more)},
                "bindings": {"kafka": {"topic": address, "partitions": partitions,
                                       "bindingVersion": KAFKA_BINDING_VERSION}}}

    channels: dict[str, Any] = {
        "chatMessages": channel(d["TOPIC_CHAT_MESSAGES"], "chatMessage",
                                "Chat messages from the chat service (TOPIC_CHAT_MESSAGES)."),
        "memoryCommands": channel(d["TOPIC_MEMORY_COMMANDS"], "memoryCommand",
                                  "Agent tool writes as events (TOPIC_MEMORY_COMMANDS)."),
        "memoryDirty": channel(d["TOPIC_MEMORY_DIRTY"], "memoryDirty",
                               "A memory or an episode changed in PostgreSQL; published from the "
                               "transactional outbox (TOPIC_MEMORY_DIRTY).", "episodeDirty"),
    }
    for short, group in groups.items():
        channels[f"{short}DeadLetters"] = channel(
            f"{group}{d['DLQ_TOPIC_SUFFIX']}", "deadLetter",
            f"Records the {group} group could not process (GROUP_{short.upper()} + DLQ_TOPIC_SUFFIX).")

    def op(action: str, channel_id: str, message: str, summary: str,
           group: str | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "action": action, "channel": {"$ref": f"#/channels/{channel_id}"}, "summary": summary,
            "messages": [{"$ref": f"#/channels/{channel_id}/messages/{message}"}]}
        if group is not None:
            out["bindings"] = {"kafka": {"groupId": {"type": "string", "enum": [group]},
                                         "bindingVersion": KAFKA_BINDING_VERSION}}
        return out

    operations: dict[str, Any] = {
        "publishChatMessage": op("send", "chatMessages", "chatMessage",
                                 "The chat service publishes (producers.client.MemoryEventProducer)."),
        "extractChatMessages": op("receive", "chatMessages", "chatMessage",
                                  "The extractor group stores, debounces and extracts memories.",
                                  groups["extractor"]),
        "publishMemoryCommand": op("send", "memoryCommands", "memoryCommand",
                                   "Agent tools publish writes (producers.client.MemoryEventProducer)."),
        "applyMemoryCommands": op("receive", "memoryCommands", "memoryCommand",
                                  "The commands group applies memory_save/append/delete (idempotent by "
                                  "command_id).", groups["commands"]),
        "relayMemoryDirty": op("send", "memoryDirty", "memoryDirty",
                               "The outbox relay publishes committed outbox rows in per-user order."),
        "relayEpisodeDirty": op("send", "memoryDirty", "episodeDirty",
                                "The outbox relay publishes committed episode rows in per-user order."),
        "indexEpisodeDirty": op("receive", "memoryDirty", "episodeDirty",
                                "The indexer group re-reads the episode, embeds it (or reuses the "
                                "extractor's vector) and writes the episodes' Milvus collection.",
                                groups["indexer"]),
        "indexMemoryDirty": op("receive", "memoryDirty", "memoryDirty",
                               "The indexer group re-reads the truth, embeds and writes Milvus.",
                               groups["indexer"]),
    }
    for short, group in groups.items():
        operations[f"deadLetter{short.capitalize()}"] = op(
            "send", f"{short}DeadLetters", "deadLetter",
            f"The {group} group dead-letters a record it cannot process (consumers.dlq).")

    messages = {
        "chatMessage": _message("Chat message", CHAT_MESSAGE_V1, "One chat turn (user or assistant).",
                                user_key, "producers.client.MemoryEventProducer"),
        "memoryCommand": _message("Memory command", MEMORY_COMMAND_V1,
                                  "memory_save / memory_append / memory_delete (a union on data.tool).",
                                  user_key, "producers.client.MemoryEventProducer"),
        "memoryDirty": _message("Memory dirty", MEMORY_DIRTY_V1, "A memory's truth changed; re-index it.",
                                user_key, "producers.outbox_relay"),
        "episodeDirty": _message("Episode dirty", EPISODE_DIRTY_V1,
                                 "An episode (a passage of what the user said) changed; re-index it.",
                                 user_key, "producers.outbox_relay"),
        "deadLetter": _message("Dead letter", DEAD_LETTER_V1,
                               "The DLQ envelope: reason, error type, origin (topic, partition, offset, "
                               "group), the original key, value (base64) and headers.",
                               dlq_key, "consumers.dlq.DeadLetterPublisher"),
    }
    return {
        "asyncapi": ASYNCAPI_VERSION,
        "info": {"title": "pai-memory events", "version": "1",
                 "description": "Kafka topics of pai-memory: CloudEvents 1.0 envelopes in structured JSON "
                                "mode. Generated by `python -m schemas.asyncapi` from the event models and "
                                "the default settings; topic and group names are configurable."},
        "defaultContentType": CLOUDEVENTS_CONTENT_TYPE,
        "servers": {"local": {"host": "127.0.0.1:24092", "protocol": "kafka",
                              "description": "the local stack (`pai-memory stack up`); "
                                             "KAFKA_BOOTSTRAP_SERVERS elsewhere"}},
        "channels": channels,
        "operations": operations,
        "components": {"messages": messages},
    }


def render() -> str:
    header = "# Generated by `python -m schemas.asyncapi` from the code; do not edit by hand.\n"
    return header + yaml.safe_dump(build_document(), sort_keys=False, allow_unicode=True, width=100)


def stale(path: Path = ASYNCAPI_FILE) -> list[str]:
    """Problems with the checked-in document: missing or different from the code."""
    return stale_file(path, render, "differs from the code")


def write(path: Path = ASYNCAPI_FILE) -> Path:
    return write_file(path, render)


def main(argv: list[str] | None = None) -> int:
    return check_or_write("python -m schemas.asyncapi", (__doc__ or "").splitlines()[0], stale, write, argv)


if __name__ == "__main__":
    sys.exit(main())
