"""The README and the documents under docs/ match the tree.

- Every repository path the documents name (a backticked ``folder/...``, ``....py`` or a relative
  Markdown link) exists; a glob must match something. A backticked path is named from the repository root;
  a link target from the document's own folder, as a Markdown renderer resolves it (``../bench/RESULTS.md``
  from docs/). Paths outside the repository and the git-ignored ones in ``NOT_IN_REPO`` are not checked.
  A bare backticked ``name.py`` names a file of the tree.
- Every product package has its row in the layout table (docs/layout.md) or is named in the row of the folder
  above it, and every module of a package with its own row is named in that row (``bench/`` modules
  may instead be listed in ``bench/README.md``, which the bench row points to).
"""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = ("README.md", "docs/design.md", "docs/layout.md", "docs/integration.md", "docs/operations.md",
        "docs/pipeline.md", "docs/extraction.md", "docs/evaluation.md")
PRODUCT_ROOTS = ("schemas", "core", "consumers", "producers", "api", "cli", "localstack", "harness", "bench",
                 "training")
LAYOUT_ROOTS = (*PRODUCT_ROOTS, "deploy", "docs")
# Packages whose modules are internals of one component: the package is named, its modules need not be.
INTERNAL_PACKAGES = ("core/extraction/rules/", "core/storage/migrations/")
# Paths the documents name on purpose although they are not in the repository (git-ignored), by prefix.
NOT_IN_REPO = {
    "deploy/compose.env": "the operator's secrets file, created from the example",
    "var/": "run-time state of the local stack, the reliability runs and the demo",
}

_BACKTICKED = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_PATHLIKE = re.compile(r"[\w.*-]+(/[\w.*-]+)*/?")
_SOURCE_SUFFIXES = (".py", ".md", ".yaml", ".yml", ".json", ".jsonl", ".sh", ".toml", ".html")


def python_files(root: str) -> list[Path]:
    """The ``.py`` files under ``root``, skipping hidden folders (``bench/.work`` holds whole venvs)."""
    out = []
    for folder, dirs, files in os.walk(REPO / root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        out += [Path(folder) / f for f in sorted(files) if f.endswith(".py")]
    return out


def _top_level() -> set[str]:
    return {p.name for p in REPO.iterdir() if not p.name.startswith(".")}


def named_paths(text: str, folder: str = "") -> list[str]:
    """Tokens of ``text`` that name a repository path: backticked ``top/...`` or ``....py`` with a
    folder, and relative Markdown link targets (anchors dropped) resolved from ``folder``, the
    document's folder relative to the repository root; a target that leaves the repository is left out."""
    tops = _top_level()
    out = []
    for m in _BACKTICKED.finditer(text):
        token = m.group(1).split("#", 1)[0]
        if "/" not in token or token.startswith("../") or not _PATHLIKE.fullmatch(token):
            continue
        if token.split("/", 1)[0] in tops or token.endswith(_SOURCE_SUFFIXES):
            out.append(token)
    for m in _LINK.finditer(text):
        target = m.group(1).split("#", 1)[0]
        if not target or "://" in target or target.startswith(("mailto:", "/")):
            continue
        resolved = posixpath.normpath(posixpath.join(folder, target))
        if not resolved.startswith("../"):
            out.append(resolved)
    return out


def path_exists(token: str) -> bool:
    if "*" in token:
        return any(REPO.glob(token.rstrip("/")))
    return (REPO / token).exists()


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_a_document_names_exists(doc: str) -> None:
    tokens = named_paths((REPO / doc).read_text(encoding="utf-8"), posixpath.dirname(doc))
    assert len(tokens) > 20, f"{doc}: expected the document to name repository paths, found {tokens}"
    missing = sorted({t for t in tokens if not t.startswith(tuple(NOT_IN_REPO)) and not path_exists(t)})
    assert not missing, f"{doc} names paths that do not exist: {missing}"


@pytest.mark.parametrize("doc", DOCS)
def test_every_module_a_document_names_by_file_name_exists(doc: str) -> None:
    """A bare ``name.py`` (the layout table's style inside a folder's row) names a file of the tree."""
    names = {p.name for root in LAYOUT_ROOTS for p in python_files(root)}
    named = set(re.findall(r"`([\w-]+\.py)`", (REPO / doc).read_text(encoding="utf-8")))
    assert not sorted(named - names), f"{doc} names modules that do not exist: {sorted(named - names)}"


def heading_anchors(text: str) -> set[str]:
    """The anchors a Markdown renderer gives the headings of ``text`` (GitHub's rule: lower case, only
    letters, digits, spaces, ``-`` and ``_`` kept, spaces to ``-``, a repeated anchor numbered ``-1``...);
    lines inside fenced code blocks are not headings."""
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        heading = None if fenced else re.match(r"#{1,6} (.+)", line)
        if heading:
            slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


@pytest.mark.parametrize("doc", DOCS)
def test_every_heading_a_document_links_to_exists(doc: str) -> None:
    """A link ``file.md#anchor`` (or ``#anchor`` within the document) lands on a heading of that file."""
    text = (REPO / doc).read_text(encoding="utf-8")
    broken = []
    for m in _LINK.finditer(text):
        target = m.group(1)
        if "#" not in target or "://" in target:
            continue
        path, anchor = target.split("#", 1)
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(doc), path)) if path else doc
        if not resolved.endswith(".md") or not (REPO / resolved).is_file():
            continue  # a missing file is the path test's finding
        if anchor not in heading_anchors((REPO / resolved).read_text(encoding="utf-8")):
            broken.append(target)
    assert not broken, f"{doc} links to headings that do not exist: {broken}"


def test_heading_anchors_follow_the_renderer() -> None:
    text = "# A b\n## The local stack: `pai-memory stack up|down|status`\n```\n# not a heading\n```\n## A b\n"
    assert heading_anchors(text) == {"a-b", "the-local-stack-pai-memory-stack-updownstatus", "a-b-1"}


def test_the_path_scan_sees_backticked_paths_links_and_globs() -> None:
    text = ("`core/nowhere.py` `bench/results/*.json` `pai_memory_x/_y{a}` `docs/design.md#keys` "
            "`weather-date_*` [d](docs/design.md#sweep) [w](https://example.org/a) `/v1/retrieve`")
    tokens = named_paths(text)
    assert tokens == ["core/nowhere.py", "bench/results/*.json", "docs/design.md", "docs/design.md"]
    assert not path_exists("core/nowhere.py")
    assert path_exists("bench/results/*.json") and path_exists("docs/design.md")


def layout_rows() -> dict[str, str]:
    """The layout table (docs/layout.md): first cell's backticked folder -> the row's text."""
    lines = (REPO / "docs" / "layout.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("| folder | what it is |")
    rows: dict[str, str] = {}
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        first, rest = line[1:].split("|", 1)
        folder = first.strip().strip("`")
        rows[folder] = rest
    return rows


def _packages() -> list[str]:
    found = []
    for root in PRODUCT_ROOTS:
        for init in (f for f in python_files(root) if f.name == "__init__.py"):
            rel = init.parent.relative_to(REPO).as_posix() + "/"
            if "/migrations/versions/" in rel:
                continue
            found.append(rel)
    return found


def _named_in(row: str, module: Path) -> bool:
    """``module`` is named in ``row`` by its file name, its path or a glob (``*_cmd.py``)."""
    tokens = set(_BACKTICKED.findall(row))
    if module.name in tokens or module.relative_to(REPO).as_posix() in tokens:
        return True
    return any("*" in t and module.match(t) for t in tokens)


def test_the_layout_table_names_every_package_and_module() -> None:
    rows = layout_rows()
    problems = [f"no row for `{root}/`" for root in LAYOUT_ROOTS if f"{root}/" not in rows]
    bench_readme = (REPO / "bench/README.md").read_text(encoding="utf-8")
    for package in _packages():
        if package in rows:
            if package.startswith(INTERNAL_PACKAGES):
                continue
            for module in sorted((REPO / package).glob("*.py")):
                if module.name == "__init__.py" or _named_in(rows[package], module):
                    continue
                if package == "bench/" and f"`{module.name}`" in bench_readme:
                    continue
                rel = module.relative_to(REPO).as_posix()
                problems.append(f"`{rel}` is not named in the `{package}` row")
            continue
        parent = package.rstrip("/").rsplit("/", 1)[0] + "/"
        while parent not in rows and parent.count("/") > 1:
            parent = parent.rstrip("/").rsplit("/", 1)[0] + "/"
        if parent not in rows or f"`{package}`" not in rows[parent]:
            problems.append(f"package `{package}` has no row and is not named in the `{parent}` row")
    assert not problems, "docs/layout.md layout table out of date:\n" + "\n".join(problems)
