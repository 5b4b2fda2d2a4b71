"""The precision model's session-15 template set (``training.utterance_templates_prec28``): rows with the
assistant's turn before them, built into the precision corpus only with ``PAI_PRECISION_SETS=s15``
(measured, not shipped), and the neutral assistant turns the context trainer reads the other rows after."""

from __future__ import annotations

from training.hand_rows import has_cjk
from training.utterance_templates_prec28 import (
    NEUTRAL_PREVS_EN,
    NEUTRAL_PREVS_ZH,
)


def test_the_neutral_turns_are_both_languages() -> None:
    assert all(has_cjk(t) for t in NEUTRAL_PREVS_ZH) and all(t.isascii() for t in NEUTRAL_PREVS_EN)
