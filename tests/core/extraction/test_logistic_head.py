"""``core.extraction.logistic_head``: the small logistic heads' one weights format. The shipped heads predict
on their trainers' rows what the layouts before it did, up to the last bits a machine's arithmetic may
change (``logistic_heads_golden.npz``: rows of each trainer with the probabilities of the old readers,
written by ``python -m training.convert_logistic_heads --golden``); a head saves and loads whole, and a
file of another layout or shape is refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.extraction.horizon import HORIZON_PATH, Horizon
from core.extraction.list_items import ListItemHead
from core.extraction.logistic_head import HeadShapeError, LogisticHead, LogisticHeadError, shipped_or_none
from core.extraction.retraction_intent import INTENT_WEIGHTS_PATH, RetractionIntent
from core.extraction.retraction_target import FEATURES, RetractionTarget
from core.extraction.standing_instruction import STANDING_WEIGHTS_PATH, StandingInstruction
from core.extraction.update_intent import UPDATE_INTENT_PATH
from training.convert_logistic_heads import SHIPPED

GOLDEN = Path(__file__).with_name("logistic_heads_golden.npz")


@pytest.mark.parametrize("item", SHIPPED, ids=lambda s: s.name)
def test_the_shipped_heads_predict_as_before_on_their_trainers_rows(item) -> None:  # type: ignore[no-untyped-def]
    with np.load(GOLDEN, allow_pickle=False) as golden:
        x, before = golden[f"{item.name}_x"], golden[f"{item.name}_p"]
    model = item.load(item.path)
    rows = x if item.texts is None else x.astype(np.float32)
    after = model.p_item(rows) if isinstance(model, ListItemHead) else model.predict_proba(rows)
    # not bit-equal: the same weights on another CPU's vector arithmetic differ in the last bits (seen: one
    # head, ~1e-17); a changed head or reader differs by far more than 1e-12
    assert len(before) >= 10
    np.testing.assert_allclose(after, before, rtol=0, atol=1e-12)


def test_every_shipped_head_is_of_the_one_format_with_its_provenance() -> None:
    for item in SHIPPED:
        head = item.load(item.path).head
        assert head.trainer.startswith("python -m training.") and len(head.data_sha1) == 40
    assert RetractionTarget.load().head.features == FEATURES
    paths = {INTENT_WEIGHTS_PATH, UPDATE_INTENT_PATH, STANDING_WEIGHTS_PATH, HORIZON_PATH}
    assert paths <= {s.path for s in SHIPPED}


def test_a_head_saves_and_loads_whole(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    head = LogisticHead(rng.normal(size=6), -0.25, rng.normal(size=6), rng.uniform(0.5, 2.0, 6), FEATURES,
                        bars={"accept": 0.9, "veto": 0.25}, trainer="python -m training.x --y",
                        data_sha1="a" * 40, notes={"rows": "12"})
    head.save(tmp_path / "h.npz")
    again = LogisticHead.load(tmp_path / "h.npz", features=FEATURES)
    def fields(h: LogisticHead) -> tuple[object, ...]:
        return h.bias, h.features, dict(h.bars), h.trainer, h.data_sha1, dict(h.notes), h.prefix

    assert fields(again) == fields(head)
    x = rng.normal(size=(5, 6))
    assert np.array_equal(again.predict_proba(x), head.predict_proba(x))
    z = ((x - head.mean) / head.scale) @ head.weights + head.bias
    assert np.allclose(head.predict_proba(x), 1.0 / (1.0 + np.exp(-z)))


def test_weights_of_another_shape_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "h.npz"
    LogisticHead.of(np.zeros(7, dtype=np.float32), 0.0).save(path)
    with pytest.raises(HeadShapeError):
        LogisticHead.load(path, dim=384)
    with pytest.raises(HeadShapeError):
        LogisticHead.load(path, features=FEATURES)
    with pytest.raises(HeadShapeError):
        RetractionIntent.load(path)
    assert shipped_or_none(StandingInstruction, path, "a test model", "nothing") is None
    with pytest.raises(ValueError):
        LogisticHead.load(path).predict_proba(np.zeros((2, 8)))


def test_a_file_of_another_layout_or_model_is_refused(tmp_path: Path) -> None:
    old = tmp_path / "old.npz"
    np.savez(old, weights=np.zeros(384, dtype=np.float32), bias=np.array(0.0), mean=np.zeros(384))
    with pytest.raises(LogisticHeadError, match="convert_logistic_heads"):
        Horizon.load(old)
    other = tmp_path / "other.npz"
    LogisticHead.of(np.zeros(384, dtype=np.float32), 0.0, embedding_model="another-model").save(other)
    with pytest.raises(LogisticHeadError):
        LogisticHead.load(other, dim=384)
    with pytest.raises(LogisticHeadError):
        LogisticHead.load(tmp_path / "absent.npz")
