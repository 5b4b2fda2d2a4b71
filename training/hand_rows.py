"""Hand-written rows kept beside the shipped corpus: how a row's text is compared with case files (``flat``),
the copy check (``copies``), and the command line every rows module offers (``rows_command``: ``--append`` /
``--remove`` / ``--check``; ``check_command``: ``--check`` alone).

Contract: a module's rows carry a ``family`` starting with its own prefix (``"ptype40_"``), so ``--remove``
takes out exactly what ``--append`` put in; ``--append`` never adds a row whose flattened text the corpus (or
an earlier row of the same call) already holds; ``--check`` exits 1 when a row is a copy of a case file.
"""

from __future__ import annotations

import argparse
import json
import re
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path


def flat(text: str) -> str:
    """``text`` as compared with case files: NFKC, lower case, without punctuation, spaces or ``_``."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text).lower())


def has_cjk(text: str) -> bool:
    """True when ``text`` holds a CJK unified ideograph: how the hand-written rows' tests tell Chinese from
    English."""
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def copies(texts: Iterable[str], paths: list[Path], min_chars: int = 0) -> list[str]:
    """The ``texts`` (of ``min_chars`` flattened characters or more) whose flattened text occurs inside a
    case file's flattened text."""
    blob = "".join(flat(p.read_text(encoding="utf-8")) for p in paths)
    return [text for text in texts if len(flat(text)) >= min_chars and flat(text) in blob]


def user_turns(paths: Iterable[Path]) -> set[str]:
    """Every user turn of the case files ``paths`` (one case a line), stripped and lower-cased: what a written
    row must not equal."""
    turns: set[str] = set()
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                turns |= {t["content"].strip().lower() for t in json.loads(line)["conversation"]
                          if t["role"] == "user"}
    return turns


def _report(found: list[str]) -> int:
    print("\n".join(found) or "no copies")
    return 1 if found else 0


def check_command(argv: list[str] | None, description: str, check: Callable[[list[Path]], list[str]]) -> int:
    """``--check FILE...``: print the copies ``check`` finds; 1 when there are any."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", nargs="+", type=Path, required=True, help="case files to check for copies")
    return _report(check(parser.parse_args(argv).check))


def rows_command(argv: list[str] | None, description: str, rows: Callable[[], list[dict[str, object]]],
                 prefix: str, corpus: Path, check: Callable[[list[Path]], list[str]]) -> int:
    """``--append`` the ``rows`` to ``corpus`` (JSON lines), ``--remove`` the rows whose family starts with
    ``prefix``, or ``--check FILE...`` for copies."""
    parser = argparse.ArgumentParser(description=description)
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--append", action="store_true")
    group.add_argument("--remove", action="store_true")
    group.add_argument("--check", nargs="+", type=Path, help="case files to check for copies")
    parser.add_argument("--corpus", type=Path, default=corpus)
    args = parser.parse_args(argv)
    if args.check:
        return _report(check(args.check))
    lines = [line for line in args.corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.remove:
        kept = [line for line in lines if not str(json.loads(line)["family"]).startswith(prefix)]
        args.corpus.write_text("".join(line + "\n" for line in kept), encoding="utf-8")
        print(f"removed {len(lines) - len(kept)} rows")
        return 0
    mine = rows()
    seen = {flat(json.loads(line)["text"]) for line in lines}
    new = []
    for r in mine:
        text = flat(str(r["text"]))
        if text not in seen:
            seen.add(text)
            new.append(r)
    args.corpus.write_text("".join(line + "\n" for line in lines)
                           + "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in new), encoding="utf-8")
    print(f"appended {len(new)} of {len(mine)} rows")
    return 0


def copied_lines(texts: Iterable[str], repo: Path, min_chars: int = 12) -> list[str]:
    """The ``texts`` (of ``min_chars`` flattened characters or more) held inside a user turn of a case file
    (``bench/data/*_cases.jsonl``) or inside a labelled public store (``bench/results/precision24_*.jsonl``)
    of ``repo``: what a written training line must not be."""
    texts = list(texts)
    turns = [flat(t) for t in user_turns(sorted((repo / "bench" / "data").glob("*_cases.jsonl")))]
    in_turns = [t for t in texts if len(flat(t)) >= min_chars and any(flat(t) in u for u in turns)]
    stores = sorted((repo / "bench" / "results").glob("precision24_*.jsonl"))
    return in_turns + copies(texts, stores, min_chars=min_chars)
