"""The checked-in AsyncAPI 3.0 document: current with the code, structurally valid, complete (every
topic the service uses), and its payload schemas accept the events the code produces."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from jsonschema import Draft202012Validator, FormatChecker

from cli.main import main as cli_main
from core.config import Settings, load_settings
from localstack.topics import service_topics
from schemas import to_bytes
from schemas.asyncapi import ASYNCAPI_FILE, OUTBOX_ID_HEADER, PRODUCER_HEADERS, render, stale, write
from tests.schemas.test_json_files import samples

DOC: dict[str, Any] = yaml.safe_load(ASYNCAPI_FILE.read_text(encoding="utf-8"))


def resolve(ref: str) -> Any:
    assert ref.startswith("#/"), ref
    node: Any = DOC
    for part in ref[2:].split("/"):
        assert isinstance(node, dict) and part in node, f"dangling $ref {ref}"
        node = node[part]
    return node


def test_checked_in_document_matches_the_code(tmp_path: Path) -> None:
    assert stale() == [], "run `python -m schemas.asyncapi` and commit schemas/asyncapi.yaml"
    assert cli_main(["schemas", "check"]) == 0
    copy = tmp_path / "asyncapi.yaml"
    assert stale(copy) == ["asyncapi.yaml: missing"]
    write(copy)
    assert stale(copy) == []
    copy.write_text(render().replace("memory.dirty", "memory.dirty2"), encoding="utf-8")
    assert stale(copy) == ["asyncapi.yaml: differs from the code"]


def test_required_asyncapi_3_structure() -> None:
    assert DOC["asyncapi"] == "3.0.0"
    assert DOC["info"]["title"] and isinstance(DOC["info"]["version"], str)
    for server in DOC["servers"].values():
        assert server["host"] and server["protocol"] == "kafka"
    assert DOC["channels"] and DOC["operations"] and DOC["components"]["messages"]
    for channel_id, channel in DOC["channels"].items():
        assert isinstance(channel["address"], str) and channel["messages"], channel_id
        for message in channel["messages"].values():
            resolved = resolve(message["$ref"])
            assert "payload" in resolved and resolved["contentType"]
    for op_id, operation in DOC["operations"].items():
        assert operation["action"] in ("send", "receive"), op_id
        channel_ref = operation["channel"]["$ref"]
        resolve(channel_ref)
        for message in operation["messages"]:  # 3.0: an operation's messages are its channel's
            assert message["$ref"].startswith(channel_ref + "/messages/"), op_id
            resolve(message["$ref"])
    for name, message in DOC["components"]["messages"].items():
        payload = message["payload"]
        assert payload["schemaFormat"].startswith("application/schema+json"), name
        Draft202012Validator.check_schema(payload["schema"])
        assert "$ref" not in json.dumps(payload["schema"]), f"{name}: payload must stand alone"
        assert message["bindings"]["kafka"]["key"]["type"], name


def test_every_topic_is_a_channel_with_a_producer_and_its_consumers() -> None:
    names = ("TOPIC_CHAT_MESSAGES", "TOPIC_MEMORY_COMMANDS", "TOPIC_MEMORY_DIRTY", "DLQ_TOPIC_SUFFIX",
             "GROUP_EXTRACTOR", "GROUP_COMMANDS", "GROUP_INDEXER")
    settings = load_settings(**{n: Settings.model_fields[n].default for n in names})  # documented defaults
    addresses = {c["address"]: cid for cid, c in DOC["channels"].items()}
    assert set(addresses) == set(service_topics(settings))
    actions: dict[str, set[str]] = {}
    for operation in DOC["operations"].values():
        channel = operation["channel"]["$ref"].rsplit("/", 1)[1]
        actions.setdefault(channel, set()).add(operation["action"])
    for topic, cid in addresses.items():
        expected = {"send"} if topic.endswith(settings.DLQ_TOPIC_SUFFIX) else {"send", "receive"}
        assert actions.get(cid) == expected, topic
    groups = {op["bindings"]["kafka"]["groupId"]["enum"][0]
              for op in DOC["operations"].values() if op["action"] == "receive"}
    assert groups == {settings.GROUP_EXTRACTOR, settings.GROUP_COMMANDS, settings.GROUP_INDEXER}


def test_documented_headers_are_what_the_producers_set() -> None:
    from producers import client, outbox_relay

    assert PRODUCER_HEADERS["producers.client.MemoryEventProducer"]["content-type"].encode() == \
        client.CLOUDEVENTS_CONTENT_TYPE
    assert PRODUCER_HEADERS["producers.outbox_relay"]["content-type"].encode() == outbox_relay.CONTENT_TYPE
    assert outbox_relay.OUTBOX_ID_HEADER == OUTBOX_ID_HEADER
    dirty = DOC["components"]["messages"]["memoryDirty"]["headers"]
    assert set(dirty["required"]) == {"content-type", OUTBOX_ID_HEADER}
    assert "headers" not in DOC["components"]["messages"]["deadLetter"]


@pytest.mark.parametrize("event", samples(), ids=lambda e: f"{e.type}")
def test_payload_schemas_accept_produced_events_and_reject_bad_ones(event: Any) -> None:
    by_type = {m["name"]: m for m in DOC["components"]["messages"].values()}
    validator = Draft202012Validator(by_type[event.type]["payload"]["schema"], format_checker=FormatChecker())
    obj = json.loads(to_bytes(event))
    assert list(validator.iter_errors(obj)) == []
    obj["data"]["unexpected"] = 1
    assert list(validator.iter_errors(obj))
