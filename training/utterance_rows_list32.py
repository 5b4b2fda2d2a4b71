"""Hand-written verbless list items for the memory classifier (issue 24, session 18, helper multi32).

A self-introduction is often a list of noun phrases with no verb and often no "I": a job with a place,
a bare city, a count of children or pets, a condition in brackets, "X by day, Y by night", an age, a diet
label; in Chinese "坐标成都", "两个娃", "程序员一枚". The classifier read such items as drops (it learned keep
from sentences with a subject and a verb). Every row here is one such item written on its own, in many
voices (English, Chinese, mixed; lowercase, typos, emoji, brackets), labelled with its type; the drops are
the list's other items: leads and sign-offs ("quick intro:", "that's about it", "就这些"), moods and
states of the day ("knackered today", "刚下班"), and requests to the assistant.

The gate reads a list item either as written or with the user as its subject
(``gate_units.with_user_subject``: "i'm …", "我…"), so each item is a row in both readings (``rows``).

No item was copied, translated or paraphrased from an evaluation set (the bench case files, the shared dev
cases, the public benchmarks); ``python -m training.utterance_rows_list32 --check FILES`` checks for copies.
``--append`` adds the rows the corpus lacks (source ``hand``, family ``list32_*``), then run
``python -m training.train_memory_classifier --normalise-corpus`` and retrain (training/README.md);
``--remove`` takes them out again.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from training.hand_rows import copies, rows_command
from training.train_memory_classifier import CORPUS

P, F, G, J, C = "preference", "fact", "goal", "project", "constraint"
D = None  # drop

_JOBS = """\
dental nurse near sheffield
welder, mostly offshore rigs
Product manager @ a fintech startup
high school PE teacher
paramedic (12 yrs now)
freelance translator, spanish <> english
junior dev at a logistics company
retired train conductor
civil servant, tax office
barista by day, DJ by night 🎧
nurse on a stroke unit
phd student (marine biology)
sous chef at a hotel kitchen
truck driver, long haul
primary school teacher in a small village
self-employed plumber
data analyst, remote
uni student, 2nd year law
stay-at-home papa of two
vet nurse
bus driver for the city council
graphic designer, freelance mostly
accounts clerk at a car dealership
electrician apprentice
locksmith by trade
ux writer at an agency
social worker (child protection)
night-shift security guard
hairdresser, own little salon
airline cabin crew
software engineer at a bank
lab tech in a hospital
piercer at a tattoo studio
part-time librarian
estate agent, sadly lol
mechanical engineer in the car industry
pharmacy assistant
care worker, elderly home
yoga instructor on weekends, office job on weekdays
math tutor
bookkeeper for a few small businesses
chiropractor, own practice
baker, up at 4am every day
real estate lawyer
ER doc
bartender, mostly weekends
teacher by day, gamer by night
coder by day, drummer by night
full-time mum, part-time florist
ex-military, now in logistics
grad student, economics""".splitlines()

_JOBS_ZH = """\
在杭州一家外企做HR
程序员一枚
中学语文老师
医院的护士，三班倒
在银行上班
自由职业，做设计的
大二学生，学法律的
退休教师
在工地当电工
外卖骑手
幼儿园老师
做销售的，天天跑客户
公务员
牙医
研究生在读，学化学
在一家小公司做会计
开了个小面馆
全职妈妈
健身教练
互联网大厂打工人
在4S店做维修
快递员
产品经理，做App的
自己开网店卖茶叶
data analyst，在上海""".splitlines()

_PLACES = """\
based in Lisbon
Melbourne native
originally from a small town in Ohio, now in Denver
from Nairobi, living in London
leeds born and bred
living in Osaka for 3 yrs
currently in Toronto
Berlin, kreuzberg area
Auckland, NZ
small town outside Kraków
rural Iowa
Vancouver, moved here last spring
Kuala Lumpur
south side of Chicago
Manchester, UK
coastal town in Cornwall
Seoul
just outside Dublin
Austin, TX
Cape Town""".splitlines()

_PLACES_ZH = """\
坐标成都
人在深圳
老家湖南，现在在广州
北京土著
常驻苏州
在武汉生活了十年
现居厦门
东北人，在上海漂着
老家山东的
住在杭州西湖边上""".splitlines()

_PEOPLE = """\
32, married, no kids
41 years old
mid-thirties
two kids (7 and 4)
mum of three
single dad of a teenage girl
one daughter, she's at uni
married 15 years
divorced, two grown-up sons
engaged! wedding next spring
newly married
recently widowed
three dogs and a very grumpy cat
two cats
a border collie named biscuit
one hamster lol
an adopted whippet
two guinea pigs and a parrot
a horse (yes really)
fish tank with way too many guppies
twin boys, 18 months
grandma of five
eldest of 6 siblings
no siblings, only kid
28 y/o
age 57
newlywed, no pets yet
single, living alone
partner + toddler + a very loud beagle
1 kid, 2 dogs, 0 free time""".splitlines()

_PEOPLE_ZH = """\
35岁，已婚
今年快40了
两个娃，一儿一女
单亲妈妈
刚结婚
95后
已婚，孩子上小学了
一只橘猫
养了两条狗
单身
家里有只柯基
独生女
儿子刚上初中
老公是军人
快60了，有个外孙""".splitlines()

_HEALTH = """\
diabetic (type 2)
can't do gluten
lactose intolerant (sadly)
vegetarian since uni
vegan for 5 yrs
allergic to tree nuts
allergic to prawns, badly
asthmatic
bad knees (old football injury)
colour blind
hard of hearing in one ear
ADHD (diagnosed last year)
migraines pretty often
mildly dyslexic
recovering from a back operation
use a wheelchair since the accident
no alcohol, 3 years sober
kidney transplant in 2019
halal diet
pescetarian-ish
epileptic
tinnitus, constant
long covid since 2021
high blood pressure (on meds)
celiac""".splitlines()

_HEALTH_ZH = """\
有糖尿病
乳糖不耐受
吃素好几年了
对花生过敏
腰椎间盘突出
有点高血压
近视一千度
怀孕五个月
痛风，海鲜都不敢吃
偏头痛老毛病了""".splitlines()

_TASTES = """\
big fan of true crime podcasts
massive espresso snob ☕
huge sci-fi nerd
weekend hiker
sushi > pizza, fight me
cat person through and through
into bouldering lately... no wait, for years
marvel fan since forever
crossword addict
night owl
early riser, love the quiet mornings
bookworm, mostly fantasy
jazz on vinyl
horror movies, the gorier the better
board games every friday
def not a morning guy
obsessed with houseplants 🌿
amateur photographer, street stuff mostly
k-drama binger
runner, nothing serious
tea over coffee always
fantasy football tragic
tennis on sundays
sourdough baker in my free time
hate crowds, love quiet cafes
spicy food lover 🌶️
lakes > seaside any day
video games, mainly RPGs
cycling most weekends
knitting (yes at 25)""".splitlines()

_TASTES_ZH = """\
追剧党
爱猫人士
咖啡重度依赖
喜欢爬山
周末必打羽毛球
火锅爱好者
不吃香菜
剧本杀上头
钓鱼佬一个
喜欢听相声""".splitlines()

_GOALS = """\
putting money aside for a flat
aiming for my first half marathon next year
learning japanese (slowly lol)
trying to lose 10kg before summer
working towards my CPA
goal this year: read 30 books
hoping to switch into data science
planning to retire early, 50 ideally
want to get my pilot licence one day
studying for the bar exam
dream: open a little bakery
trying to quit smoking
training for an ironman
learning to code on the side
hoping to move abroad in a couple of years""".splitlines()

_GOALS_ZH = """\
目标是年底前考下教师资格证
在备考雅思
想转行做产品
攒钱买房中
打算明年辞职创业
想学会游泳
在减肥，目标瘦十斤
准备考研""".splitlines()

_PROJECTS = """\
restoring a 1972 vw camper
writing a fantasy novel on the side
building a treehouse for my kids
side project: a budgeting app
renovating an old farmhouse
making a podcast about local history
knitting a blanket for my niece's wedding
building my own PC from scratch
starting an etsy shop for my pottery
documentary project about my grandad's village""".splitlines()

_PROJECTS_ZH = """\
在装修新房
业余在写小说
在做一个记账小程序
在给女儿织毛衣
周末在改装一辆旧摩托""".splitlines()

_RULES = """\
no spoilers please
metric units only pls
short answers pls, I'm on my phone a lot
no emojis in anything work-related
british spelling please
回答简短点
别给我推荐辣的""".splitlines()

_DROPS = """\
quick bit of context
ok so a bit about me
where do i start
to cut a long story short
that's about it
so yeah
anyway
that's me in a nutshell
hope that's enough info
hi there
hello!
lol
haha ok
hmm let me think
not much else to say
idk what else
fire away with questions
knackered today
stuck in traffic rn
on my 3rd coffee already
monday again ugh
only just walked in the door
bit hungover tbh
on the train atm
sorry for the long msg
thanks in advance
can you help me plan something
quick question first
no rush
you probably don't need all that
hope that's useful??
sorry typos, on mobile
brb
meh, fine
random, i know
tired but ok
that's the gist
ok that's it from me
ok your turn
right, let's go""".splitlines()

_DROPS_ZH = """\
简单说一下
先自我介绍下
就这些吧
大概就这样
哈哈哈
今天好累
刚下班
先这样
你看着办
有点饿了
不知道还要说啥
嗯嗯
好的
麻烦你了
问你个事""".splitlines()

ROWS: list[tuple[str, str | None, str]] = [
    *[(t, F, "job") for t in _JOBS + _JOBS_ZH],
    *[(t, F, "place") for t in _PLACES + _PLACES_ZH],
    *[(t, F, "people") for t in _PEOPLE + _PEOPLE_ZH],
    *[(t, F, "health") for t in _HEALTH + _HEALTH_ZH],
    *[(t, P, "taste") for t in _TASTES + _TASTES_ZH],
    *[(t, G, "goal") for t in _GOALS + _GOALS_ZH],
    *[(t, J, "project") for t in _PROJECTS + _PROJECTS_ZH],
    *[(t, C, "rule") for t in _RULES],
    *[(t, D, "drop") for t in _DROPS + _DROPS_ZH],
]


def _cjk(text: str) -> bool:
    return bool(re.search(r"[\u3400-\u9fff]", text))


def _with_user(text: str) -> str:
    """The item as the gate reads a list item whose subject is elided (``gate_units.with_user_subject``)."""
    return f"我{text}" if _cjk(text) else f"i'm {text}"


def rows() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for text, kind, family in ROWS:
        for reading in (text, _with_user(text)):
            out.append({"text": reading, "keep": kind is not None, "type": kind, "family": "list32_" + family,
                        "relation": None, "source": "hand"})
    return out


def check(paths: list[Path]) -> list[str]:
    """Items whose flattened text (8+ characters) occurs inside a case file's flattened text (copies)."""
    return copies((text for text, _, _ in ROWS), paths, min_chars=8)


def main(argv: list[str] | None = None) -> int:
    return rows_command(argv, __doc__.splitlines()[0], rows, "list32_", CORPUS, check)


if __name__ == "__main__":
    sys.exit(main())
