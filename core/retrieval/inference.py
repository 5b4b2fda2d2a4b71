"""A second query for an inference question: what the user is like, would do, might want.

"Would I enjoy a cooking class?", "what job might suit me?", "am I an introvert?", "我会喜欢爵士乐吗？":
the answer is not a statement that paraphrases the question but one of an interest, a trait or a
situation the user told ("I've been baking every weekend", "I get drained at big parties"). The
question's own embedding carries its hypothetical frame ("would ... likely", "might", "be considered")
as much as its topic, and reaches the passages that ask or speculate rather than the ones that state.

``inference_statement`` finds a question of this kind (its frame at the start: a modal, "is it likely",
"do you think", "what ... might/would ..."; or a question about the user's traits, personality,
strengths; the Chinese frames "会不会", "可能", "适合", "你觉得我") and returns its topic: the question
without the frame's words, the user's names (already taken out, ``plan.without_names``) and its
punctuation. The dense path embeds that topic as a passage (e5's ``passage:`` side, the side the
stored statements are on) and blends it into the question's vector (``blend``): one search per kind,
the same candidates' depth, their cosines read against a query that is half question, half statement.

Pure; the cost is one more embedding for a question of this kind only (``QueryVectors`` caches it).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from core.text import regex as re

STATEMENT_WEIGHT = 0.5
"""The statement's share of the blended query vector (``blend``)."""

_EN_FRAME = re.compile(
    r"^\s*(?:(?:would|might|could|will|should|can)\b"
    r"|(?:is|are|am|was|were)\s+(?:it\s+)?(?:likely|possible|probable)\b"
    r"|(?:is|are|am|was|were)\s+(?:i|he|she|they)\s+(?:likely|probably|considered|more|the\s+kind|a|an)\b"
    r"|(?:do|does)\s+(?:you|it)\s+(?:think|seem|sound|look)\b"
    r"|(?:what|which|how|where)\b[^?]{0,60}?\b(?:might|would|could|likely|probably)\b"
    r"|what\b[^?]{0,40}?\b(?:describe|traits?|attributes?|personality|strengths?|weaknesses|values)\b"
    r"|how\s+would\s+you\s+describe\b)",
    re.IGNORECASE)
_EN_TRAIT = re.compile(r"\b(?:personality|character traits?|traits|attributes|strengths|weaknesses"
                       r"|kind of person|sort of person|type of person)\b", re.IGNORECASE)
_ZH_FRAME = re.compile(r"会不会|可不可能|可能会|可能|适合|你觉得我|你认为我|算不算|像不像|性格|是什么样的人"
                       r"|倾向")

# the frame's own words, taken out of the topic (English); a Chinese frame is taken out as matched
_EN_FRAME_WORDS = re.compile(
    r"\b(?:would|might|could|will|should|can|likely|probably|possibly|possible|probable|still|ever|soon"
    r"|be|been|being|considered|is|are|am|was|were|it|do|does|did|you|think|seem|seems|sound|look"
    r"|what|which|how|where|describe|kind|sort|type|of|a|an|the|that|to|me|my|i|he|she|his|her|they|their"
    r"|him|them|someday|in|future|more|interested|want|wants|based|on)\b",
    re.IGNORECASE)
_PUNCT = re.compile(r"[?？!！.。,，;；:：\"“”]|['’](?:d|ll|m|s|re|ve)\b")
_ZH_FRAME_WORDS = re.compile(r"[我吗呢吧会]")


def inference_statement(question: str) -> str | None:
    """The topic of ``question`` as a statement when it is an inference question (module docstring),
    else ``None`` (also when nothing but the frame is left)."""
    text = question.strip()[:500]
    if _EN_FRAME.search(text) or _EN_TRAIT.search(text):
        topic = _EN_FRAME_WORDS.sub(" ", _PUNCT.sub(" ", text))
    elif _ZH_FRAME.search(text):
        topic = _ZH_FRAME_WORDS.sub(" ", _ZH_FRAME.sub(" ", _PUNCT.sub(" ", text)))
    else:
        return None
    topic = " ".join(topic.split())
    return topic if any(ch.isalnum() for ch in topic) else None


def blend(query: npt.NDArray[np.float32], statement: npt.NDArray[np.float32],
          weight: float = STATEMENT_WEIGHT) -> npt.NDArray[np.float32]:
    """The unit vector of ``(1 - weight) x query + weight x statement`` (``query`` when they cancel)."""
    mixed = (1.0 - weight) * query.astype(np.float32) + weight * statement.astype(np.float32)
    norm = float(np.linalg.norm(mixed))
    return (mixed / norm).astype(np.float32) if norm > 0 else query
