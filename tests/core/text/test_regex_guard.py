"""No module under ``core/`` runs the backtracking stdlib ``re`` on user text.

Every module that matches patterns against chat messages or memory content imports
``core.text.regex`` (RE2, linear time). This test fails when a module imports ``re`` (or the
backtracking ``regex`` package) and is not on the allow-list below, whose entries never see user
text: adding one needs a reason here.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

ALLOWED = {
    "core/text/pattern_syntax.py": "tokenises pattern text written in this repository, never user text",
    "core/vectorstore.py": "validates a configured collection name",
    "core/reindex.py": "collection names",
    "core/extraction/replies.py": "strips a Markdown fence around the model's JSON reply",
    "core/prompt_data.py": "a block label of ours and one character class (linear in any engine)",
    "core/redaction.py": (
        "masks URLs and credentials in log text (lookarounds RE2 cannot run); "
        "measured linear on 20-40 KB adversarial runs"
    ),
}
BACKTRACKING = {"re", "regex", "sre_compile", "sre_parse"}


def imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_core_modules_use_the_linear_engine() -> None:
    offenders = []
    for path in sorted((ROOT / "core").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("core/storage/migrations/"):
            continue
        if imports_of(path) & BACKTRACKING and rel not in ALLOWED:
            offenders.append(rel)
    assert not offenders, f"import core.text.regex instead of re (or add a reason to ALLOWED): {offenders}"


def test_the_allow_list_has_no_stale_entries() -> None:
    for rel in ALLOWED:
        assert (ROOT / rel).exists(), rel
