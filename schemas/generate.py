"""Generate (or check) the checked-in JSON Schema files from the event models.

    python -m schemas.generate            # write schemas/json/<type>.json
    python -m schemas.generate --check    # exit 1 if any file differs from the models

Files are deterministic (sorted keys, 2-space indent, trailing newline), so a diff means the
contract changed and the version may need a bump.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from schemas.events import DATASCHEMA_PREFIX, EVENT_CLASSES
from schemas.generated_file import check_or_write

JSON_DIR = Path(__file__).resolve().parent / "json"
DRAFT = "https://json-schema.org/draft/2020-12/schema"


def schema_for(event_type: str) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of one event type's envelope, payload included."""
    for cls in EVENT_CLASSES:
        if event_type == cls.EVENT_TYPE:
            schema = cls.model_json_schema(mode="validation")
            return {"$schema": DRAFT, "$id": DATASCHEMA_PREFIX + event_type, **schema}
    raise KeyError(event_type)


def render(event_type: str) -> str:
    return json.dumps(schema_for(event_type), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def expected_files() -> dict[Path, str]:
    return {JSON_DIR / f"{cls.EVENT_TYPE}.json": render(cls.EVENT_TYPE) for cls in EVENT_CLASSES}


def stale_files(directory: Path = JSON_DIR) -> list[str]:
    """Names of schema files that are missing, differ from the models, or belong to no model."""
    problems = []
    wanted = {path.name: text for path, text in expected_files().items()}
    for name, text in wanted.items():
        path = directory / name
        if not path.exists():
            problems.append(f"{name}: missing")
        elif path.read_text(encoding="utf-8") != text:
            problems.append(f"{name}: differs from the model")
    if directory.exists():
        problems.extend(f"{p.name}: no such event type" for p in sorted(directory.glob("*.json"))
                        if p.name not in wanted)
    return problems


def write_files(directory: Path = JSON_DIR) -> list[Path]:
    """Write every schema file; remove files of event types that no longer exist."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    wanted = expected_files()
    for path, text in wanted.items():
        target = directory / path.name
        target.write_text(text, encoding="utf-8")
        written.append(target)
    names = {p.name for p in wanted}
    for old in directory.glob("*.json"):
        if old.name not in names:
            old.unlink()
    return written


def main(argv: list[str] | None = None) -> int:
    return check_or_write("python -m schemas.generate", (__doc__ or "").splitlines()[0], stale_files,
                          write_files, argv)


if __name__ == "__main__":
    sys.exit(main())
