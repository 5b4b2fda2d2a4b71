# ruff: noqa: E501  (data: hand-written pairs, one family per block)
"""Hand-written pairs for the new-value head (``core.extraction.rules.new_value``; issue 24, session 32,
helper upd51): does a chat statement tell the live memory's *new value*?

Shape of ``training/slot_lines_upd50.py``: ``(group, label, memory, statement)``. Label 1: the statement
tells what now holds in the memory's place, mostly without a change word the rules know (a pet lost and a
new one in one breath, "no more <old arrangement>" and the new one, a move told by its keys or boxes, "so I
got a <new thing>", a job told by its desk, a school or major told as what one is now). Label 0: look-alikes
that leave the memory standing (a side job, someone else's move or pet, a one-time exception, a change only
considered, a second pet, a trip, a test drive), a statement that tells only the old value's end and no new
value ("rip <pet>"), and a detail of the same value. Written for the head in strangers' wording, zh, en and
mixed; none is a sentence of a case file (``tests/training/test_new_value_lines_upd51.py``).
"""

from __future__ import annotations

from typing import Any

# (group, label, memory, statement)
LINES: list[tuple[str, int, str, str]] = [
    # --- a pet lost or given away, a new one told in the same breath (1)
    ("pet", 1, "we have an old beagle called Rufus", "rufus passed in the spring, we brought home a husky puppy last month"),
    ("pet", 1, "my cat Luna is 12", "buried luna under the apple tree, now a scruffy terrier follows me around"),
    ("pet", 1, "I keep two guinea pigs", "the guinea pigs went to my cousin, it's a leopard gecko on my desk now"),
    ("pet", 1, "我家有只泰迪叫可乐", "可乐去年冬天没了，现在家里换成一只布偶猫"),
    ("pet", 1, "我养了一只仓鼠", "仓鼠寿终正寝了，上礼拜从救助站接回一只黑猫"),
    ("pet", 1, "my pet is a cockatiel named Kiwi", "kiwi flew off in july 😢 adopted a mini lop bunny, she's a menace"),
    ("pet", 1, "我有一条柯基", "柯基给了我妈养，我这边现在是两只小鸭子 lol"),
    # --- the old arrangement ended without a change word, the new one told (1)
    ("arrangement", 1, "I share a flat with three people in Camden", "no more flatmates, got a one bed in Hackney just for me"),
    ("arrangement", 1, "I drive to the office every morning", "no more traffic for me, the company lets me work from home full time"),
    ("arrangement", 1, "I have a membership at Gold's Gym", "no more gym fees, I run the river trail every morning instead"),
    ("arrangement", 1, "我和爸妈住在一起", "终于自己住了，在公司旁边租了个单间"),
    ("arrangement", 1, "我每天坐公交上班", "告别挤公交的日子，现在骑共享单车十分钟到公司"),
    ("arrangement", 1, "I take spanish classes at the community center", "the class is history, it's a tutor on zoom twice a week now"),
    ("arrangement", 1, "我在健身房请了私教", "私教课用完没续，现在每天跟着帕梅拉在客厅练"),
    # --- a move told by keys, boxes or a lease (1)
    ("move", 1, "my home is in Austin, east side", "handed back the austin keys, we're unpacking boxes in Nashville now"),
    ("move", 1, "home is Manchester for me", "lease in manchester ended and we signed one in Glasgow, keys on monday"),
    ("move", 1, "我住在南京", "南京那套房子退租了，新房钥匙在苏州拿到了"),
    ("move", 1, "我在武汉住了五年", "搬家公司昨天把东西都运到长沙了，新家还是一堆纸箱"),
    ("move", 1, "I'm based in Berlin", "our new place in Munich finally has furniture, the berlin flat is someone else's now"),
    ("move", 1, "我住在天津", "天津的房子交还给房东了，现在每天从青岛的新家出门上班"),
    # --- a new thing told with no change word (1)
    ("thing", 1, "I use a Samsung Galaxy S21", "so I picked up an iphone 16, airdrop is kinda nice ngl"),
    ("thing", 1, "I type on a battered old ThinkPad X220", "typing this on a macbook air I got last week, the battery is crazy"),
    ("thing", 1, "I drive a Mazda 3", "we got a hybrid rav4 over the weekend, so much room for the kids"),
    ("thing", 1, "我用的是华为 P40", "入了台小米 14，拍照真不错"),
    ("thing", 1, "我开一辆二手的 Polo", "上个月提了辆比亚迪，油钱省了一大半"),
    ("thing", 1, "I ride a road bike to work", "grabbed an e-scooter on sale, zipping to work in 12 min"),
    ("thing", 1, "我的手机是 iPhone 11", "got myself a 一加 12 last week, 充电好快"),
    # --- a job told by what the days are like now (1)
    ("job", 1, "I'm a cashier at a grocery store", "these days i spend my shifts answering phones at a dentist's front desk"),
    ("job", 1, "bartending is my job", "i'm writing insurance claims at an office now, no more late nights"),
    ("job", 1, "我在餐厅当服务员", "现在每天坐办公室做行政，周末双休"),
    ("job", 1, "我是一名出租车司机", "如今在物流公司做调度，不用整天开车了"),
    ("job", 1, "I teach yoga at a studio", "my days are spreadsheets at a bank now lol, yoga is just for me"),
    ("job", 1, "我在工厂做质检", "现在在培训机构教小朋友编程，比流水线有意思多了"),
    # --- a school or major told as what one is now (1)
    ("school", 1, "I study mechanical engineering", "i'm an econ major now, thermo was not it"),
    ("school", 1, "I'm a student at a community college in Ohio", "got into Ohio State as a transfer, i'm a buckeye now"),
    ("school", 1, "我读的是英语专业", "现在是新闻系的学生了，转专业申请通过了"),
    ("school", 1, "我在一所大专读书", "专升本考上了，现在在省里的一本院校读大三"),
    ("school", 1, "i'm doing a nursing degree", "switched into psych this year, way more my thing"),
    ("school", 1, "我在读化学", "现在在读数学系，天天证明题"),
    # --- a habit or taste given up, the new one told (1)
    ("habit", 1, "I drink black coffee every morning", "it's matcha every morning now, coffee gave me the jitters"),
    ("habit", 1, "我每天晚上跑步", "晚上改成游泳了，膝盖受不了跑步"),
    ("habit", 1, "I play tennis on weekends", "weekends are for rock climbing now, my shoulder hates tennis"),
    ("habit", 1, "我不吃早饭", "现在每天早上都吃一碗燕麦"),
    ("habit", 1, "I'm a night owl, asleep around 3am", "lights out by 11 these days, the new job starts at 7"),
    # --- look-alikes: a side job, a gig, a course beside the job (0)
    ("side", 0, "I'm a nurse at a children's hospital", "doing a few shifts of babysitting on weekends for extra cash"),
    ("side", 0, "我是一名会计", "周末在朋友的奶茶店帮忙，赚点零花钱"),
    ("side", 0, "I work as a software engineer", "started selling my pottery on etsy on the side lol"),
    ("side", 0, "我在银行上班", "晚上跑跑网约车，补贴一下房贷"),
    ("side", 0, "graphic design is my day job, mostly logos", "taking a night class in welding just for fun"),
    # --- look-alikes: someone else's move, job, pet, school (0)
    ("other", 0, "I live in Seattle", "my sister just moved to Denver for grad school"),
    ("other", 0, "我住在广州", "我哥搬去上海了，以后过年得去他那儿"),
    ("other", 0, "I work at a law firm", "my husband left his job and joined a startup"),
    ("other", 0, "我有一只萨摩耶", "我室友养了一只布偶猫，两只天天打架"),
    ("other", 0, "I study history", "my roommate switched to computer science"),
    ("other", 0, "我开的是大众朗逸", "我爸换了台理想 L7，坐着挺舒服"),
    # --- look-alikes: a one-time exception (0)
    ("once", 0, "no meat for me, vegetarian since my teens", "had a bite of my dad's steak at his birthday, just once, back to veggies"),
    ("once", 0, "我每天骑车上班", "今天车胎爆了，只好打车去公司"),
    ("once", 0, "I stay off alcohol completely", "had one glass of champagne at my best friend's wedding"),
    ("once", 0, "我每天晚上十点睡", "昨晚追剧熬到两点，今天困死了"),
    ("once", 0, "my job is fully remote, home office in the spare room", "had to go into the office today for a meeting, ugh"),
    # --- look-alikes: a change only considered (0)
    ("maybe", 0, "Chicago has been home for a decade", "thinking about moving to Phoenix someday, the winters here are brutal"),
    ("maybe", 0, "我是小学老师", "在考虑明年要不要考公务员，还没决定"),
    ("maybe", 0, "I drive a Toyota Camry", "been eyeing the new ev models, maybe next year"),
    ("maybe", 0, "我在读生物", "有点想转去读计算机，但是还在犹豫"),
    ("maybe", 0, "I have a cat", "might get a dog too if the landlord says yes"),
    # --- look-alikes: a second pet, thing or hobby added (0)
    ("added", 0, "I have a german shepherd named Rex", "we also adopted a bunny, rex is very confused"),
    ("added", 0, "我养了一只狗", "又领养了一只猫，家里更热闹了"),
    ("added", 0, "I play piano", "picked up the ukulele too, it's so easy to carry"),
    ("added", 0, "I use an iPhone 15", "got an ipad for drawing as well"),
    # --- look-alikes: a trip, a visit, a test (0)
    ("trip", 0, "I live in Boston", "flying to Lisbon next week for ten days of vacation"),
    ("trip", 0, "我在深圳工作", "下周去成都出差三天"),
    ("trip", 0, "I drive a Ford Focus", "rented a jeep for the road trip, so fun to drive"),
    ("trip", 0, "我用的是安卓手机", "在店里试了一下新出的 iPhone，手感还行"),
    # --- the old value's end only, no new value told (0)
    ("end", 0, "my dog is a pug named Bean", "rip bean, miss that snorty little guy so much"),
    ("end", 0, "我养了一只兔子", "兔子前两天走了，心里空落落的"),
    ("end", 0, "I drive a Subaru", "totaled the subaru last week, I'm fine though"),
    ("end", 0, "我在超市当收银员", "超市关门了，我现在还在找工作"),
    # --- a detail of the same value (0)
    ("detail", 0, "my apartment is in Portland, Oregon", "our apartment is right by the food carts, love it"),
    ("detail", 0, "我是程序员", "主要写后端，用 Go 比较多"),
    ("detail", 0, "I have a golden named Honey", "honey just turned 5, she still acts like a puppy"),
    ("detail", 0, "我在读法学", "这学期课特别多，刑法最难"),
]


def rows() -> list[dict[str, Any]]:
    """The lines as rows (``group``, ``label``, ``memory``, ``text``)."""
    return [{"group": g, "label": y, "memory": m, "text": t} for g, y, m, t in LINES]
