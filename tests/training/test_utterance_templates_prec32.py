"""The precision model's session-18 rows (``training.utterance_templates_prec32``): messages with the
assistant's turn before them, built into the precision corpus only with ``PAI_PRECISION_SETS=s18`` (beside
sessions 15's and 16's)."""

from __future__ import annotations

from training.utterance_templates_prec32 import FAMILIES, prec32_template_rows


def test_new_topic_openings_are_labelled_by_what_they_tell_and_plans_by_their_horizon() -> None:
    rows = prec32_template_rows()
    by = {f: [r for r in rows if r["family"] == f] for f, _, _, _ in FAMILIES}
    keeps = ("new_topic_durable_taste", "new_topic_durable_fact", "new_topic_long_run_aim", "long_run_goal")
    assert all(r["keep"] for f in keeps for r in by[f])
    assert not any(r["keep"] for f in ("new_topic_day", "plan_of_the_moment") for r in by[f])
    # the same closing turns open both a durable and a day message: the turn alone cannot decide
    closes = {r["prev"] for r in by["new_topic_day"]}
    assert len(closes & {r["prev"] for r in by["new_topic_durable_taste"]}) >= 10
