"""Hand-written chat lines for the lasting-statement head (issue 24, session 22, helper miss41).

The family the memory classifier reads under its rescue bar (``gate_units.RESCUE_KEEP``): a
lasting statement of the user's own life told in chat words, with no word a rule fires on -- the
new value after a switch said without the old one ("on a fairphone these days", "改用飞书了"), the
tool, device, plan or service the user is on now, work said as what the user does all day, a
body's standing limit or fear said casually ("dairy and me don't get along"), an activity of these
months, a hedged or habitual taste ("tea over coffee for me, pretty much always", "奶茶我一般都点少冰").
Beside them, the other side in the same register and often the same words: the day's news, a
switch for today only, a purchase being weighed, a reaction, a mood, someone else's life, a
question or a request of the moment.

Every line is written in its own voice (English, Chinese, some mixed; lowercase, slang, emoji), not a frame
crossed with values. No line was copied, translated or paraphrased from an evaluation set (the bench case
files, the shared dev cases, the public benchmarks); ``python -m training.lasting_rows_miss41 --check FILES``
checks for copies. Read by ``training/train_lasting.py`` (label 1: lasting and the user's own; 0: not), with
the chat lines of ``utterance_rows_chat29.py`` and ``utterance_rows_ptype40.py``; never appended to the
memory classifier's corpus.
"""

from __future__ import annotations

import sys
from pathlib import Path

from training.hand_rows import check_command, copies

_SWITCH_EN = """\
on a fairphone these days, battery's meh but i like the idea
moved my notes over to logseq a while back and never looked back
i'm a firefox person again since the spring
ditched spotify, it's tidal for me now
we're with a smaller broadband company now, way cheaper
gave up the gym membership, i just run outside now
swapped my kindle for a kobo last year
doing my banking with a neobank now, the old one was a nightmare
back on oat milk after a month of soy
my daily driver is an old thinkpad with linux on it now
i take the tram to work these days instead of driving
we got rid of cable, just a couple of streaming apps now
finally on a standing desk, my back thanks me
"""

_SWITCH_ZH = """\
改用飞书了，钉钉实在受不了
现在出门都骑电驴，不开车了
手机卡转到广电了，便宜好多
早餐改成燕麦粥了，坚持快一个月
换了个机械表，天天戴着
我现在记账都用鲨鱼记账
最近改喝美式了，拿铁太腻
跑步机卖了，改成每天快走
家里宽带换成电信的了
现在用的是折叠屏，刚开始有点不习惯
搬到新的工位了，靠窗那个，以后都坐这儿
"""

_SWITCH_MIXED = """\
最近都用 notion 记东西了
现在主力机是 macbook air，公司那台基本不碰
换成 kindle 看书了，纸书太占地方
改用 vscode 写代码了 vim 配置太累
"""

_TOOL_EN = """\
my go-to bag is a beat-up canvas backpack
i do all my drawing on an ipad with procreate
i keep everything in google keep, it's a mess but it works
our car is a secondhand prius
i shoot on a little fuji, no phone photos if i can help it
i'm on the cheapest mobile plan there is, 5gb a month
i use a paper planner, apps never stick for me
i cook on a cast iron pan for pretty much everything
"""

_TOOL_ZH = """\
我的手机是一台用了四年的华为
平时拍照都用一台老的富士微单
我家那辆车是二手的本田飞度
做饭基本就靠一口铸铁锅
我用的输入法是搜狗的，别的用不惯
我们家用的是扫地机器人，懒得拖地
"""

_JOB_EN = """\
i spend my days fixing hvac units in office towers
i'm the one who answers the phones at a vet clinic
i teach spin classes for a living, mornings mostly
i do payroll for a chain of dental offices
night shifts stacking shelves at a supermarket, that's my job
i write grant applications for a small charity
i drive a delivery van around the city all day
i'm a dental hygienist, so yes i judge everyone's teeth
i look after the servers at a university
"""

_JOB_ZH = """\
我在一个快递分拣中心管排班
我是幼儿园的保育员
我在医院做护工，三班倒
我是跑外卖的，一天跑四五十单
我是银行的大堂经理，天天站着
我在一家健身房当私教
我是做审计的，年底特别忙
我在小学教数学
"""

_BODY_EN = """\
dairy and me don't get along, never have
i'm scared of deep water, can't swim well
i get migraines if i skip meals
heights make my legs go weak, always been like that
i'm colorblind, red and green look the same to me
peanuts are a no for me, allergic since i was a kid
bad knees, so no running for me
i'm a super light sleeper, any noise wakes me up
"""

_BODY_ZH = """\
我乳糖不耐，喝牛奶就拉肚子
我有点恐高，玻璃栈道打死不去
我对尘螨过敏，换季就打喷嚏
我有颈椎病，久坐就疼
我晕车很厉害，长途都坐高铁
我是色弱，红绿分不太清
我胃不好，辣的吃不了
"""

_ONGOING_EN = """\
been doing pilates twice a week since summer
i've been learning to bake sourdough for a few months now
lately i'm really into bouldering at the indoor gym
i'm slowly painting every room in the flat, two done
been teaching myself korean on duolingo, day 200 something
i've been volunteering at the food bank on saturdays this year
still chipping away at my novel, chapter nine now
been growing chillies on the balcony this season
"""

_ONGOING_ZH = """\
这半年一直在练尤克里里
最近迷上了骑公路车，每周末都骑
我在慢慢装修老家的房子
最近在学做面包，已经能做欧包了
这几个月一直在跑步，一周三次
我在自学日语，准备考N3
一直在给女儿织毛衣，快织完了
最近开始每天练字，楷书
"""

_HEDGED_EN = """\
tea over coffee for me, pretty much always has been
horror podcasts are my guilty pleasure, don't judge
not gonna lie, i'm into cheesy rom-coms
i think i prefer the window seat, usually
i mostly pick the veggie option when there is one
i'm more of a mountains than beach person i think
i always end up ordering the pad thai
honestly i'm a sucker for crime documentaries
i usually go for dark roast
"""

_HEDGED_ZH = """\
我好像还是更喜欢看纸质书
运动鞋是我的日常，一年四季都是它
有线耳机用惯了，蓝牙的老断
奶茶我一般都点少冰三分糖
我其实挺喜欢听相声的
我好像比较喜欢安静的咖啡馆
吃火锅我一般都点番茄锅底
我还是习惯早上洗澡
我一直都是用左手拿筷子
"""

_DAY_EN = """\
switched to decaf tonight since it's late
tried a fairphone at the store today, kinda clunky
got a flat tire on the way in this morning
the gym was packed so i just went home
ordered pad thai for lunch, it was ok
my laptop froze during the meeting lol
took the tram today cos the car's in the shop
had a migraine all afternoon ugh
we watched a scary movie last night
skipped breakfast today, running late
"""

_DAY_ZH = """\
今天的地铁挤死了
中午点了个麻辣烫
今天加班到九点
刚刚手机摔了一下，还好没碎
今天去试驾了一下，还没决定
早上没赶上公交，打车来的
昨天熬夜看剧了
今天在食堂吃的
"""

_WEIGH_EN = """\
thinking about maybe getting a kobo, not sure yet
should i switch to oat milk?
might try pilates at some point, who knows
my coworker just switched to linux
my sister is a dental hygienist and she loves it
wow that's a nice bike
haha fair enough
idk, still deciding between the two phones
"""

_WEIGH_ZH = """\
在纠结要不要换手机
要不要试试飞书？
我同事在学日语，天天念叨
我姐是做审计的，天天加班
哈哈哈好吧
这个包挺好看的
还没想好买哪个
"""

_CHAT_EN = """\
that show was way better than i expected tbh
i think people worry too much about money
ok i'll try going to bed earlier then
the weather's been so gloomy all week
i feel kinda drained after all the meetings
gonna grab some noodles after this
that's a really good point, never thought of it that way
my boss finally approved the budget, what a relief
we're going to the coast for the long weekend
i cleaned the whole kitchen this afternoon
the new season of that anime drops friday, hyped
i guess it's fine, whatever
"""

_CHAT_ZH = """\
这部电影比我想象的好看多了
我觉得现在的年轻人压力都挺大的
好的，那我今晚早点睡
这几天一直下雨，好烦
开了一天会，累死了
等会儿去楼下吃碗面
你说得有道理，我之前没想到
老板终于批了预算，松了口气
这周末打算去海边玩两天
下午把厨房彻底打扫了一遍
周五新番更新，好期待
算了，无所谓了
"""

# (block, label, group)
BLOCKS: tuple[tuple[str, int, str], ...] = (
    (_SWITCH_EN, 1, "switch_en"), (_SWITCH_ZH, 1, "switch_zh"), (_SWITCH_MIXED, 1, "switch_mixed"),
    (_TOOL_EN, 1, "tool_en"), (_TOOL_ZH, 1, "tool_zh"), (_JOB_EN, 1, "job_en"), (_JOB_ZH, 1, "job_zh"),
    (_BODY_EN, 1, "body_en"), (_BODY_ZH, 1, "body_zh"), (_ONGOING_EN, 1, "ongoing_en"),
    (_ONGOING_ZH, 1, "ongoing_zh"), (_HEDGED_EN, 1, "hedged_en"), (_HEDGED_ZH, 1, "hedged_zh"),
    (_DAY_EN, 0, "day_en"), (_DAY_ZH, 0, "day_zh"), (_WEIGH_EN, 0, "weigh_en"), (_WEIGH_ZH, 0, "weigh_zh"),
    (_CHAT_EN, 0, "chat_en"), (_CHAT_ZH, 0, "chat_zh"),
)


def rows() -> list[dict[str, object]]:
    """The lines as the trainer's rows: ``text``, ``label`` (1 lasting and the user's own), ``group``."""
    return [{"text": line.strip(), "label": label, "group": "miss41_" + group}
            for block, label, group in BLOCKS for line in block.splitlines() if line.strip()]


def check(paths: list[Path]) -> list[str]:
    """Lines whose flattened text (8+ characters) occurs inside a case file's flattened text (copies)."""
    return copies((str(r["text"]) for r in rows()), paths, min_chars=8)


def main(argv: list[str] | None = None) -> int:
    return check_command(argv, __doc__.splitlines()[0], check)


if __name__ == "__main__":
    sys.exit(main())
