"""The layer contracts in ``.importlinter`` hold, and the check really fails when one is broken."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _lint(config: Path, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    if not LINT_IMPORTS.exists():
        pytest.fail(f"{LINT_IMPORTS} missing: install the test extras (pip install -e '.[test]')")
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", str(config)], cwd=cwd, capture_output=True,
                          text=True, timeout=300, check=False)


def test_every_contract_is_kept() -> None:
    result = _lint(REPO / ".importlinter")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout
    for name in ("schemas (the contract) imports nothing of ours",
                 "no import cycles between sibling modules inside core",
                 "core (the domain) imports no adapter"):
        assert name in result.stdout


def test_a_layer_violation_breaks_the_check(tmp_path: Path) -> None:
    """A copy of the tree where ``schemas`` imports ``core`` (as it once did) must fail the check."""
    for package in ("schemas", "core"):
        shutil.copytree(REPO / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    events = tmp_path / "schemas" / "events.py"
    events.write_text(events.read_text(encoding="utf-8") + "\nfrom core.types import MessageStatus  # noqa\n",
                      encoding="utf-8")
    config = tmp_path / ".importlinter"
    config.write_text(
        "[importlinter]\nroot_packages =\n    schemas\n    core\n\n"
        "[importlinter:contract:schemas-standalone]\nname = schemas imports nothing of ours\n"
        "type = forbidden\nsource_modules = schemas\nforbidden_modules = core\n",
        encoding="utf-8",
    )
    result = _lint(config, cwd=tmp_path)
    assert result.returncode != 0
    assert "BROKEN" in result.stdout and "schemas.events -> core.types" in result.stdout
