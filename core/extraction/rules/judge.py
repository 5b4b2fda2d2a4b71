"""The learned update/retraction decision in the rules provider's refine stage.

``UpdateJudge.apply`` runs after the rules' refine (``refine_candidates``) on messages carrying an
update or retraction cue (``core.extraction.pairs.has_cue``; other messages cost nothing). Each cue
sentence of the message (at most ``MAX_STATEMENTS``) is paired with the user's ``MAX_PAIRS`` most
similar live memories (cosine of ``passage:`` vectors, from the shared cache) and the pair model
(``core.extraction.pairs.PairModel``) decides:

- ``retract`` with p >= ``RETRACT_P`` and a retraction cue in the sentence: a ``delete`` of that
  memory (naming it in ``supersedes``), unless a candidate of the message already writes it;
- ``supersede`` with p >= ``SUPERSEDE_P``: the candidate the sentence produced (its content overlaps
  the sentence; of the memory's type; not another named slot) names the memory in ``supersedes`` (the
  upsert deactivates it or overwrites it, and the history says which message superseded which);
  without such a candidate nothing changes;
- ``refine`` / ``unrelated``: nothing changes.

The upsert stage records ``superseded by message N`` / ``retracted by message N``
(``core.memory.upsert._linked``). Deterministic.
"""

from __future__ import annotations

import numpy as np

from core.extraction.candidates import CandidateOp, ExistingMemory, MemoryCandidate
from core.extraction.classifier import MemoryClassifier
from core.extraction.pairs import RELATIONS, RETRACT_CUE, PairModel, has_cue, overlap
from core.extraction.rules.events import is_event_key
from core.extraction.rules.segment import clean_content
from core.extraction.rules.slots import is_known_slot
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.types import MemoryType
from schemas.events import MAX_MEMORY_CONTENT_CHARS

MAX_STATEMENTS = 4
MAX_PAIRS = 3
MAX_EXISTING = 40  # the most recent live memories compared (bounded work per message)
RETRACT_P = 0.80
SUPERSEDE_P = 0.80
MIN_COSINE = 0.80  # a memory less similar than this to the sentence is never its pair
_SENTENCE = re.compile(r"[^。！？!?.;；\n]+[。！？!?.;；]?")


def cue_sentences(message: str) -> list[str]:
    """The message's sentences with an update or retraction cue, in order (at most ``MAX_STATEMENTS``)."""
    out = []
    for m in _SENTENCE.finditer(message):
        text = clean_content(m.group(0))
        if len(text) >= 3 and has_cue(text):
            out.append(text)
    return out[:MAX_STATEMENTS]


class UpdateJudge:
    """Applies the pair model to one message's candidates against the user's live memories."""

    def __init__(self, classifier: MemoryClassifier, model: PairModel) -> None:
        self.classifier = classifier
        self.model = model

    def apply(self, message: str, existing: tuple[ExistingMemory, ...],
              candidates: list[MemoryCandidate]) -> list[MemoryCandidate]:
        live = [m for m in existing if m.content.strip()][-MAX_EXISTING:]
        sentences = cue_sentences(message) if live else []
        if not sentences:
            return candidates
        vectors = self.classifier.embed(sentences + [m.content for m in live])
        s_vec, m_vec = vectors[:len(sentences)], vectors[len(sentences):]
        out = list(candidates)
        written = {c.key for c in out if c.op is not CandidateOp.DELETE}
        deleted = {c.key for c in out if c.op is CandidateOp.DELETE}
        for i, sentence in enumerate(sentences):
            sims = m_vec @ s_vec[i]
            order = [int(j) for j in np.argsort(-sims, kind="stable")[:MAX_PAIRS] if sims[j] >= MIN_COSINE]
            if not order:
                continue
            feats = self.model.features(m_vec[order], np.repeat(s_vec[i:i + 1], len(order), axis=0),
                                        [live[j].content for j in order], [sentence] * len(order))
            probs = self.model.predict_proba(feats)
            best = int(np.argmax(probs.max(axis=1) * (probs.argmax(axis=1) > 0)))
            relation = RELATIONS[int(probs[best].argmax())]
            p = float(probs[best].max())
            memory = live[order[best]]
            if relation == "retract" and p >= RETRACT_P and RETRACT_CUE.search(sentence):
                if memory.key in written or memory.key in deleted:
                    continue
                out.insert(0, MemoryCandidate(op=CandidateOp.DELETE, memory_type=_type(memory),
                                              key=memory.key,
                                              content=memory.content[:MAX_MEMORY_CONTENT_CHARS], importance=3,
                                              confidence=round(p, 3), supersedes=memory.key))
                deleted.add(memory.key)
            elif (relation == "supersede" and p >= SUPERSEDE_P and memory.key not in deleted
                  and memory.key not in written):  # a candidate of the message already rewrites that slot
                out = self._supersede(out, sentence, memory)
        return out

    @staticmethod
    def _supersede(out: list[MemoryCandidate], sentence: str,
                   memory: ExistingMemory) -> list[MemoryCandidate]:
        """The candidate the sentence produced, of the memory's type and not another named slot, names
        the memory it replaces; without one nothing changes (a sentence alone never overwrites a memory:
        measured on the dev cases, that put day events and cue words into facts)."""
        for k, c in enumerate(out):
            if (c.op is not CandidateOp.UPSERT or c.supersedes is not None
                    or c.memory_type is not _type(memory)):
                continue
            named = is_known_slot(c.key) and is_known_slot(memory.key)
            if is_event_key(c.key) or (c.key != memory.key and named):
                continue  # a dated life event replaces nothing; two named slots never replace each other
            if c.content in sentence or sentence in c.content or overlap(c.content, sentence) >= 0.5:
                out[k] = c.model_copy(update={"supersedes": memory.key})
                break
        return out


def _type(memory: ExistingMemory) -> MemoryType:
    try:
        return MemoryType(memory.memory_type)
    except ValueError:
        return MemoryType.FACT
