"""The key the classifier gate files a rescued, re-typed or split-off memory under: ``{type}-{topic}``.

Contract: ``TopicKeys.key(type, text, vector, taken)`` gives the rules' topic words of ``text`` when they
match (a taste, goal or rule topic; a project noun), else the topic of that type nearest to ``vector`` among
``rescue_topics.TOPICS``. Invariants: a key is always readable, never a hash; a single slot another
statement of the burst took (``taken``), or one whose lead over the next topic is below ``FACT_MARGIN``,
gives way to the type's general key (``{type}-personal``). The topic vectors are embedded once per gate, on
first use, in one batch with the candidates' prefix. Deterministic.
"""

from __future__ import annotations

from collections.abc import Collection

import numpy as np
import numpy.typing as npt

from core.extraction.classifier import MemoryClassifier
from core.extraction.rules import lexicon
from core.extraction.rules.rescue_topics import TOPICS
from core.extraction.rules.segment import has_cjk, normalise
from core.extraction.rules.slots import spec
from core.extraction.rules.topics import topic_of
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType

FACT_MARGIN = 0.02  # cosine lead a single fact slot needs over the next topic, else fact-personal


def catch_all(key: str) -> bool:
    """``fact-personal``, ``fact-background``: keys of no topic."""
    return key.split("-", 2)[1:2] in (["personal"], ["background"])


def named_topic(memory_type: MemoryType, text: str) -> str | None:
    """``{type}-{topic}`` when the rules' topic words of ``memory_type`` name the topic of ``text`` (a taste,
    goal or rule topic: "I love jazz", "想考研"; a project noun: "my podcast"), else ``None``: a fact, or a
    statement whose topic only the embedding's nearest topic can guess."""
    norm = normalise(text)
    if memory_type in (MemoryType.PREFERENCE, MemoryType.GOAL, MemoryType.CONSTRAINT):
        topic = topic_of(memory_type.value, norm)
        if topic:
            return f"{memory_type.value}-{topic}"
    if memory_type is MemoryType.PROJECT:
        for noun, slug in sorted({**lexicon.PROJECT_NOUNS_ZH, **lexicon.PROJECT_NOUNS_EN}.items(),
                                 key=lambda kv: (-len(kv[0]), kv[0])):
            if (noun in norm) if has_cjk(noun) else re.search(rf"\b{re.escape(noun)}s?\b", norm):
                return f"project-{slug}"
    return None


class TopicKeys:
    """The topic keys of one classifier (its embedding of the topic texts, cached)."""

    def __init__(self, classifier: MemoryClassifier) -> None:
        self.classifier = classifier
        self._topic_vectors: dict[MemoryType, tuple[list[str], npt.NDArray[np.float32]]] | None = None

    def _topics(self) -> dict[MemoryType, tuple[list[str], npt.NDArray[np.float32]]]:
        if self._topic_vectors is None:
            order = [(t, name, part) for t, names in TOPICS.items() for name, text in names.items()
                     for part in text.split("|")]
            vectors = self.classifier.embed([text for _, _, text in order])  # same prefix as candidates
            out: dict[MemoryType, tuple[list[str], npt.NDArray[np.float32]]] = {}
            for memory_type in TOPICS:
                rows = [i for i, (t, _, _) in enumerate(order) if t is memory_type]
                out[memory_type] = ([order[i][1] for i in rows], vectors[rows])
            self._topic_vectors = out
        return self._topic_vectors

    def key(self, memory_type: MemoryType, text: str, vector: npt.NDArray[np.float32],
            taken: Collection[str] = ()) -> str:
        """``{type}-{topic}``: the rules' topic words first (``named_topic``), else the nearest topic by
        embedding (the type's general key when the nearest is a single slot in ``taken``)."""
        named = named_topic(memory_type, text)
        if named:
            return named
        names, topic_vectors = self._topics()[memory_type]
        sims = topic_vectors @ vector
        best = int(np.argmax(sims))
        key = f"{memory_type.value}-{names[best]}"
        if spec(key).single and key in taken:
            # a single slot another statement of the same message fills ("i'm a software tester" beside
            # "i grow tons of herbs on my balcony in lisbon", nearest to the job too): the type's general
            # key, so the statement is not lost (a guess of another topic would file it wrongly)
            return f"{memory_type.value}-personal"
        if spec(key).single:
            others = [float(v) for n, v in zip(names, sims, strict=True) if n != names[best]]
            runner_up = max(others, default=-1.0)
            if float(sims[best]) - runner_up < FACT_MARGIN:
                return f"{memory_type.value}-personal"
        return key
