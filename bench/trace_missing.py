"""Which stage lost each expected memory: attribution of the misses of case files (issue 24, session 22).

Not a test. Plays every case as ``bench.score_sets`` scores the guards (``eval_rules_offline.run_case``, the
shipped classifier, no semantic dedup) with the extractor's stage functions wrapped (not forked), so each user
turn's candidates are recorded after every stage:

``rules`` (the slot detectors' candidates, ``build``) -> ``gate`` (``ClassifierGate.apply``: the memory
classifier and the precision model gate, re-type and rescue) -> ``precise`` (``precision.precise_parts``: the
word rules and the horizon model) -> ``refine`` (``refine_candidates``: merge into existing memories and
coherence) -> ``judge`` (the update judge) -> ``retraction`` (the retraction resolver) -> ``turns``
(``_over_turns``: answers and project news; what ``refine`` returns) -> ``written`` (the write step's
confidence and noise filters and the per-turn write cap).

Each expected item (type and terms) the case does not hold is then given the stage that lost it:

- ``type:<origin>``: a live memory holds a term under another type; ``origin`` is ``rules`` when the first
  candidate holding it already had that type from a slot detector, ``gate`` when the gate's candidate is the
  first to have it (a rescue or a re-type: the classifier's type head), else the later stage that changed it;
- ``retired-later``: a memory held it but a later turn superseded or deleted it (judge, retraction, a key
  overwrite by another slot);
- ``overwritten``: a write held it, a later write under the same key replaced the content;
- ``lost@<stage>``: the last stage whose candidates held a term, for a candidate that never reached a write
  (``lost@gate`` is split into ``gate-classifier`` / ``gate-precision`` by whose reading says drop: the memory
  classifier's p(drop) >= 0.5 or else the precision model's; ``lost@precise`` into ``precise-horizon`` (the
  horizon model reads a statement at ``HORIZON_DROP`` or more) and ``precise-words``; ``lost@written`` is
  ``write-filter``: confidence, noise or the cap);
- ``unproposed:<reason>``: no stage ever had a candidate holding a term, though a clause of a user turn
  does: ``<reason>`` is the rules' drop reason of that clause (``no-trigger`` is the classifier's rescue not
  reached: ``:under-bar`` when the clause alone reads p(keep) under ``RESCUE_KEEP``, ``:refused`` when it
  reads over it: its rescue unit read otherwise, or the precision model, the type bar or a day marker refused
  it; ``time`` is the time filter, whose keep bar the horizon model may lift;
  ``question``, ``request``, ...), ``in-group`` when the clause was in a rules group whose candidate did not
  carry the term (the group's content was cut);
- ``not-in-words``: no user turn holds any term (the expectation names the memory in other words: only a
  key can carry it).

Each ``unproposed`` row also says whether its turn is an update turn (``update_turn``: the user had a live
memory of the expected type, so the update judge could have written the new value). Prints one line per
missed item and per-stage counts per file; ``--json`` writes them all for a before/after
comparison (``python -m bench.trace_missing --compare A.json B.json``).

    python -m bench.trace_missing [--json OUT] [--lasting] FILE [FILE ...]
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.eval_rules_offline import Memory, make_extractor, run_case, score_case
from core.extraction.candidates import ExtractionInput, MemoryCandidate
from core.extraction.rules import extractor as extractor_module
from core.extraction.rules.extractor import RulesExtractor
from core.extraction.rules.gate_units import RESCUE_KEEP
from core.filters import normalise_key, passes_read_filters

STAGES = ("rules", "gate", "precise", "refine", "judge", "retraction", "turns", "written")


@dataclass
class TurnTrace:
    """One user turn's candidates after each stage (``STAGES``), its analysis and its input."""

    data: ExtractionInput
    stages: dict[str, list[MemoryCandidate]] = field(default_factory=dict)
    analysis: Any = None


def _holds(terms: Iterable[str], key: str, content: str) -> bool:
    hay = f"{key} {content}".lower()
    return any(t in hay for t in terms)


class Tracer:
    """Wraps one ``RulesExtractor``'s stages and records each turn's candidates (``turns``, in call order)."""

    def __init__(self, ext: RulesExtractor) -> None:
        self.ext = ext
        self.by_input: dict[ExtractionInput, TurnTrace] = {}
        self.current: TurnTrace | None = None
        self._wrap()

    def _trace(self, data: ExtractionInput) -> TurnTrace:
        trace = self.by_input.get(data)
        if trace is None:
            trace = self.by_input[data] = TurnTrace(data)
        return trace

    def _wrap(self) -> None:
        ext = self.ext
        gate = ext._gate
        if gate is not None:
            gate_apply = gate.apply

            def traced_gate(analysis: Any, candidates: list[MemoryCandidate], *args: Any, **kw: Any) -> Any:
                out = gate_apply(analysis, candidates, *args, **kw)
                if self.current is not None:
                    self.current.analysis = analysis
                    self.current.stages["rules"] = list(candidates)
                    self.current.stages["gate"] = list(out[0])
                return out

            gate.apply = traced_gate  # type: ignore[method-assign]
        for name, stage in (("_judge", "judge"), ("_retraction", "retraction")):
            obj = getattr(ext, name)
            if obj is not None:
                obj.apply = self._recording(obj.apply, stage)
        extractor_module.refine_candidates = self._recording(extractor_module.refine_candidates, "refine")
        extractor_module._over_turns = self._recording(extractor_module._over_turns, "turns")
        extract, refine = ext.extract, ext.refine

        def traced_extract(data: ExtractionInput) -> list[MemoryCandidate]:
            self.current = self._trace(data)
            out = extract(data)
            if "rules" not in self.current.stages:  # a cached input: the first call recorded it
                built = extractor_module.build(data)
                self.current.stages.setdefault("rules", list(built.candidates))
                self.current.analysis = self.current.analysis or built.analysis
                self.current.stages.setdefault("gate", list(built.candidates))
            self.current.stages["precise"] = list(out)
            return out

        def traced_refine(data: ExtractionInput, candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
            self.current = self._trace(data)
            return refine(data, candidates)

        ext.extract = traced_extract  # type: ignore[method-assign]
        ext.refine = traced_refine  # type: ignore[method-assign]

    def _recording(self, fn: Callable[..., Any], stage: str) -> Callable[..., Any]:
        def wrapped(*args: Any, **kw: Any) -> Any:
            out = fn(*args, **kw)
            if self.current is not None:
                self.current.stages[stage] = list(out)
            return out

        return wrapped

    def play(self, case: dict[str, Any]) -> tuple[list[TurnTrace], dict[str, Memory], list[list[str]]]:
        """The case played as the scorer plays it: each user turn's trace, the memories, the keys written per
        turn."""
        turns: list[TurnTrace] = []
        writes: list[tuple[str, str, str]] = []
        marks: list[int] = []
        extract = self.ext.extract

        def per_turn(data: ExtractionInput) -> list[MemoryCandidate]:
            marks.append(len(writes))
            out = extract(data)
            assert self.current is not None
            turns.append(self.current)  # refine's stages land in it too
            return out

        self.ext.extract = per_turn  # type: ignore[method-assign]
        try:
            memories = run_case(case, self.ext, writes=writes)
        finally:
            self.ext.extract = extract  # type: ignore[method-assign]
        marks.append(len(writes))
        written = [[key for _, op, key in writes[a:b] if op != "delete"]
                   for a, b in itertools.pairwise(marks)]
        for trace, keys in zip(turns, written, strict=True):
            final = trace.stages.get("turns") or trace.stages.get("retraction") or trace.stages.get("judge") \
                or trace.stages.get("refine") or []
            trace.stages.setdefault("turns", final)
            by_key = {normalise_key(c.key): c for c in final}
            trace.stages["written"] = [by_key[k] for k in keys if k in by_key]
        return turns, memories, written


def _stage_reached(turns: list[TurnTrace], terms: list[str]) -> tuple[int, int]:
    """The furthest stage (index in ``STAGES``, -1 for none) a candidate holding a term reached, and its
    turn."""
    best, where = -1, -1
    for t, trace in enumerate(turns):
        for i, stage in enumerate(STAGES):
            if i >= best and any(_holds(terms, c.key, c.content) for c in trace.stages.get(stage, [])):
                best, where = i, t
    return best, where


def _first_type(turns: list[TurnTrace], terms: list[str]) -> tuple[str, str] | None:
    """The stage and type of the first candidate holding a term."""
    for trace in turns:
        for stage in STAGES:
            for c in trace.stages.get(stage, []):
                if _holds(terms, c.key, c.content):
                    return stage, c.memory_type.value
    return None


class Attributor:
    """Gives each missed expected item its stage (see the module doc)."""

    def __init__(self, lasting: bool = False) -> None:
        """``lasting``: with the gate's lasting-statement head (``core.extraction.rules.gate_lasting``,
        session 22's arm, off in the product); off: the gate as shipped."""
        self.ext = make_extractor(True)
        if lasting and self.ext._gate is not None:
            from core.extraction.lasting import shipped_lasting

            self.ext._gate.lasting = shipped_lasting()
        self.tracer = Tracer(self.ext)

    def _readings(self, text: str, prev: str | None) -> dict[str, Any]:
        clf = self.ext.classifier
        assert clf is not None
        pred = clf.predict([text])[0]
        out: dict[str, Any] = {"p_keep": round(pred.p_keep, 3), "type": pred.memory_type.value}
        gate = self.ext._gate
        if gate is not None and gate.precision is not None:
            from core.extraction.classifier import turn_tail

            vec = clf.embed([text])
            turn = turn_tail(prev) if gate.precision.context else ""
            pv = clf.embed([turn]) if turn else None
            p = gate.precision.predict_proba(vec, pv)[0]
            out["prec_keep"] = round(1.0 - float(p[0]), 3)
        if self.ext._horizon is not None:
            out["horizon"] = round(self.ext.horizon([text])[0], 3)
        return out

    def attribute(self, case: dict[str, Any]) -> list[dict[str, Any]]:
        from core.extraction.horizon import HORIZON_DROP

        turns, memories, _ = self.tracer.play(case)
        held, _ = score_case(case, memories)
        live = [m for m in memories.values() if m.active and passes_read_filters(m.key, m.content)]
        out: list[dict[str, Any]] = []
        for exp, ok in zip(case.get("expect", []), held, strict=True):
            if ok:
                continue
            terms = [t.lower() for t in exp["any_of"]]
            row: dict[str, Any] = {"case": case["id"], "type": exp["type"], "terms": exp["any_of"]}
            out.append(row)
            holding = [m for m in live if _holds(terms, m.key, m.content)]
            if holding:
                first = _first_type(turns, terms)
                got = holding[0].memory_type
                origin = "later"
                if first is not None and first[1] == got:
                    origin = first[0] if first[0] in ("rules", "gate") else "later"
                row["stage"] = f"type:{origin}"
                row["detail"] = f"held as {got} {holding[0].key}: {holding[0].content[:90]}"
                continue
            if any(_holds(terms, m.key, m.content) for m in memories.values()):
                m = next(m for m in memories.values() if _holds(terms, m.key, m.content))
                row["stage"] = "retired-later"
                row["detail"] = f"{m.memory_type} {m.key}: {m.content[:90]}"
                continue
            reached, t = _stage_reached(turns, terms)
            if reached == len(STAGES) - 1:
                row["stage"] = "overwritten"
                continue
            if reached >= 0:
                lost = STAGES[reached]
                trace = turns[t]
                cand = next(c for c in trace.stages[lost] if _holds(terms, c.key, c.content))
                prev = _prev_turn(trace.data)
                row["detail"] = f"{cand.memory_type.value} {cand.key}: {cand.content[:90]}"
                if lost == "rules":
                    r = self._readings(cand.content, prev)
                    row["readings"] = r
                    lost = "gate-classifier" if r["p_keep"] < 0.5 else "gate-precision"
                elif lost == "gate":
                    r = self._readings(cand.content, prev)
                    row["readings"] = r
                    lost = "precise-horizon" if r.get("horizon", 0.0) >= HORIZON_DROP else "precise-words"
                elif lost == "turns":
                    lost = "write-filter"
                else:  # lost at the next stage that ran on this turn
                    lost = next(s for s in STAGES[reached + 1:] if s in trace.stages)
                row["stage"] = f"lost@{lost}"
                continue
            row.update(self._unproposed(turns, terms, exp["type"]))
        return out

    def _unproposed(self, turns: list[TurnTrace], terms: list[str], expected: str) -> dict[str, Any]:
        for trace in turns:
            analysis = trace.analysis
            clauses = list(getattr(analysis, "clauses", None) or [])
            for clause in clauses:
                if not any(t in clause.text.lower() for t in terms):
                    continue
                reason = analysis.dropped.get(clause.index)
                grouped = any(clause in g.clauses for g in analysis.groups)
                r = self._readings(clause.text, _prev_turn(trace.data))
                if reason is None:
                    reason = "in-group" if grouped else "none"
                elif reason == "no-trigger":  # the classifier's rescue not reached: under its bar, or refused
                    reason += ":under-bar" if r["p_keep"] < RESCUE_KEEP else ":refused"
                # an update turn: the user has a live memory of the expected type (the judge's say, too)
                update = any(m.memory_type == expected for m in trace.data.existing)
                return {"stage": f"unproposed:{reason}", "detail": clause.text[:120], "readings": r,
                        "update_turn": update}
            if any(t in trace.data.user_message.lower() for t in terms):
                return {"stage": "unproposed:restated", "detail": trace.data.user_message[:120]}
        return {"stage": "not-in-words"}


def _prev_turn(data: ExtractionInput) -> str | None:
    last = data.context[-1] if data.context else None
    return last.content if last is not None and last.role == "assistant" else None


def _family(stage: str) -> str:
    """The coarse stage of a row: ``unproposed:no-trigger`` stays, other rules' hard drops join as
    ``unproposed:filter``."""
    kept = ("unproposed:no-trigger", "unproposed:in-group", "unproposed:time")
    if stage.startswith("unproposed:") and not stage.startswith(kept):
        return "unproposed:filter"
    return stage


def run(files: list[Path], lasting: bool = False) -> dict[str, list[dict[str, Any]]]:
    att = Attributor(lasting)
    result: dict[str, list[dict[str, Any]]] = {}
    for path in files:
        name = path.name.removesuffix("_cases.jsonl").removesuffix(".jsonl")
        rows: list[dict[str, Any]] = []
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rows.extend(att.attribute(json.loads(line)))
        result[name] = rows
        for row in rows:
            print(f"{name:<13} {row['case']:<24} {row['type']:<10} {row['stage']:<26} "
                  f"{'/'.join(row['terms'])[:30]:<30} {row.get('readings', '')} | {row.get('detail', '')}",
                  flush=True)
        counts = collections.Counter(_family(r["stage"]) for r in rows)
        print(f"== {name}: {len(rows)} missed  " + "  ".join(f"{k} {v}" for k, v in counts.most_common()),
              flush=True)
    return result


def table(result: dict[str, list[dict[str, Any]]]) -> str:
    """Per-stage counts over all files (coarse stages), one line each, largest first."""
    counts = collections.Counter(_family(r["stage"]) for rows in result.values() for r in rows)
    total = sum(counts.values())
    updates = sum(1 for rows in result.values() for r in rows if r.get("update_turn"))
    lines = [f"{k:<26} {v}" for k, v in counts.most_common()]
    return "\n".join([*lines, f"{'total':<26} {total}", f"{'(unproposed, update turn)':<26} {updates}"])


def compare(a: dict[str, list[dict[str, Any]]], b: dict[str, list[dict[str, Any]]]) -> str:
    ca = collections.Counter(_family(r["stage"]) for rows in a.values() for r in rows)
    cb = collections.Counter(_family(r["stage"]) for rows in b.values() for r in rows)
    keys = sorted(set(ca) | set(cb), key=lambda k: -ca[k])
    lines = [f"{k:<26} {ca[k]:>4} -> {cb[k]:<4}" for k in keys]
    lines.append(f"{'total':<26} {sum(ca.values()):>4} -> {sum(cb.values()):<4}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", type=Path, nargs="*")
    parser.add_argument("--json", type=Path, default=None, help="write every row here")
    parser.add_argument("--lasting", action="store_true",
                        help="the gate with the lasting-statement head (session 22's arm, off in the "
                             "product)")
    parser.add_argument("--compare", type=Path, nargs=2, default=None,
                        help="two --json outputs: per-stage counts")
    args = parser.parse_args(argv)
    if args.compare:
        a, b = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
        print(compare(a, b))
        return 0
    result = run(args.files, args.lasting)
    print(table(result))
    if args.json is not None:
        args.json.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
