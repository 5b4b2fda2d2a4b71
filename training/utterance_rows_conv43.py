"""Hand-written chat rows for the writers' type conventions (issue 24, session 24, helper cls43).

Session 23 (type42, ``bench/RESULTS.md``) moved the product's types to what the case writers of many sets
agree on; the memory classifier's corpus had few rows of those families in chat words, so its type head
(read by the gate, the rescue and the update judge) kept the old reading. Four families, each with its
counterweight on the other side of the boundary:

- ``diet``: a diet the user chose, told in chat ("went plant-based a while ago", "我现在基本吃素"):
  preference; beside it a diet of faith or health ("no pork, I'm muslim", "乳糖不耐受，不能喝牛奶"): fact;
- ``device``: the phone, laptop, tablet or reader the user has or switched to ("on a pixel 7 these days",
  "我手机是荣耀的"): fact; beside it software, apps and tools the user likes to use: preference;
- ``instrument``: an instrument the user plays or is learning, no intent, no date ("been noodling on the
  ukulele lately", "最近在练二胡"): preference; beside it the same with a target or a date: goal; a music
  teacher: fact;
- ``job``: work told as what one does all day ("I do payroll for a dental chain", "我在一家冷链公司排班调度"):
  fact; beside it a thing being made, with an end (a project).

Every row is written in its own voice (English, Chinese, a few mixed; lowercase, asides), not a frame
crossed with slot values. No row was copied, translated or paraphrased from an evaluation set;
``python -m training.utterance_rows_conv43 --check FILES`` checks for copies. ``--append`` adds the rows
the corpus lacks (source ``hand``, family ``conv43_*``), then ``python -m training.train_memory_classifier
--normalise-corpus`` and retrain (training/README.md); ``--remove`` takes them out again.
"""

from __future__ import annotations

import sys
from pathlib import Path

from training.hand_rows import copies, rows_command
from training.train_memory_classifier import CORPUS

P, F, G, J = "preference", "fact", "goal", "project"

_DIET_EN = """\
went plant-based a while ago and honestly don't miss meat
i'm pescatarian, fish is fine but no chicken or beef
been vegan about three years now
mostly vegetarian these days, the occasional egg
i eat keto, so bread is out for me
yeah i'm a veggie, have been since uni
I don't eat meat, just never liked it much
I'm vegetarian, so lentils are basically my whole personality
vegan household over here, me at least
i do low carb, keeps me sane
I stopped eating red meat, it's just fish and veg for me now
i'm the vegetarian of the family lol
"""

_DIET_ZH = """\
我现在基本吃素，偶尔吃个鸡蛋
我吃素好几年了，习惯了
我是纯素，蛋奶都不碰
最近在吃生酮，米饭面条都不吃
我不吃肉，只吃鱼和蔬菜
我是个素食主义者哈哈
这两年我一直低碳水
我平时吃素比较多，肉很少吃
"""

_DIET_FACT = """\
no pork for me, I'm muslim
i'm celiac so gluten is a hard no
lactose intolerant, milk wrecks my stomach
doctor put me on a low sodium diet after the heart thing
我是回民，不吃猪肉
我乳糖不耐受，牛奶喝了就难受
我对花生过敏，一点都不能碰
医生让我控糖，甜的基本不能吃
i can't have beef, we're hindu
i keep kosher so no shellfish or mixing meat and dairy
no alcohol for me, it's against my religion
i can't do dairy at all, my stomach just refuses
gluten makes me really sick, i have to avoid it
i'm allergic to tree nuts, even a trace sets me off
i'm diabetic so i watch the sugar carefully
we don't eat pork at home for religious reasons
因为信仰的关系我不吃牛肉
我有痛风，海鲜和啤酒都得忌口
我吃清真，外面的馆子要挑
我是佛教徒，初一十五吃素
医生说我胆固醇高，肥肉不让吃了
"""

_DEVICE_EN = """\
i'm on a pixel 7 these days
my phone's an old iphone 11, battery's dying
work gave me a thinkpad, that's my main machine
I have a macbook air from 2020
got a galaxy s23 last winter
switched to a oneplus after my iphone died
my laptop is a chromebook, nothing fancy
I read everything on my kindle paperwhite
using an ipad mini for notes at school
my phone is a cheap android, a redmi
just moved from a samsung to an iphone 15
I've got a dell xps at home and a mac at work
"""

_DEVICE_ZH = """\
我手机是荣耀的，用了三年了
我现在用的是小米13
我电脑是一台联想拯救者
刚换了华为 mate 60
我平时用 iPad 记笔记
我的笔记本是 MacBook Pro
我手机用的是 iPhone 13，还没换
我家里有台 kindle，睡前看书用
换了个 vivo 的手机，拍照还行
我用的是一台二手 ThinkPad
"""

_TOOL_PREF = """\
obsidian is my go-to for notes, can't live without it
i like vscode way more than any other editor
spotify over apple music for me, every time
i prefer dark mode on everything
I'm a firefox person, chrome feels heavy
我写东西喜欢用 Notion
我比较喜欢用飞书，钉钉用不惯
我更习惯用 vim 写代码
"""

_INSTRUMENT_EN = """\
been noodling on the ukulele lately
I play bass in my spare time, just for fun
i've been learning the cello on weekends
I play a bit of piano when nobody's home
I'm learning to play the drums, my neighbours hate me
i strum the guitar most evenings
I play the harmonica, badly but happily
picked up the violin again after work, it's relaxing
i'm teaching myself the banjo from youtube videos
I mess around on the keyboard most nights
"""

_INSTRUMENT_ZH = """\
最近在练二胡，挺上头的
我会弹一点吉他，自娱自乐
我在学大提琴，周末去上课
我平时没事就弹弹钢琴
我最近迷上了架子鼓
下班回家我会拉会儿小提琴放松一下
我在自学尤克里里
我偶尔吹吹口琴
我在学古筝，纯属爱好
"""

_INSTRUMENT_GOAL = """\
I want to pass grade 5 piano by next summer
my goal this year is to play a full song on guitar at my sister's wedding
hoping to join a community orchestra with my cello next year
我打算年底前把钢琴考到六级
我想明年去参加吉他比赛
今年的目标是把小提琴练到能上台演出
"""

_MUSIC_JOB = """\
I teach guitar lessons for a living
i'm a session drummer, that's my job
我是教钢琴的老师，学生大多是小孩
我在琴行教吉他，这是我的工作
"""

_JOB_EN = """\
I do payroll for a chain of dental clinics
i drive a delivery van for a bakery, early mornings
I'm doing night shifts at a hospital pharmacy now
I handle customer support for a bike shop online
mostly these days i'm fixing boilers for a heating company
I teach maths at a secondary school
i coach swimming at the local pool, that's my job
I'm doing backend work at a fintech startup
I cook on the line at a noodle bar, evenings mostly
i do the books for my uncle's garage
I run the front desk at a hotel
I tutor kids in english after school, it pays the rent
i'm a data analyst at an insurance firm
I manage a small team at a call centre
freelance translator, japanese to english mostly
"""

_JOB_ZH = """\
我在一家冷链公司排班调度
我在银行做风控
我在一家游戏公司做美术
我现在在医院做药剂师
我在便利店做收银，三班倒
我是做室内设计的
我在一家外企做财务
我在学校教初中数学
我在一家咖啡店当店长
我在快递站做分拣，天天很累
我在互联网公司做产品经理
我在一家律所当助理
我在 bytedance 做推荐算法
我在工厂做质检员
我现在做自由撰稿人
"""

_PROJECT = """\
I'm building a treehouse for my kids, halfway done
working on a mobile app that tracks my plants, beta next month
i'm writing a cookbook of my grandma's recipes
restoring an old vespa in the garage, almost there
I'm making a quilt out of my old t-shirts
我在给自己做一个记账小程序，还差支付功能
我正在写一部网络小说，已经写了二十章
我在改造家里的阳台，准备做成小花园
我和朋友在拍一部短片，下个月剪完
我在给女儿做一个木头娃娃屋
"""

ROWS: tuple[tuple[str, str, str], ...] = tuple(
    (line.strip(), kind, family)
    for block, kind, family in (
        (_DIET_EN, P, "diet"), (_DIET_ZH, P, "diet"), (_DIET_FACT, F, "diet_grounded"),
        (_DEVICE_EN, F, "device"), (_DEVICE_ZH, F, "device"), (_TOOL_PREF, P, "tool"),
        (_INSTRUMENT_EN, P, "instrument"), (_INSTRUMENT_ZH, P, "instrument"),
        (_INSTRUMENT_GOAL, G, "instrument_goal"), (_MUSIC_JOB, F, "music_job"),
        (_JOB_EN, F, "job"), (_JOB_ZH, F, "job"), (_PROJECT, J, "project"),
    )
    for line in block.splitlines() if line.strip()
)


def rows() -> list[dict[str, object]]:
    """The rows as corpus rows (before ``derive_fields``)."""
    return [{"text": text, "keep": True, "type": kind, "family": "conv43_" + family, "relation": None,
             "source": "hand"} for text, kind, family in ROWS]


def check(paths: list[Path]) -> list[str]:
    """Rows whose flattened text (8+ characters) occurs inside a case file's flattened text (copies)."""
    return copies((text for text, _, _ in ROWS), paths, min_chars=8)


def main(argv: list[str] | None = None) -> int:
    return rows_command(argv, __doc__.splitlines()[0], rows, "conv43_", CORPUS, check)


if __name__ == "__main__":
    sys.exit(main())
