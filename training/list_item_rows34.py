"""Written rows for the list-item head and the list fragment model (issue 24, session 19, helper multi34).

A self-introduction told as a list ("night nurse, leeds. two teens. vegan-ish. bad knee.") has items that
stand alone: a job with a place, a bare city, a count of children, a condition, a diet, "X by day, Y by
night". Ordinary prose split at its commas has clauses that are just as short but are not items: the objects
of a verb listed after it ("I like singing, dancing, working out" -> "dancing"), an adverbial or a reply
word ("with my friends", "然后", "是的"), a Chinese prose clause ("比如下棋、钓鱼什么的", "感觉还不错"), a
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

import sys
from pathlib import Path

from training.hand_rows import check_command, copies

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
a side of pickled cabbage
a bit of fruit
the villain mostly
especially the twist
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
hey assistant
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
没错
再说
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
看了一部露营
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
hiya mate
hello pal
dear AI
dear bot
my chat buddy
good evening
hiya
yo
bowling
archery
karaoke
snorkeling
sketching
table tennis
crosswords
pottery
gardening
yoga
jogging
fishing
camping
knitting
art galleries
flea markets
rivers and forests
dumplings
lentil soup
a few carrots
tofu and mushrooms
olive oil
cumin and paprika
old coins
vinyl records
the fabric
the brand
how much it costs
the plot
the acting
the soundtrack
jazz and blues
classical music
action movies
all sorts really
loads of stuff
every kind
and more
plus a few others
what about yourself
got any favourites
ever tried it
any tips
thoughts?
tell me what you reckon
it was super chill
we laughed a lot
the sunset was gorgeous
it's been a busy week
and i learned a lot
so i'm a bit nervous
i'm feeling much better now
你好
小助手你好
嗨
哈喽呀
嗨，伙计
晚上好
下棋
书法
钓鱼
电影
插花
打乒乓球
写毛笔字
拉二胡
葱姜蒜
花椒和辣椒
湖边和草地
古镇
红烧肉
饺子馄饨之类
面料和版型
配乐和画面
你呢
你平时玩什么
你觉得怎么样
一直想试试
就是没时间
搞定了
感觉很放松
玩得很开心
首先要想清楚
其次是坚持
最后就是心态
我觉得吧
说起来有点好笑
当时特别紧张
后来就习惯了
一路上风景很好
路上堵了半天
走着走着就到了
大家都很热情
老板人挺好的
味道有点咸
分量也足
我们聊了很久
他说下次再来
结果还是迟到了
反正也没事干
顺便买了点水果
回来就睡了
感觉收获很大
学到了不少东西
挺有成就感的
说不上来为什么
可能是太累了吧
也许明天会好点
希望一切顺利
不知道你怎么看
你能给我点建议吗
有没有好的办法
谢谢你的鼓励
我会试试的
听起来不错
真的假的
太好玩了
就是有点远
在书里
尤其是第二部分
作者写得很细腻
人物很丰满
first we grabbed coffee
then it started pouring
after that we went home
the queue was massive
my feet were killing me
the guide was really funny
we got a bit lost
it took ages to find parking
honestly it was worth it
i'm not sure why
maybe next time
hopefully it gets better
long story short
on top of that
to make things worse
believe it or not
at the end of the day
in other words""".splitlines()


_TYPES = {"P": P, "F": F, "G": G, "J": J, "C": C}


def items() -> list[tuple[str, str]]:
    """(text, type) of every item written here."""
    out = []
    for line in _ITEMS:
        kind, text = line.split("|", 1)
        out.append((text, _TYPES[kind]))
    return out


def prose() -> list[str]:
    return [line for line in _PROSE if line.strip()]


def check(paths: list[Path]) -> list[str]:
    """Rows whose flattened text (8+ characters) occurs inside a case file's flattened text (copies)."""
    return copies([t for t, _ in items()] + prose(), paths, min_chars=8)


def main(argv: list[str] | None = None) -> int:
    return check_command(argv, __doc__.splitlines()[0], check)


if __name__ == "__main__":
    sys.exit(main())
