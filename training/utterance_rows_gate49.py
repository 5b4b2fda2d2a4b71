"""Hand-written chat rows for the type-pair head ``fact_project`` (issue 24, session 30, helper gate49).

The family: where the user lives said as what home *is* ("home is a converted barn on my uncle's land",
"home these days is a two-room cottage"), a standing fact, which the memory classifier reads as a project at
0.93-1.0 (a cottage, a barn, a cabin: words of renovation); beside them, the other side of the boundary: the
same kinds of places being converted, rebuilt or done up (a project, with an end).

Every row is written in its own voice (English, Chinese, a few mixed). No row was copied, translated or
paraphrased from an evaluation set (the bench case files, the shared dev cases, the public benchmarks):
``python -m training.utterance_rows_gate49 --check FILES`` checks for copies. Not read by any trainer yet:
session 30 measured them in the ``fact_project`` head (``training/train_type_pairs.py``, arm C of
``bench/RESULTS.md``) and they changed no guard: wire them in with more rows of the family.
"""

from __future__ import annotations

from pathlib import Path

from training.hand_rows import copies, rows_command
from training.train_memory_classifier import CORPUS

F, J = "fact", "project"

_HOME_IS_EN = """\
home is a converted chapel at the edge of town, echoes like crazy
home's a static caravan by the sea for now, it's cosy enough
home is a fourth floor walk-up with a view of the gasworks
home these days is my grandma's old bungalow, she left it to us
home is a farmhouse with no neighbours and terrible signal
home's a lighthouse keeper's cottage, it's tiny but i love it
home is an old mill house, the stream runs right under the kitchen
my home is a boxy little prefab on a hill, built in the 60s
home for me is a log house my parents built in the 90s
home is a studio flat above a kebab shop, never short of dinner lol
home these days is a flat in a converted warehouse, concrete everywhere
home is a cottage down a dirt lane, post comes twice a week
home's a basement flat in an old townhouse, not much daylight
home is a timber cabin up a mountain road, snowed in every january
home is a two-up two-down terrace, the walls are paper thin
our home is a stone barn conversion, it was done before we bought it
"""

_HOME_IS_ZH = """\
我家就是一套老式的筒子楼，走廊做饭那种
我家是山脚下的一座小木屋，冬天靠烧柴
我现在的家是一间改过的旧仓库，层高特别高
我住的地方是海边的一栋老渔屋，风大得很
家就是村口那栋两层的小楼，爸妈盖的
我家是半地下室，白天也得开灯
我家是一栋老四合院的东厢房，跟邻居共用院子
家里是学校分的老教师宿舍，一楼带个小院
"""

_DOING_UP_EN = """\
converting an old chapel into a house, roof goes on next month
we're turning a static caravan into a little guest room, gutted it last week
doing up my grandma's old bungalow before we move in, new wiring first
turning the barn on our land into a home, planning permission just came through
rebuilding a lighthouse keeper's cottage with my dad, all weekends
I'm fitting out a van to live in, insulation's done
restoring an old mill house, the waterwheel is the last bit
building a log cabin from a kit on our plot, walls are up
"""

_DOING_UP_ZH = """\
我在把老家的旧仓库改成民宿，水电刚弄完
我们在自己动手翻修山脚下那间小木屋，屋顶快换好了
我在把村口的老房子改成工作室，墙刷了一半
我在跟我爸一起盖一个小院子的凉亭，柱子立起来了
"""

ROWS: tuple[tuple[str, str, str], ...] = tuple(
    (line.strip(), kind, family)
    for block, kind, family in (
        (_HOME_IS_EN, F, "home_is"), (_HOME_IS_ZH, F, "home_is"),
        (_DOING_UP_EN, J, "doing_up"), (_DOING_UP_ZH, J, "doing_up"),
    )
    for line in block.splitlines() if line.strip()
)


def rows() -> list[dict[str, object]]:
    """The rows as corpus rows (before ``derive_fields``)."""
    return [{"text": text, "keep": True, "type": kind, "family": "gate49_" + family, "relation": None,
             "source": "hand"} for text, kind, family in ROWS]


def check(paths: list[Path]) -> list[str]:
    """Rows whose flattened text (8+ characters) occurs inside a case file's flattened text (copies)."""
    return copies((text for text, _, _ in ROWS), paths, min_chars=8)


def main(argv: list[str] | None = None) -> int:
    return rows_command(argv, __doc__.splitlines()[0], rows, "gate49_", CORPUS, check)


if __name__ == "__main__":
    raise SystemExit(main())
