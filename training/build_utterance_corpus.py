"""Grow the memory-utterance corpus (``training/data/memory_utterances/utterances.jsonl``) to chat scale.

Three sources, recorded per row in ``source``:

- ``hand``: the rows written by hand (every row of the corpus without a ``source`` and the hand
  families of ``HAND`` below); never regenerated, only kept.
- ``template``: hand-written templates (zh, en, mixed) crossed with hand-written slot values
  (``training/utterance_templates.py``): identity-changing events, day events, moods, thanks, code and
  one-off requests, sarcasm, hedged and habitual preferences, standing instructions, personal
  projects, updates and retractions; ``template_chat``: a second such set in chat style
  (``training/utterance_templates_chat.py``, issue 24's second pass). Deterministic (no randomness:
  every template takes the slot values at positions ``i * step`` of its lists). Two more template sets
  are written but not built in: ``training/utterance_templates_forbid24.py`` (what is not about the
  user as drops, with a ``relabel`` of rows about people outside the household) and
  ``training/utterance_templates_prec24.py`` (companion-chat drops; with its counterweight of keeps,
  ``training/utterance_templates_prec24b.py``): retrained with either, the
  models scored worse on the team's held-out set (bench/RESULTS.md, issue 24), so the shipped corpus
  and weights do not include them; nor ``training/utterance_templates_cons24.py`` (standing rules,
  projects and what is not the user's, session 12), which cost cases on dev4 and the updates sets; nor
  ``training/utterance_templates_pref27.py`` (taste idioms, dislikes, bare answers, household and in-passing
  facts, hedged goals, progress reports as drops; session 14), which cost multi-topic cases on dev5 and dev6.
- ``persona_valid_weak``: weak labels from the **validation** split of Synthetic-Persona-Chat
  (CC-BY 4.0, ``../shared/benchmarks/synthetic_persona_chat``; its test split is the evaluation set
  of ``bench/bench_public.py persona`` and is read here only to drop any sentence it also contains):
  every persona sentence is kept, typed by ``persona_type`` (goal / project / preference words, else
  fact); a conversation sentence is kept with the type of the speaker's own persona sentence when it
  speaks in the first person and shares ``TURN_SHARED_WORDS`` content words with it (all of them when
  the persona sentence has fewer), dropped when
  it is a question, a greeting, thanks or a short reaction, or a remark about the other speaker
  (``chat_drop``); the rest is left out.
  Conversation rows carry the turn before them as ``prev`` (the context the MLP reads).

Absent shared data: the persona rows already in the corpus are kept as they are (nothing is
rebuilt), so the script never needs ``../shared`` to run.

    PAI_SHARED_DIR=/work/shared .venv/bin/python -m training.build_utterance_corpus [--corpus PATH]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import os
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

from training.train_memory_classifier import CORPUS, derive_fields
from training.utterance_templates import template_rows
from training.utterance_templates_chat import chat_template_rows
from training.utterance_templates_ctx34 import ctx34_template_rows
from training.utterance_templates_prec24 import prec24_template_rows
from training.utterance_templates_prec24b import prec24b_template_rows
from training.utterance_templates_prec24c import prec24c_template_rows
from training.utterance_templates_prec27 import prec27_template_rows
from training.utterance_templates_prec28 import prec28_template_rows
from training.utterance_templates_prec29 import prec29_template_rows
from training.utterance_templates_prec32 import prec32_template_rows
from training.utterance_templates_prec37 import prec37_template_rows

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PAI_SHARED_DIR") or REPO / ".." / "shared")  # the shared data, if elsewhere
PERSONA_DIR = SHARED / "benchmarks" / "synthetic_persona_chat" / "data"
VALID = PERSONA_DIR / "Synthetic-Persona-Chat_valid.csv"
TEST = PERSONA_DIR / "Synthetic-Persona-Chat_test.csv"  # only to drop overlaps, never to label
TURN_SHARED_WORDS = 2  # content words a first-person turn shares with one of the speaker's persona sentences
MAX_TURN_KEEP = 1700
MAX_TURN_DROP = 2400
_STOP = set("""about after again also always because been before being could does doing from have
having into just like love really should that their them then there these they this those very what
when where which while with would your yours enjoy favorite favourite things thing much more most
some lot lots pretty well good great""".split())  # noqa: SIM905


def _content_words(text: str) -> set[str]:
    """Lower-cased words of more than three letters that are not stop words (crude stems: no plural s)."""
    return {w.rstrip("s") for w in re.findall(r"[a-z']+", text.lower()) if len(w) > 3 and w not in _STOP}

_GOAL = re.compile(r"\b(want to|wants to|hope to|plan to|planning to|going to be|dream|dreams|goal|someday|"
                   r"one day|would like to|i'd like to|saving (up )?for|aspire|aim to|wish to)\b", re.I)
_PROJECT = re.compile(r"\b(i am|i'm) (writing|building|working on|restoring|renovating|making|designing|"
                      r"developing|training for)\b", re.I)
_PREF = re.compile(r"\b(like|likes|love|loves|enjoy|enjoys|hate|hates|favorite|favourite|prefer|fan of|"
                   r"into|can't stand|dislike|passion|obsessed|adore)\b", re.I)
_TIME = re.compile(r"\b(today|tonight|tomorrow|yesterday|this (week|weekend|morning|evening)|right now|"
                   r"next week|last night)\b", re.I)
_FIRST = re.compile(r"\b(i|i'm|i've|i'd|my|me)\b", re.I)
_SECOND_START = re.compile(r"^(you|your|that|it|this|those|they|he|she)\b", re.I)
_CHAT_DROP = re.compile(
    r"^(hi|hey|hello|howdy|good (morning|evening|afternoon)|nice to meet you|nice talking|bye|goodbye|"
    r"see you|take care|talk to you later|thanks|thank you|thx|you too|me too|same here|i agree|"
    r"agreed|oh wow|wow|cool|nice|awesome|great|that's (great|cool|awesome|amazing|interesting|too bad|"
    r"a shame|so cool|really cool|fun|good)|that sounds|sounds (good|great|fun|like)|haha|lol|"
    r"no problem|sure|of course|good luck|congrats|congratulations|i'm sorry to hear|sorry to hear|"
    r"i hope so|me neither|yeah|yes|no way|really|definitely|absolutely|i see|okay|ok)\b", re.I)


def _norm(text: str) -> str:
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text).lower())


def persona_type(sentence: str) -> str:
    """The weak type of a persona sentence: goal, project, preference words in that order, else fact;
    a sentence about a relative or friend is a fact about the user's relationships."""
    low = sentence.lower()
    if re.match(r"^my (mom|mother|dad|father|wife|husband|son|daughter|sister|brother|kids|children|"
                r"parents|family|boyfriend|girlfriend|grandma|grandmother|grandpa|best friend|friend)",
                low):
        return "fact"
    if _GOAL.search(low):
        return "goal"
    if _PROJECT.search(low):
        return "project"
    if _PREF.search(low):
        return "preference"
    return "fact"


def persona_family(sentence: str, memory_type: str) -> str:
    return {"goal": "goal", "project": "project", "preference": "preference"}.get(memory_type, "fact_self")


def chat_drop(sentence: str) -> str | None:
    """Why a conversation sentence is not a memory (``question_request``, ``chat_reaction``), or None."""
    s = sentence.strip()
    if s.endswith("?"):
        return "question_request"
    words = re.findall(r"[A-Za-z']+", s)
    if _CHAT_DROP.match(s) and (len(words) <= 4 or (len(words) <= 9 and not _FIRST.search(s))):
        return "chat_reaction"
    if re.match(r"^(you|your)\b", s, re.I) and not _FIRST.search(s) and len(words) >= 3:
        return "about_the_other"  # advice or remarks about the other speaker: not a memory of the user
    return None


def _sentences(turn: str) -> list[str]:
    parts = re.split(r"(?<=[.!?])\s+", turn.strip())
    return [p.strip() for p in parts if len(p.strip()) >= 3]


def _persona_lines(cell: str) -> list[str]:
    return [s.strip() for s in cell.split("\n") if s.strip()]


def _conversation(cell: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    for line in cell.split("\n"):
        m = re.match(r"^\s*User ([12]):\s*(.*)$", line)
        if m and m.group(2).strip():
            out.append((int(m.group(1)), m.group(2).strip()))
    return out


def _test_strings() -> set[str]:
    out: set[str] = set()
    if not TEST.exists():
        return out
    with TEST.open(encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            for k in ("user 1 personas", "user 2 personas"):
                out.update(_norm(s) for s in _persona_lines(row[k]))
            for _, turn in _conversation(row["Best Generated Conversation"]):
                out.update(_norm(s) for s in _sentences(turn))
    return out


def _hash(text: str) -> int:
    return int(hashlib.sha1(text.encode("utf-8")).hexdigest()[:8], 16)


def persona_rows() -> list[dict[str, Any]]:
    """Weak rows from the validation split (see module doc)."""
    with VALID.open(encoding="utf-8", newline="") as fh:
        data = list(csv.DictReader(fh))
    banned = _test_strings()
    rows: dict[str, dict[str, Any]] = {}

    def add(text: str, keep: bool, memory_type: str | None, family: str, prev: str | None) -> None:
        n = _norm(text)
        if not n or n in banned or n in rows:
            return
        rows[n] = {"text": text, "keep": keep, "type": memory_type, "family": family, "relation": None,
                   "source": "persona_valid_weak", "prev": prev}

    persona_of: list[dict[int, list[str]]] = []
    for conv in data:
        speakers = {1: _persona_lines(conv["user 1 personas"]), 2: _persona_lines(conv["user 2 personas"])}
        persona_of.append(speakers)
        for lines in speakers.values():
            for s in lines:
                if not _TIME.search(s):
                    t = persona_type(s)
                    add(s, True, t, persona_family(s, t), None)
    # conversation sentences: drops by rule, keeps by closeness to the speaker's persona
    drops: list[tuple[int, str, str, str]] = []
    keep_cands: list[tuple[int, int, str, str]] = []  # conv, speaker, sentence, prev turn
    for ci, conv in enumerate(data):
        turns = _conversation(conv["Best Generated Conversation"])
        for ti, (speaker, turn) in enumerate(turns):
            prev = turns[ti - 1][1] if ti else ""
            for s in _sentences(turn):
                reason = chat_drop(s)
                if reason is not None:
                    drops.append((_hash(s), s, reason, prev))
                elif (_FIRST.search(s) and not _SECOND_START.match(s) and not _TIME.search(s)
                      and 4 <= len(s.split()) <= 25):
                    keep_cands.append((ci, speaker, s, prev))
    kept: list[tuple[int, str, str, str]] = []
    for ci, speaker, s, prev in keep_cands:
        words = _content_words(s)
        best = max(persona_of[ci][speaker], key=lambda p: (len(words & _content_words(p)), p), default=None)
        if best is None:
            continue
        shared = words & _content_words(best)
        if len(shared) >= TURN_SHARED_WORDS or (shared and shared == _content_words(best)):
            kept.append((_hash(s), s, persona_type(s), prev))  # typed by its own words
    kept = list({_norm(s): (h, s, t, prev) for h, s, t, prev in sorted(kept, reverse=True)}.values())
    drops = list({_norm(s): (h, s, r, prev) for h, s, r, prev in sorted(drops, reverse=True)}.values())
    for _, s, t, prev in sorted(kept)[:MAX_TURN_KEEP]:
        add(s, True, t, "persona_turn", prev)
    for _, s, reason, prev in sorted(drops)[:MAX_TURN_DROP]:
        add(s, False, None, reason, prev)
    return list(rows.values())


def precision_rows() -> list[dict[str, Any]]:
    """The companion-chat template sets of the precision model (the gate's second opinion on keep/drop,
    ``core/extraction/data/memory_mlp_precision.npz``), in the order they were first trained with (session
    13's three prec24 sets, the shipped weights' corpus). Measured and not shipped:
    ``PAI_PRECISION_SETS=s14`` adds session 14's ``utterance_templates_prec27.py`` (moods and self-doubt,
    advice echoes, referent-less reactions, media and trips of the moment, plots and sayings, with keeps
    beside moods; it cost a MemoryBank item in each language and a dev5 project); ``PAI_PRECISION_SETS=s15``
    adds session 15's ``utterance_templates_prec28.py`` (user replies with the assistant's turn before them,
    for the model that reads it, ``train_memory_mlp --precision --context``; it cost a MemoryBank item in
    each language); ``PAI_PRECISION_SETS=s16`` adds session 16's ``utterance_templates_prec29.py`` beside
    session 15's (replies that take up the turn's topic, kept when they tell a taste, a wish or a fact,
    dropped when they tell the day or only agree); ``PAI_PRECISION_SETS=s18`` adds session 18's
    ``utterance_templates_prec32.py`` beside both (a message that opens a new topic after a turn it does not
    answer, kept when it tells a taste, a fact or a long-run aim, dropped when it tells the day; plans of the
    moment dropped beside long-run goals kept); ``PAI_PRECISION_SETS=s19`` adds session 19's
    ``utterance_templates_ctx34.py`` beside the three (messages after a short acknowledgement, kept or dropped
    by what they tell; long-run wishes and tastes told in the words of the assistant's question beside echoes
    of the moment dropped; trained with ``train_memory_mlp --short-acks``); ``PAI_PRECISION_SETS=s20`` adds
    session 20's ``utterance_templates_prec37.py`` beside the four (companion chat: the day told with feeling,
    moods of the moment, thanks, requests, questions back, plans of the moment dropped; lasting tastes,
    ongoing aims told with "recently" and a mood, life changes and standing facts kept after the same turns):
    ``bench/RESULTS.md``, issue 24."""
    rows = [*prec24b_template_rows(), *prec24_template_rows(), *prec24c_template_rows(second_pass=False)]
    sets = os.environ.get("PAI_PRECISION_SETS")
    if sets == "s14":
        return [*rows, *prec27_template_rows()]
    if sets == "s15":
        return [*rows, *prec28_template_rows()]
    if sets == "s16":
        return [*rows, *prec28_template_rows(), *prec29_template_rows()]
    if sets == "s18":
        return [*rows, *prec28_template_rows(), *prec29_template_rows(), *prec32_template_rows()]
    if sets == "s19":
        return [*rows, *prec28_template_rows(), *prec29_template_rows(), *prec32_template_rows(),
                *ctx34_template_rows()]
    if sets in ("s20", "s20d"):  # s20d: the ablation without session 20's keeps
        return [*rows, *prec28_template_rows(), *prec29_template_rows(), *prec32_template_rows(),
                *ctx34_template_rows(), *prec37_template_rows(keeps=sets == "s20")]
    return rows


def build(corpus: Path, out_path: Path | None = None, precision: bool = False) -> dict[str, int]:
    """The corpus, rebuilt in place (``corpus``); ``precision``: written to ``out_path`` with the precision
    model's template sets after the chat set, ``corpus`` left as it is."""
    old = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    for row in old:
        row.setdefault("source", "hand")
    hand = [r for r in old if r["source"] == "hand"]
    weak = persona_rows() if VALID.exists() else [r for r in old if r["source"] == "persona_valid_weak"]
    rows: dict[str, dict[str, Any]] = {}
    # a text written by hand wins over a template or weak row, the first template set over the second
    extra = precision_rows() if precision else []
    for row in [*hand, *template_rows(), *chat_template_rows(), *extra, *weak]:
        derived = derive_fields(row)
        rows.setdefault(derived["id"], derived)
    out = sorted(rows.values(), key=lambda r: str(r["id"]))
    (out_path or corpus).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in out),
                                    encoding="utf-8")
    counts: dict[str, int] = {}
    for r in out:
        counts[r["source"]] = counts.get(r["source"], 0) + 1
    return counts


def _flat(text: str) -> str:
    return re.sub(r"[\s\W_]+", "", unicodedata.normalize("NFKC", text)).lower()


def originality_check(corpus: Path, extra: list[Path]) -> dict[str, list[str]]:
    """Rows (hand and template; at least 8 normalised characters) whose text occurs inside an evaluation
    file: the dev cases, the team's held-out cases, the demo samples, the public benchmarks' files other
    than the persona validation split, and ``extra`` files (an issue's text). Returns file -> texts."""
    files = [SHARED / "eval" / "dev_cases.jsonl", REPO / "bench" / "data" / "heldout_cases.jsonl",
             *sorted((REPO / "cli" / "samples").glob("*.jsonl")), *extra]
    bench_dir = SHARED / "benchmarks"
    if bench_dir.exists():
        files += [p for p in sorted(bench_dir.rglob("*"))
                  if p.is_file() and p.suffix in (".json", ".jsonl", ".csv")
                  and p.name != VALID.name]
    rows = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    mine = [(r["text"], _flat(r["text"])) for r in rows if r.get("source") != "persona_valid_weak"]
    found: dict[str, list[str]] = {}
    for path in files:
        if not path.exists():
            continue
        hay = _flat(json.dumps(json.loads(path.read_text(encoding="utf-8")), ensure_ascii=False)
                    if path.suffix == ".json" else path.read_text(encoding="utf-8", errors="replace"))
        hits = [text for text, flat in mine if len(flat) >= 8 and flat in hay]
        if hits:
            found[str(path.name)] = hits
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--check", type=Path, nargs="*", default=None,
                        help="only the originality check (extra files to check against: an issue text)")
    parser.add_argument("--precision", type=Path, default=None, metavar="OUT",
                        help="write the precision model's corpus (the corpus plus its template sets) here")
    args = parser.parse_args(argv)
    if args.check is not None:
        found = originality_check(args.corpus, args.check)
        print(json.dumps(found, ensure_ascii=False, indent=1))
        return 1 if found else 0
    if not VALID.exists():
        print(f"skipping the persona rows: {VALID} is absent (kept as they are)")
    counts = build(args.corpus, args.precision, args.precision is not None)
    print(json.dumps(counts, indent=1), sum(counts.values()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
