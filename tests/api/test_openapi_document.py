"""The checked-in OpenAPI document (``schemas/openapi.json``): in step with the application (drift-checked
like the event schemas), every route with its error responses, and examples that validate against the
document's own schemas."""

from __future__ import annotations

import json
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from api.openapi_doc import OPENAPI_FILE, render, stale

DOC: dict[str, Any] = json.loads(OPENAPI_FILE.read_text(encoding="utf-8"))
OPERATIONS = [(path, method, op) for path, ops in DOC["paths"].items() for method, op in ops.items()]


def validator(schema: dict[str, Any]) -> Draft202012Validator:
    """A validator of ``schema`` whose ``#/components/...`` references resolve in the document."""
    return Draft202012Validator({**schema, "components": DOC["components"]})


def test_the_document_is_in_step_with_the_application() -> None:
    assert stale() == [], "run: pai-memory schemas generate"
    assert json.loads(render()) == DOC


def test_issue_27_routes_are_documented() -> None:
    assert {"/v1/memories/{memory_id}", "/v1/memories/{memory_id}/history", "/v1/users/{user_id}/export",
            "/v1/users/{user_id}", "/v1/jobs/{job_id}", "/v1/messages"} <= set(DOC["paths"])
    assert set(DOC["paths"]["/v1/memories/{memory_id}"]) == {"get", "patch"}


@pytest.mark.parametrize(("path", "method", "op"), OPERATIONS, ids=[f"{m} {p}" for p, m, _ in OPERATIONS])
def test_every_operation_has_errors_and_validating_examples(path: str, method: str,
                                                            op: dict[str, Any]) -> None:
    responses = op["responses"]
    if path != "/healthz":
        assert "401" in responses and op["security"] == [{"bearerAuth": []}]
    body = op.get("requestBody", {}).get("content", {}).get("application/json")
    if body is not None:
        examples = [body["example"]] if "example" in body else [e["value"] for e in body["examples"].values()]
        assert examples, "request body without an example"
        for example in examples:
            validator(body["schema"]).validate(example)
    for status, response in responses.items():
        content = response.get("content", {}).get("application/json")
        if content is None:
            assert path == "/metrics", (status, "no JSON body")
            continue
        assert "example" in content, (status, "no example")
        if content.get("schema"):
            validator(content["schema"]).validate(content["example"])
        if not status.startswith("2") and path != "/readyz":
            error = content["example"]["error"]
            assert error["code"] and error["message"], status
    if path.startswith("/v1/"):
        assert any(s.startswith("4") for s in responses if s != "401")
