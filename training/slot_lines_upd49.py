# ruff: noqa: E501  (data: hand-written pairs, one family per block)
"""Hand-written pairs for the slot reading (``core.extraction.slot_reading``; issue 24, session 30, helper
upd49).

Each line is a live memory of the user (a fact or a taste as the rules store it) and a later chat statement.
Label 1: the statement tells a new value of the memory's own slot, in words that do not repeat the slot's (a
new job, home, phone, sport, diet, commute, partner, school, routine), so the memory no longer holds. Label 0:
the statement leaves the memory standing: a second item added, another slot of the user, somebody else's
change, a trip or a visit, a one-day exception, a detail of the same value. The slot reading is fitted on the
texts of the label-1 lines, each under its family's slot (``slot_texts``); the label-0 lines are the pairs its
decision must leave alone, read by the tests and the trainer's report. Written for it in strangers' wording, zh, en and mixed; none is a sentence of a case file (``tests/training``).
"""

from __future__ import annotations

from typing import Any

# (group, label, memory, statement)
LINES: list[tuple[str, int, str, str]] = [
    # --- a job, told anew (1)
    ("job", 1, "I'm a cashier at a grocery store", "got hired at the post office, sorting mail on the night shift"),
    ("job", 1, "I work in a call center for an airline", "these days I'm a dispatcher for a towing company"),
    ("job", 1, "I drive for a delivery app", "started teaching swim lessons at the rec center full time"),
    ("job", 1, "I'm a junior accountant at a mid-size firm", "my badge says payroll lead at a hospital now"),
    ("job", 1, "i bartend at a wine bar on weekends and weekdays", "signed on with a moving company, lifting boxes all day"),
    ("job", 1, "I do IT support for a school district", "been running the front desk of a hotel since spring"),
    ("job", 1, "我在银行做柜员", "这个月开始在一家物流公司做调度了"),
    ("job", 1, "我是一名小学语文老师", "现在在出版社当编辑，每天看稿子"),
    ("job", 1, "我在奶茶店打工", "入职了一家游戏公司，做测试"),
    ("job", 1, "我在工厂流水线上班", "现在跑网约车，时间自由多了"),
    ("job", 1, "我是做销售的，天天跑客户", "上周开始在医院药房上班了"),
    ("job", 1, "I work as a 护士 in a clinic", "现在在一家 startup 做 operations，完全换赛道"),
    ("job", 1, "我在一家 4S 店做销售顾问", "now I'm a 房产中介, first deal closed last week"),
    # --- a home, told anew (1)
    ("home", 1, "home is a duplex in Denver", "our lease in Austin started on the first, still living out of boxes"),
    ("home", 1, "I rent a studio in Brooklyn", "settled into a little house outside Raleigh with a yard"),
    ("home", 1, "I live with my parents in Ohio", "got my own place across the country in Seattle"),
    ("home", 1, "my apartment is in downtown Chicago", "the new condo in Phoenix has a pool, loving the heat"),
    ("home", 1, "我住在天津", "在长沙安顿下来了，租了个两居室"),
    ("home", 1, "我家在北京海淀", "落户青岛了，离海边走路十分钟"),
    ("home", 1, "我住在武汉光谷", "到昆明定居快半年了，天气太舒服"),
    ("home", 1, "我在广州租房住", "现在的家在佛山，每天坐地铁进城"),
    ("home", 1, "I live in 西安", "these days home is a flat in Manchester"),
    # --- a phone or a device, told anew (1)
    ("phone", 1, "I use a Samsung Galaxy S20", "the iphone 14 pro is my daily driver now"),
    ("phone", 1, "a moto g is the phone i carry", "picked up a pixel 7a on sale, the moto is retired"),
    ("phone", 1, "我用的是 vivo X60", "现在手里是一台 OPPO Find X7"),
    ("phone", 1, "我的手机是 iPhone XR", "入手了小米14，系统还在熟悉"),
    ("phone", 1, "i type on a beat-up old thinkpad", "a macbook air m2 is what i type on these days"),
    # --- a sport or exercise, told anew (1)
    ("sport", 1, "I do crossfit four times a week", "it's pilates at a small studio for me these days"),
    ("sport", 1, "I play soccer in a sunday league", "my weekends are spent on the golf range now"),
    ("sport", 1, "I go jogging every evening", "my evening workout is rowing at the gym these days"),
    ("sport", 1, "我每周打两次篮球", "现在每周去游泳馆三次，篮球不打了"),
    ("sport", 1, "我平时喜欢跳绳", "这阵子每天晚上都在小区打乒乓球"),
    ("sport", 1, "我周末爬山", "周末都去学冲浪了，晒黑了一圈"),
    # --- a diet or a drink, told anew (1)
    ("diet", 1, "vegetarian here, no meat at all", "steak night is every friday at my place now"),
    ("diet", 1, "I eat a lot of fast food", "meal prepping salads and grilled chicken every sunday these days"),
    ("diet", 1, "I drink three energy drinks a day", "herbal tea is my go-to since the spring"),
    ("diet", 1, "zero alcohol for me, not even beer", "a glass of red with dinner most nights is my thing now"),
    ("diet", 1, "我不吃辣", "现在顿顿离不开辣椒，被四川同事带的"),
    ("diet", 1, "我每天喝两杯奶茶", "这半年只喝白开水和柠檬水"),
    ("diet", 1, "我吃素", "最近开始吃鱼和鸡肉了，营养师建议的"),
    # --- a commute or a routine, told anew (1)
    ("routine", 1, "I drive to work every day", "my commute is a 25 minute bike ride these days"),
    ("routine", 1, "I take the train to the office", "work from the kitchen table full time now, no commute"),
    ("routine", 1, "I usually wake up at 9", "alarm goes off at 5:45 now for the early shift"),
    ("routine", 1, "I study at night", "my study hours moved to the early morning before class"),
    ("routine", 1, "我每天开车上班", "现在每天骑共享单车去公司"),
    ("routine", 1, "我一般晚上十二点睡", "现在十点就上床了，早上六点起"),
    ("routine", 1, "我每天坐地铁上班", "公司搬到家旁边了，走路五分钟就到"),
    # --- a partner, a school, a car, told anew (1)
    ("partner", 1, "I'm single", "my girlfriend and I just celebrated three months"),
    ("partner", 1, "I'm dating a guy named Tom", "Tom and I split up, I'm seeing Alex now"),
    ("school", 1, "I'm a sophomore in college", "I'm a senior now, graduating in may"),
    ("car", 1, "I drive a honda civic", "the civic is gone, I'm driving a used tacoma"),
    ("school", 1, "我在读高三", "现在是大一新生了，在南京上学"),
    ("car", 1, "我开的是一辆五菱宏光", "家里换了台特斯拉 Model Y"),
    ("partner", 1, "我单身", "我有男朋友了，在一起两个月"),
    # --- a second item added to the slot (0)
    ("added", 0, "I'm a cashier at a grocery store", "i also tutor math on saturdays for extra money"),
    ("added", 0, "my day job is IT support at a dental clinic", "on top of that I freelance building websites at night"),
    ("added", 0, "我在银行上班", "周末还在朋友的咖啡店帮忙"),
    ("added", 0, "I play soccer in a sunday league", "also picked up tennis with my neighbor"),
    ("added", 0, "我每周打两次篮球", "最近还报了个游泳班"),
    ("added", 0, "I have a cat named Mochi", "we adopted a puppy too, the cat is not impressed"),
    ("added", 0, "我养了一只狗", "又多了一只仓鼠，孩子吵着要的"),
    ("added", 0, "I use a pixel phone", "got an ipad as well for drawing"),
    ("added", 0, "thai curries are my comfort food", "been getting into korean food lately as well"),
    # --- another slot of the user (0)
    ("other-slot", 0, "I'm a cashier at a grocery store", "my apartment is a ten minute walk from the store"),
    ("other-slot", 0, "home is a duplex in Denver", "I work as a dental assistant"),
    ("other-slot", 0, "I use a Samsung Galaxy S20", "I live with two roommates"),
    ("other-slot", 0, "vegetarian here, no meat at all", "I go rock climbing on weekends"),
    ("other-slot", 0, "I do crossfit four times a week", "shellfish gives me hives"),
    ("other-slot", 0, "我住在天津", "我在一家保险公司上班"),
    ("other-slot", 0, "我是一名小学语文老师", "我最喜欢的颜色是蓝色"),
    ("other-slot", 0, "我每周打两次篮球", "我有一个五岁的女儿"),
    ("other-slot", 0, "I drive to work every day", "I'm learning spanish on an app"),
    ("other-slot", 0, "我单身", "我养了两只猫"),
    ("other-slot", 0, "I rent a studio in Brooklyn", "my birthday is in october"),
    ("other-slot", 0, "我的手机是 iPhone XR", "我平时喜欢听周杰伦"),
    # --- somebody else's change (0)
    ("others", 0, "I'm a junior accountant at a mid-size firm", "my brother just got a job as a paramedic"),
    ("others", 0, "home is a duplex in Denver", "my best friend moved to Atlanta last month"),
    ("others", 0, "I use a Samsung Galaxy S20", "my mom finally got an iphone, so many questions"),
    ("others", 0, "vegetarian here, no meat at all", "my roommate went full carnivore diet, the fridge is all meat"),
    ("others", 0, "我在银行做柜员", "我老公换工作了，去了一家车企"),
    ("others", 0, "我住在天津", "我表姐搬去上海了"),
    ("others", 0, "我每周打两次篮球", "我儿子开始学游泳了"),
    ("others", 0, "I drive a honda civic", "my dad bought a new pickup truck"),
    # --- a trip, a visit, one day only (0)
    ("visit", 0, "home is a duplex in Denver", "in Miami for a conference this week, so humid"),
    ("visit", 0, "I rent a studio in Brooklyn", "spending thanksgiving at my aunt's in Vermont"),
    ("visit", 0, "我住在天津", "这几天在三亚度假，晒成炭了"),
    ("visit", 0, "我家在北京海淀", "春节回老家河南待一周"),
    ("visit", 0, "vegetarian here, no meat at all", "had a bite of my friend's burger at the bbq, felt weird"),
    ("visit", 0, "I drive to work every day", "car's at the mechanic so I took the bus today"),
    ("visit", 0, "我每天开车上班", "今天限号，只好坐地铁"),
    ("visit", 0, "I do crossfit four times a week", "skipped the gym today, too sore"),
    ("visit", 0, "我不吃辣", "昨天朋友聚餐吃了点麻辣烫，辣哭了"),
    ("visit", 0, "I use a Samsung Galaxy S20", "borrowing my sister's phone while mine gets a new screen"),
    # --- a detail of the same value (0)
    ("detail", 0, "I'm a cashier at a grocery store", "my shifts are mostly mornings, 6 to 2"),
    ("detail", 0, "home is a duplex in Denver", "the view of the mountains from my balcony is the best part"),
    ("detail", 0, "我在银行做柜员", "每天要数好多现金，手都酸了"),
    ("detail", 0, "我住在天津", "小区楼下有个早市，煎饼果子很香"),
    ("detail", 0, "I do crossfit four times a week", "my coach has me working on pull-ups lately"),
    ("detail", 0, "我每周打两次篮球", "一般打控球后卫"),
    ("detail", 0, "vegetarian here, no meat at all", "tofu scramble is my favorite breakfast"),
    ("detail", 0, "我的手机是 iPhone XR", "屏幕有点划痕了，但还能用"),
    ("detail", 0, "I drive a honda civic", "just got the oil changed, 120k miles on it"),
    ("detail", 0, "我一般晚上十二点睡", "睡前喜欢看会儿书"),
]


def rows() -> list[dict[str, Any]]:
    """The lines as rows (``group``, ``label``, ``memory``, ``text``)."""
    return [{"group": g, "label": y, "memory": m, "text": t} for g, y, m, t in LINES]


def slot_texts() -> list[tuple[str, str]]:
    """``(slot, text)``: both texts of every label-1 line, under its family's slot."""
    return [(g, text) for g, y, m, t in LINES if y == 1 for text in (m, t)]
