"""Hand-written chat rows on the fact / project boundary of the memory classifier's type head (issue 24,
session 21, helper ptype40).

The family: a standing circumstance of the user's life told in chat words, without the rules' slot words
(no "I work as", no "I live in", no "my car is") -- what the user owns or drives, where, with whom and in
what kind of place they live, what they do for a living said as what they do all day ("doing the night
shift at a warehouse", "我是搞财务的"), the family business or the relative they help or look after. The
shipped type head read many such lines as a project (a thing the user is making) and, where the rules had
no slot for them, the rescue path stored them so ("we've got an old pickup that still runs" as a project).
Beside them, the other side of the boundary: a project told in chat words (something being built, written,
made or renovated, with an end), so the head keeps those.

Every row is written in its own voice (English, Chinese, a few mixed; lowercase, typos, emoji, asides),
not a frame crossed with slot values. No row was copied, translated or paraphrased from an evaluation
set (the bench case files, the shared dev cases, the public benchmarks);
``python -m training.utterance_rows_ptype40 --check FILES`` checks for copies. ``--append`` adds the rows
the corpus lacks (source ``hand``, family ``ptype40_*``), then
``python -m training.train_memory_classifier --normalise-corpus`` and retrain (training/README.md);
``--remove`` takes them out again.
"""

from __future__ import annotations

import sys
from pathlib import Path

from training.hand_rows import copies, rows_command
from training.train_memory_classifier import CORPUS

F, J = "fact", "project"

_OWN_EN = """\
we've got a rusty old pickup, still starts every morning somehow
I drive a hand-me-down hatchback from my aunt
my ride is a 2009 motorbike, no car
we have two cars but I mostly take the e-bike
I own a tiny sailboat that lives at the marina
got a second-hand piano in the living room, nobody tunes it lol
we own a cabin up north, nothing fancy
my car's a grey estate with 200k miles on it
i have a little allotment plot behind the church
we've had the same camper van for ten years
I don't own a car, just a bus pass and a bike
I've got a drone I fly on weekends... well, I own one anyway
our house has a big basement and a leaky roof
there's a wood stove in our flat, which is rare here
"""

_HOME_EN = """\
sharing a three-bed terrace with two nurses and a cat
renting a room above a bakery with my girlfriend
I'm in a basement flat with my brother, it's cheap
living in a converted barn with my parents for now
me and my partner rent a narrow little house by the canal
i've got a studio on the fourth floor, no lift 😩
still at my mum's place, saving money
we live on a houseboat, yes really
I'm in student halls this year
my husband and I have a bungalow out past the ring road
we moved into a two-up two-down near the station last spring
living with three flatmates in a place with one bathroom, send help
"""

_WORK_EN = """\
I do the early shift at a bakery, 4am starts
been stacking shelves on nights at a supermarket for two years
I drive a delivery van for a parcel company
doing admin for a dentist three days a week
I answer phones at a car insurance call centre
I teach swimming to kids at the leisure centre, part time
I'm on the tills at a garden centre
mostly I fix laptops for small offices around town
I clean hotel rooms, have done since I left school
I do the books for my uncle's plumbing business
I look after the accounts at a small charity
I'm in HR at a big hospital
spend my days checking invoices for a shipping firm
I work nights as a security guard at a car park
I sell phones at a mall kiosk
"""

_FAMILY_EN = """\
my family has a dairy farm and I help with milking before school
our family owns a corner shop, I'm behind the counter most weekends
I care for my dad, he has dementia
my grandma lives with us and I help look after her
my parents run a b&b and I do the breakfasts in summer
i help my brother at his garage on saturdays
I babysit my sister's twins every friday
my mum has a market stall and I help set up on sundays
my family keeps bees, I help with the honey in the autumn
I pick up my nephew from school every day
"""

_OWN_ZH = """\
我开的是一辆十几年的老捷达，还挺皮实
家里有两辆车，我平时骑电驴上班
我有一台二手钢琴，放在客厅吃灰
我们家在老家有个小院子
我没车，出门全靠地铁和共享单车
我有辆摩托，天气好就骑
我家有个小阳台种了好多辣椒
我们在郊区有套小房子，周末偶尔过去
我手上有台用了五年的笔记本，卡得要命但还能用
家里有台老缝纫机是我外婆留下的
"""

_HOME_ZH = """\
我跟两个同事合租一套三居室
我和老公住在单位分的老房子里
我现在住我姐家，她家离公司近
我一个人住在城中村的一个单间里
我跟爸妈住一起，还没搬出去
我和女朋友租了个一室一厅，在六楼，没电梯
我住学校宿舍，六个人一间
我们一家五口挤在一个两居室里
我住在江边的一个老小区，房子有点旧
我跟室友住，她养了只猫
"""

_WORK_ZH = """\
我在超市上夜班，理货
我是跑外卖的，干了两年了
我在一家工厂做质检
我是做会计的，天天对账
我在医院药房发药
我在驾校当教练
我在一家小公司做前台，兼管行政
我是开出租的
我在信用社窗口办业务，朝九晚五
我给几家小店做设计，接私活为主
我在托儿所照看小朋友，上早班
我在物业公司管收费
我是搞装修的，主要贴瓷砖
我在培训机构教小孩画画，兼职
"""

_FAMILY_ZH = """\
我家开了个小饭馆，周末我去帮忙端菜
我家在乡下种果树，农忙的时候我回去帮忙
我每天下班去照顾我奶奶，她腿脚不好
我爸开了个修车铺，我有空就去搭把手
我姐的孩子平时是我帮着带
我家养了一池塘的鱼，我偶尔帮着喂
我爸妈开小卖部，我放假就看店
我每周末回去陪我外公，他一个人住
"""

_PROJECT_EN = """\
I'm building a shed at the bottom of the garden, walls are up
currently restoring an old rowing boat, sanding forever
writing a murder mystery, chapter six out of maybe twenty
I'm making a quilt for my niece's wedding
coding a little app to track my plants' watering
putting together a photo book of our trip, halfway done
redoing the kitchen tiles myself, send patience
I'm knitting a blanket for the new baby
recording an EP in my bedroom with a cheap mic
my brother and I are doing up an old motorbike together
I'm turning the spare room into a tiny gym, painting it this week
designing a board game with my mates, we playtest on fridays
"""

_PROJECT_ZH = """\
我在自己装修厨房，正在贴砖
最近在写一本悬疑小说，写到第五章了
我在给我女儿织一件毛衣，快织完了
我在做一个记录喝水的小程序，还没上线
我正在把阳台改成小书房
我跟朋友在录一张小专辑
我在翻新一辆老自行车，零件都换得差不多了
我在给家里做一本相册，把这些年的照片整理出来
我和我爸在院子里搭一个鸡窝
我在学着自己做一个木头书架，已经刨好板子了
"""

ROWS: tuple[tuple[str, str, str], ...] = tuple(
    (line.strip(), kind, family)
    for block, kind, family in (
        (_OWN_EN, F, "own"), (_HOME_EN, F, "home"), (_WORK_EN, F, "work"), (_FAMILY_EN, F, "family"),
        (_OWN_ZH, F, "own"), (_HOME_ZH, F, "home"), (_WORK_ZH, F, "work"), (_FAMILY_ZH, F, "family"),
        (_PROJECT_EN, J, "project"), (_PROJECT_ZH, J, "project"),
    )
    for line in block.splitlines() if line.strip()
)


def rows() -> list[dict[str, object]]:
    """The rows as corpus rows (before ``derive_fields``)."""
    return [{"text": text, "keep": True, "type": kind, "family": "ptype40_" + family, "relation": None,
             "source": "hand"} for text, kind, family in ROWS]


def check(paths: list[Path]) -> list[str]:
    """Rows whose flattened text (8+ characters) occurs inside a case file's flattened text (copies)."""
    return copies((text for text, _, _ in ROWS), paths, min_chars=8)


def main(argv: list[str] | None = None) -> int:
    return rows_command(argv, __doc__.splitlines()[0], rows, "ptype40_", CORPUS, check)


if __name__ == "__main__":
    sys.exit(main())
