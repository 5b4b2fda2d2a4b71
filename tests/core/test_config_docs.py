"""The checked-in configuration reference (``docs/configuration.md``) is current with ``core/config/``,
and names every variable, its default and every deprecated old name."""

from __future__ import annotations

from pathlib import Path

from cli.main import main as cli_main
from core.config import RENAMED, Settings
from core.config.docs import DOC_FILE, SECTIONS, main, render, stale, write


def test_checked_in_reference_matches_the_code(tmp_path: Path) -> None:
    assert stale() == [], "run `python -m core.config.docs` and commit docs/configuration.md"
    assert main(["--check"]) == 0
    assert cli_main(["config", "docs", "--check"]) == 0
    copy = tmp_path / "configuration.md"
    assert stale(copy) == ["configuration.md: missing"]
    write(copy)
    assert stale(copy) == []
    copy.write_text(render().replace("`LLM_MODEL`", "`LLM_MODEL2`"), encoding="utf-8")
    assert stale(copy) == ["configuration.md: differs from the code"]


def test_every_variable_is_in_one_section_table_with_a_description() -> None:
    doc = DOC_FILE.read_text(encoding="utf-8")
    in_sections = [name for _, section in SECTIONS for name in section.model_fields]
    assert sorted(in_sections) == sorted(Settings.model_fields)
    for _, section in SECTIONS:
        for name, field in section.model_fields.items():
            assert field.description, f"{name} has no description"
            assert f"| `{name}` |" in doc, name


def test_every_deprecated_name_is_listed() -> None:
    doc = DOC_FILE.read_text(encoding="utf-8")
    for old, new in RENAMED.items():
        assert f"| `{old}` | `{new}` |" in doc
