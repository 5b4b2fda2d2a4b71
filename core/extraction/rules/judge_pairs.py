"""The update judge's pairing: which live memories a cue sentence is read against, and the pair model's
reading of each pair.

Contract: ``embed_message`` embeds a message's cue sentences, their retraction topics, the live memories
and (for a bare "forget that") the previous turn in one batch. ``pair`` gives, for one sentence, the
indices of its at most ``MAX_PAIRS`` most similar live memories (cosine >= ``MIN_COSINE``,
``CROSS_SCRIPT_COSINE`` across scripts; the memory the previous turn stated first for a bare "forget that",
and none a stage already decided), with the pair model's probabilities (``core.extraction.pairs.RELATIONS``)
and its retract probability (for a bare "forget that", the larger of the sentence's own topic and the
previous turn as the topic); ``None`` when no memory pairs. ``reading`` picks the surest non-unrelated
relation of the pairs, reading a correction or an update without a change word as supersede plus refine,
and the old value's end with a new value as supersede plus retract. Invariants: deterministic (stable
sort); one embedding batch per message; the models are passed in.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from core.extraction.candidates import ExistingMemory
from core.extraction.classifier import MemoryClassifier
from core.extraction.pair_align import Embed
from core.extraction.pairs import RELATIONS, PairModel, overlap, shares_value
from core.extraction.rules.judge_cues import CORRECTION, STRONG_CUE, is_anaphoric, retracts, tells_new_value
from core.extraction.rules.segment import has_cjk

MAX_PAIRS = 3
MAX_EXISTING = 40  # the most recent live memories compared (bounded work per message)
MIN_COSINE = 0.80  # a memory less similar than this to the sentence is never its pair
CROSS_SCRIPT_COSINE = 0.76  # ... when one of the two is Chinese and the other not (e5's cosines across
# languages sit lower: "I'm based in Singapore" / "上个月 relocate 到吉隆坡了" 0.78)
ANAPHOR_OVERLAP = 0.5  # the previous turn stated the memory (Dice overlap of their words)


@dataclass(frozen=True)
class Embedded:
    """One message's embedding batch: sentences, topics and live memories (rows of ``vectors``)."""

    vectors: npt.NDArray[np.float32]  # the previous turn last, when it was embedded
    n_sentences: int
    n_live: int

    @property
    def sentences(self) -> npt.NDArray[np.float32]:
        return self.vectors[:self.n_sentences]

    @property
    def topics(self) -> npt.NDArray[np.float32]:
        return self.vectors[self.n_sentences:2 * self.n_sentences]

    @property
    def memories(self) -> npt.NDArray[np.float32]:
        return self.vectors[2 * self.n_sentences:2 * self.n_sentences + self.n_live]


@dataclass(frozen=True)
class Pairing:
    """One sentence's paired memories (indices into the live memories, the surest pair first) and the
    pair model's reading of each."""

    order: list[int]
    probs: npt.NDArray[np.float64]
    retract: npt.NDArray[np.float64]
    anaphor: bool  # a bare "forget that" whose referent is the previous turn
    unstored: bool = False  # the sentence's own topic names a part of the previous turn no live memory holds


def embed_message(classifier: MemoryClassifier, sentences: list[str], topics: list[str],
                  live: list[ExistingMemory], previous: str | None) -> Embedded:
    """The one embedding batch of a message; ``previous`` (the previous turn, only for a bare "forget
    that") is embedded last when given."""
    texts = [*sentences, *topics, *(m.content for m in live)]
    if previous:
        texts.append(previous)
    return Embedded(classifier.embed(texts), len(sentences), len(live))


def _min_cosine(a: str, b: str) -> float:
    return MIN_COSINE if has_cjk(a) == has_cjk(b) else CROSS_SCRIPT_COSINE


def _other_part(sentence: str, topic: str, previous: str, memory: str) -> bool:
    """The retraction names a part of the previous turn that ``memory`` does not hold ("my address is
    ..., and i'm a teacher" / "don't keep my address, delete that bit"): its "that" is that part."""
    return topic != sentence and bool(shares_value(previous, topic)) and not shares_value(memory, topic)


def pair(model: PairModel, emb: Embedded, i: int, sentence: str, topic: str, live: list[ExistingMemory],
         previous: str | None, anaphoric: bool, done: set[str], embed: Embed | None = None) -> Pairing | None:
    """The ``i``-th sentence's pairs and the pair model's reading of them (see the module doc); ``embed`` is
    what joint pair weights embed the difference spans with (the shipped weights read none)."""
    vectors, s_vec, t_vec, m_vec = emb.vectors, emb.sentences, emb.topics, emb.memories
    sims = m_vec @ s_vec[i]
    order = [int(j) for j in np.argsort(-sims, kind="stable")[:MAX_PAIRS]
             if sims[j] >= _min_cosine(sentence, live[int(j)].content)]
    anaphor = anaphoric and is_anaphoric(sentence)
    if anaphor and previous:
        # "forget that": the memory the previous turn stated is the referent
        ref = m_vec @ vectors[-1]
        j = int(np.argmax(ref))
        if ref[j] >= MIN_COSINE and overlap(live[j].content, previous) >= ANAPHOR_OVERLAP:
            if _other_part(sentence, topic, previous, live[j].content):
                anaphor = False  # "don't keep my address, delete that bit": the address, not the job
            else:
                order = [j] + [k for k in order if k != j]
    order = [j for j in order if live[j].key not in done]
    if not order:
        return None
    feats = model.features(m_vec[order], np.repeat(s_vec[i:i + 1], len(order), axis=0),
                           [live[j].content for j in order], [sentence] * len(order),
                           np.repeat(t_vec[i:i + 1], len(order), axis=0), embed)
    probs = model.predict_proba(feats)
    retract = probs[:, RELATIONS.index("retract")]
    if anaphor:  # "forget that": its topic may be the previous turn, whichever the model finds surer
        feats = model.features(m_vec[order], np.repeat(s_vec[i:i + 1], len(order), axis=0),
                               [live[j].content for j in order], [sentence] * len(order),
                               np.repeat(vectors[-1:], len(order), axis=0), embed)
        retract = np.maximum(retract, model.predict_proba(feats)[:, RELATIONS.index("retract")])
    return Pairing(order, probs, retract, anaphor, unstored_part(sentence, topic, previous, live))


def unstored_part(sentence: str, topic: str, previous: str | None, live: list[ExistingMemory]) -> bool:
    """The retraction names its own thing by a word the user's previous turn says and no live memory holds
    ("my ex jordan still owes me 400 bucks. i live in denver" / "can u not keep the jordan stuff, just wipe
    it": the debt was never stored; the city is not what is withdrawn)."""
    return bool(previous) and topic != sentence and bool(shares_value(previous or "", topic)) \
        and not any(shares_value(m.content, topic) for m in live)


def reading(probs: npt.NDArray[np.float64], sentence: str, intent: bool,
            reads_change: bool = False) -> tuple[int, str, float]:
    """``(best, relation, p)``: the pair (rank in the pairing) the model is surest of a relation other than
    unrelated, that relation and its probability. ``intent``: the sentence has no change word, the
    update-intent model read it as a change; ``reads_change``: the update-intent model reads the sentence
    (with a change word or not) as a change, which tells a new value as a strong change cue does."""
    best = int(np.argmax(probs.max(axis=1) * (probs.argmax(axis=1) > 0)))
    relation = RELATIONS[int(probs[best].argmax())]
    p = float(probs[best].max())
    if (CORRECTION.search(sentence) or intent) and best == 0 and relation in ("supersede", "refine"):
        # a correction ("portland MAINE, not oregon"): the model, never trained on corrections,
        # splits it between supersede and refine; together they are the change
        relation = "supersede"
        p = float(probs[best, RELATIONS.index("supersede")] + probs[best, RELATIONS.index("refine")])
    elif best == 0 and relation == "supersede" and not retracts(sentence) \
            and (reads_change or (STRONG_CUE.search(sentence) and tells_new_value(sentence))):
        # the old value's end and a new value in one sentence without a retraction word ("X学不
        # 下去了，现在改学Y"; or, on the update-intent model's word, "X待不下去了，回Y找了份工作", where no
        # word marks the new value): the model, surest of a supersede, gives the rest to retract; both say
        # the old value no longer holds, and the sentence tells what holds instead (not when retract
        # is the surer reading: "汇率用个 rough estimate 就行" refines a rule, read retract 0.84)
        relation = "supersede"
        p = float(probs[best, RELATIONS.index("supersede")] + probs[best, RELATIONS.index("retract")])
    return best, relation, p
