"""The classifier gate's second look at a rule group it dropped whole: read again by its first clause.

Contract: ``reread_heads`` updates ``gated`` (the verdicts by candidate ``id``) in place: a dropped rule
candidate of several clauses whose first clause stands alone is read again by that clause (the classifier,
then the precision model's second opinion); a goal, taste or fact kept there becomes that clause alone (its
verdict, ``gate_verdicts.verdict``), a standing rule typed as a rule there with p(drop) < ``GATE_DROP`` is
kept whole (with its object and reason). Invariants: a kept candidate is never read again; nothing is
embedded unless a head is read (one more batch then). Pure but for the topic keys' cache.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from core.extraction.candidates import MemoryCandidate
from core.extraction.classifier import MemoryClassifier, MLPModel
from core.extraction.rules.analysis import Analysis
from core.extraction.rules.gate_keys import TopicKeys
from core.extraction.rules.gate_opinion import second_opinion
from core.extraction.rules.gate_units import long_enough
from core.extraction.rules.gate_verdicts import GATE_DROP, verdict
from core.extraction.rules.segment import clean_content
from core.types import MemoryType


def reread_heads(classifier: MemoryClassifier, precision: MLPModel | None, keys: TopicKeys,
                 analysis: Analysis, upserts: list[MemoryCandidate], gated: dict[int, MemoryCandidate | None],
                 filled: frozenset[str] = frozenset(), turn: npt.NDArray[np.float32] | None = None) -> None:
    """A rule candidate of several clauses the gate dropped as a whole is read again by its first
    clause ("i kinda wanna run a half marathon someday, nothing serious, just to say i did it": the
    hedges after it drown the goal); kept, it stays with that clause as its content. A standing rule is
    read by its first clause too, and kept by the classifier as a rule there ("别再给我推荐X了，我看完
    睡不着": the reason after it drowns the rule) it stays whole (with its object and reason). One more
    embedding batch, only when this happens."""
    heads: list[tuple[MemoryCandidate, str]] = []
    for cand in upserts:
        if gated[id(cand)] is not None:
            continue
        group = next((g for g in analysis.groups if g.key == cand.key and g.hit.content is None
                      and len(g.clauses) > 1), None)
        if group is None:
            continue
        first = min(group.clauses, key=lambda c: c.index)
        head = clean_content(first.text)
        if head and head != cand.content and long_enough(head) and cand.content.startswith(head[:8]):
            heads.append((cand, head))
    if not heads:
        return
    vectors = classifier.embed([head for _, head in heads])
    predictions = second_opinion(precision, vectors, classifier.predict_vectors(vectors), turn=turn)
    for (cand, head), pred, vector in zip(heads, predictions, vectors,
                                          strict=True):
        if cand.memory_type is MemoryType.CONSTRAINT:  # a rule stays whole, with its object and reason
            rule = pred.probs[0] < GATE_DROP and pred.memory_type is MemoryType.CONSTRAINT
            gated[id(cand)] = cand if rule else None
            continue
        gated[id(cand)] = verdict(cand.model_copy(update={"content": head}), pred, vector, keys, filled)
