"""Written rows for the list-item head and the list fragment model (issue 24, session 19, helper multi34).

A self-introduction told as a list ("night nurse, leeds. two teens. vegan-ish. bad knee.") has items that
stand alone: a job with a place, a bare city, a count of children, a condition, a diet, "X by day, Y by
night". Ordinary prose split at its commas has clauses that are just as short but are not items: the objects
of a verb listed after it ("I like singing, dancing, working out" -> "dancing"), an adverbial or a reply
word ("with my friends", "然后", "是的"), a Chinese prose clause ("比如画画、唱歌等", "感觉还不错"), a
sentence of the day ("today I went to the mall"). The list-item head (``training/train_list_item.py``) is
trained on the items of ``utterance_rows_list32`` and the items below (label 1) against the clauses below
(label 0); the list fragment model (``training/train_list_fragment.py``) reads the items of a list with
their type.

Every line was written for this module, in many voices (English, Chinese, mixed; lowercase, typos, emoji,
brackets); none was copied, translated or paraphrased from an evaluation set (the bench case files, the
shared dev cases, the public benchmarks): ``python -m training.list_item_rows34 --check FILES`` looks for
copies.
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from pathlib import Path

P, F, G, J, C = "preference", "fact", "goal", "project", "constraint"

# items of a self-introduction, with their type (the list32 items are the other half)
_ITEMS = """\
F|forklift driver at a warehouse
F|trainee accountant, big four
F|retired postman
F|carpenter, mostly kitchens
F|receptionist at a dental clinic
F|night porter at a hotel
F|pastry chef (self taught)
F|HR at a car parts company
F|ambulance dispatcher
F|sound engineer, live gigs mainly
F|wildlife ranger up north
F|teaching assistant, year 2
F|crane operator at the docks
F|cleaner by day, uni student by night
F|tattoo artist
F|jr. analyst at an insurer
F|pilot (regional airline)
F|based in cardiff
F|from lagos originally, in manchester now
F|toronto
F|small town outside of lyon
F|rural wales
F|living on a narrowboat
F|flat in east london, tiny
F|27 y/o
F|mid forties
F|just turned 60
F|married 12 yrs
F|divorced, two kids every other weekend
F|single dad of a 9 yo
F|3 cats and a very old dog
F|one grandson, another on the way
F|newly engaged 💍
F|twins, age 4
F|lactose intolerant
F|coeliac
F|type 1 diabetic since childhood
F|asthma (mild)
F|dyslexic
F|hard of hearing in one ear
F|recovering from a knee op
F|colour blind lol
F|vegetarian for 10+ years
F|no car, bike everywhere
F|left-handed
P|massive football fan, arsenal sadly
P|coffee, black, no sugar
P|not a fan of crowds
P|loves a good thriller
P|cold water swimmer
P|chess nerd
P|mostly listen to metal
P|amateur astronomer
P|baking every sunday
P|gardener, veg patch mainly
P|early bird
P|prefer trains to planes
G|saving up for a motorbike
G|learning korean
G|aiming to run a sub-4 marathon
G|want to adopt a dog next year
G|trying to get fitter
J|writing a cookbook of my gran's recipes
J|doing up a 1980s caravan
J|building a boat in the garage
J|renovating the attic into a studio
C|no jargon please
C|plain english only
F|程序员，在深圳
F|护士，三班倒
F|坐标杭州
F|老家东北，现在在广州
F|三十出头
F|已婚，一个闺女
F|两只猫一只狗
F|乳糖不耐
F|高度近视
F|二胎妈妈
F|体制内，公务员
F|自由职业，做设计
F|外卖骑手
F|退休教师
F|研二，学化工
P|资深吃货
P|篮球迷
P|喜欢安静
P|猫奴一枚
P|不爱吃甜的
G|在考驾照
G|想去日本留学
J|在写一本网络小说
J|在装修老房子
F|UI设计师 in Shanghai
F|在Berlin读书
F|full-stack dev，远程办公
P|coffee党，不喝奶茶
G|准备考 CPA""".splitlines()

# short clauses that are not items of a self-introduction: the objects of a verb listed after it, adverbials,
# reply and filler words, clauses of a story of the day, questions to the assistant, Chinese prose clauses
_PROSE = """\
dancing
working out
reading novels
singing
and cooking
swimming too
playing the piano
watching movies
some light vegetables
a bit of fruit
the main character
especially the ending
with my friends
in the park
after dinner
at the weekend
for a while
and so on
etc
and stuff like that
or something
all of that
maybe both
to be honest
yes
no not really
of course
i think so
it was fun
then we had dinner
we walked for an hour
today I went to the mall
i bought a new jacket
it rained all afternoon
my mom called me
she was really happy
the food was amazing
but it's okay
it made me laugh
i felt a bit tired
what do you think
can you give me some advice
how should i do it
thank you so much
that sounds great
good morning
hi AI companion
i watched a film yesterday
we played cards
it was a long day
the traffic was terrible
so i stayed home
and then i slept
because it was late
which was nice
not bad overall
and the music too
like the last time
especially in summer
when i was a kid
like hiking and camping
mostly pop songs
romance and comedy
rice and some soup
chicken with rice
the second half
with a cup of tea
during the holiday
on the way home
before bed
in the morning
是的
另外
然后
还有
嗯
对
好吧
比如画画、唱歌等
感觉还不错
今天天气很好
我觉得挺有意思的
你觉得呢
不过还好
因为下雨了
所以就没去
然后我们去吃饭了
吃了火锅
看了一部电影
跟朋友一起
在公园里
晚饭以后
特别是结尾
主角很勇敢
心情不错
有点累
挺开心的
也还行吧
就是有点贵
你有什么建议
我该怎么办
谢谢你
早上好
今天去逛街了
买了一件衣服
和妈妈打了电话
下午下了一场雨
晚上早点睡
比如跑步、游泳
还有看书
听听音乐
做做饭
周末的时候
小时候
那时候
说实话
总的来说
其实也没什么
hi
hello
hey there
hi friend
hello, friend
dear AI
my AI buddy
AI companion
good evening
hiya
yo
basketball
photography
traveling
hiking
skiing
rock climbing
chess
painting
gardening
yoga
jogging
fishing
camping
knitting
museums
beaches
mountains and lakes
pizza
noodles
fresh vegetables
chicken and beef
soy sauce
garlic and ginger
old furniture
vintage clothes
comfort and fit
colour and design
the price
the plot
the acting
the soundtrack
pop and rock
classical music
action movies
a variety of them
lots of things
many different kinds
and more
plus a few others
and how about you
do you have any hobbies
have you heard of it
do you like it
any suggestions
i'd love to hear your thoughts
it was really relaxing
we laughed a lot
the view was stunning
it's been a busy week
and i learned a lot
so i'm a bit nervous
i'm feeling much better now
你好
你好，朋友
嗨
亲爱的AI
AI伙伴
晚上好
唱歌跳舞
健身
旅游
电影
摄影
绘画
读诗
弹吉他
醋、糖、酱油
姜和蒜
山脉和河流
雪山
酸辣土豆丝
宫保鸡丁等等
价格和质量
剧情和演员
你呢
你有什么爱好吗
你觉得怎么样
我很想去
但是有点怕
大功告成
感觉很放松
玩得很开心""".splitlines()


def items() -> list[tuple[str, str]]:
    """(text, type) of every item written here."""
    out = []
    for line in _ITEMS:
        kind, text = line.split("|", 1)
        out.append((text, kind))
    return out


def prose() -> list[str]:
    return [line for line in _PROSE if line.strip()]


def _flat(text: str) -> str:
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text).lower())


def check(paths: list[Path]) -> list[str]:
    """Rows whose flattened text (8+ characters) occurs inside a case file's flattened text (copies)."""
    blob = "".join(_flat(p.read_text(encoding="utf-8")) for p in paths)
    texts = [t for t, _ in items()] + prose()
    return [text for text in texts if len(_flat(text)) >= 8 and _flat(text) in blob]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", nargs="+", type=Path, required=True, help="case files to check for copies")
    args = parser.parse_args(argv)
    copies = check(args.check)
    print("\n".join(copies) or "no copies")
    return 1 if copies else 0


if __name__ == "__main__":
    sys.exit(main())
