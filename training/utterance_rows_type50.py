"""Hand-written chat rows for the type-pair head ``fact_project`` (issue 24, session 31, helper type50).

The family (gate49's, ``utterance_rows_gate49``, with more rows per side): where the user lives said as what
home *is* or as the kind of dwelling ("home's a narrowboat these days", "我住的是厂里分的老宿舍"), a standing
fact, which the memory classifier reads as a project at 0.93-1.0; beside them, the other side of the
boundary: ongoing personal projects outside any word list, a thing being made, restored, compiled or built
(a project, with an end), so the head does not learn "a place or an old thing = a fact".

Every row is written in its own voice (English, Chinese, a few mixed). No row was copied, translated or
paraphrased from an evaluation set (the bench case files, the shared dev cases, the public benchmarks):
``python -m training.utterance_rows_type50 --check FILES`` checks for copies. Read by
``training/train_type_pairs.py`` for the ``fact_project`` head's ``type50`` weights
(``type_pairs.HOME_ROWS_HEAD``).
"""

from __future__ import annotations

from pathlib import Path

from training.hand_rows import copies, rows_command
from training.train_memory_classifier import CORPUS

F, J = "fact", "project"

_HOME_EN = """\
home's a narrowboat on the river these days, the ducks wake me up
home is a one-bed flat on the 14th floor, lifts break every other week
home right now is a rented room in a shared house with four students
honestly home is a tiny cabin at the back of my sister's garden
home these days is a ground floor flat next to a petrol station
home is a rented granny annex behind my in-laws' place
home is an ex-council maisonette, thin walls but cheap
ngl home is a cramped bedsit, bed doubles as the sofa
home is a little terrace house near the football ground, matchdays are loud
home is a converted church hall flat, the windows are massive
we live in a yurt on a friend's smallholding, have done for three years
home's a park home on a retirement site, i'm the youngest by 30 years
we live in a dormer bungalow at the end of a cul-de-sac
home is a loft apartment in an old biscuit factory
home is a houseshare in a victorian semi, six of us
i live in a railway cottage right by the level crossing
i live in staff accommodation at the hotel i work at
home is a shepherd's hut in a field, compost loo and all
home these days is a caravan on my mate's driveway lol
my place is a studio over a laundrette, always warm at least
home's a flat above my parents' shop
home is a prefab bungalow from the 50s, still standing somehow
"""

_HOME_ZH = """\
我住的是厂里以前分的老宿舍，三楼，楼道很窄
我家就是城中村里的一间出租屋，十几平米
我现在住的是学校的教工宿舍，离办公室五分钟
我家是一栋八十年代的红砖楼，六楼顶层
我住的是公司提供的员工宿舍，四个人一间
我家就在镇上老街的一栋木板房里，楼梯吱吱响
我现在住的是岳父母家的二楼，他们住一楼
家是郊区的一套回迁房，小区还挺新的
我住的地方是一个老小区的一楼，带个小花园
我家是胡同里的一间平房，冬天烧暖气片
我住在单位的周转房里，一室一厅
我们家是自建的三层小楼，我住三楼
我住的是江边一栋老公寓，窗外就是江
我家是一套loft，上面睡觉下面办公
我现在住在一个合租的老洋房里，跟三个人合住
我住的是村里的老屋，土墙的，夏天凉快
我家是半山腰的一栋石头房子，爷爷那辈盖的
我住在一个学区房里，房子小但是离学校近
我现在的家是一个带阁楼的顶层，阁楼当书房
家就是码头边一间小木屋，门口就能钓鱼
"""

_MAKING_EN = """\
putting together a scrapbook of my grandad's war letters for the family
i'm restoring an old singer sewing machine i found at a car boot
slowly building a dollhouse for my goddaughter, wiring the tiny lights now
compiling a cookbook of my nan's recipes to print for christmas
rebuilding a 1972 beetle engine in the shed, crankshaft's next
knitting a blanket for my brother's new baby, halfway there
working on a zine about the local punk scene in the 80s
i'm making a photobook of every bridge in our county
building a bat box and a hedgehog house for the allotment
restoring my late uncle's fishing boat, sanding the hull this month
writing down my mum's stories for a little family memoir
recording an oral history of the old mill workers in our town
carving a chess set out of walnut, got the pawns done
stitching a memory quilt from my dad's old shirts
building a little app that tracks the bus times for our village
digitising a box of old cine films from my grandparents
i've been restoring a rusty vintage road bike bit by bit
putting together a family tree going back to the 1700s
sewing a patchwork cushion for my niece's new room
making a model railway of the town where i grew up
"""

_MAKING_ZH = """\
我在给我爸妈做一本老照片的纪念册，扫描了一大半了
最近在修一台八十年代的老缝纫机，零件是网上淘的
我在慢慢写一本我们村的村史，采访了好几个老人
我在给我侄女织一件毛衣，袖子还没织
我在自己攒一台复古游戏机，外壳刚打印好
我在把外婆的菜谱整理成一本小册子，打算印给亲戚
我在修复一辆老凤凰自行车，刚把链条换了
我在做一个记录小区流浪猫的小程序，周末写一点
我在给女儿做一个木头娃娃屋，屋顶还没钉
我在编我们家的族谱，往上查到了清朝
我在拍一个关于老街手艺人的小纪录片，采访了三个师傅
我在刻一套印章送朋友，已经刻了五方
我在用乐高拼一座我们学校的模型，拼了一个月了
我在缝一个拼布包送我妈，布是攒了好久的
我在把我爷爷的老唱片一张张翻录成数字的
我最近在做一个本地方言的词典，收了三百多个词
我在画一本给侄子的绘本，讲他家那只狗的
我在翻新一台老收音机，想让它重新响起来
我在整理我们厂的老照片，准备办个小展览
我在给社区的老人们做一本菜谱合集，每人一道菜
"""

ROWS: tuple[tuple[str, str, str], ...] = tuple(
    (line.strip(), kind, family)
    for block, kind, family in (
        (_HOME_EN, F, "home"), (_HOME_ZH, F, "home"),
        (_MAKING_EN, J, "making"), (_MAKING_ZH, J, "making"),
    )
    for line in block.splitlines() if line.strip()
)


def rows() -> list[dict[str, object]]:
    """The rows as corpus rows (before ``derive_fields``)."""
    return [{"text": text, "keep": True, "type": kind, "family": "type50_" + family, "relation": None,
             "source": "hand"} for text, kind, family in ROWS]


def check(paths: list[Path]) -> list[str]:
    """Rows whose flattened text (8+ characters) occurs inside a case file's flattened text (copies)."""
    return copies((text for text, _, _ in ROWS), paths, min_chars=8)


def main(argv: list[str] | None = None) -> int:
    return rows_command(argv, __doc__.splitlines()[0], rows, "type50_", CORPUS, check)


if __name__ == "__main__":
    raise SystemExit(main())
