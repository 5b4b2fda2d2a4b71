"""The OpenAPI document of the HTTP API, checked in as ``schemas/openapi.json`` and drift-checked like the
event schemas and the AsyncAPI document (``pai-memory schemas generate|check``).

Rendered from the application itself (``create_app``; no network I/O), with fixed settings so the
document does not depend on the environment: deterministic JSON (sorted keys, 2-space indent).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from schemas.generated_file import stale_file, write_file

OPENAPI_FILE = Path(__file__).resolve().parent.parent / "schemas" / "openapi.json"


def document() -> dict[str, Any]:
    from api.app import create_app
    from core.config import Settings

    settings = Settings(API_TOKEN=SecretStr("openapi-document"), MEMORY_MILVUS_ENABLED=False)
    app = create_app(settings)
    try:
        return app.openapi()
    finally:
        app.state.services.close()


def render() -> str:
    return json.dumps(document(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def stale(path: Path = OPENAPI_FILE) -> list[str]:
    return stale_file(path, render, "differs from the application (pai-memory schemas generate)")


def write(path: Path = OPENAPI_FILE) -> Path:
    return write_file(path, render)
