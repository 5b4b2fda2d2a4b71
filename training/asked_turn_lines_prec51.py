# ruff: noqa: E501  (data: hand-written question and answer pairs, one family per block)
"""Hand-written (assistant question, user answer) pairs for the asked-turn head (``core.extraction.asked_turn``;
issue 24, session 32, helper prec51).

Each line is the companion's question of the turn before, a statement of the user's answer, and its label: 1 when
the statement, read as the answer to that question, is the day's news, a plan of these days or a mood (the
companion asked about **now**: today, this evening, the weekend, the trip's preparations, how the user feels),
0 when it is a lasting taste, habit, job, home, family or aim (whatever was asked: a question about now answered
with a lasting thing is still 0; a question about the user's habits, work, home or wishes answered in kind is 0).
Both languages, chat wording and MemoryBank's long, polite register. Written in strangers' wording; none is a user
turn of a case file nor a statement of a labelled public store (``tests/training/test_train_asked_turn.py``).

``weak_rows``: the rescue-turn head's lines (prec48, prec49, prec50: a statement cut from a turn and its label,
written by this project) each given a question written here: a line of the day's news a question about now, a
lasting line a question about now or about a lasting thing by turns (its label kept: the weak part is the
question, not the label).
"""

from __future__ import annotations

from typing import Any

NOW_ZH = ["今天过得怎么样？", "你今天有什么安排吗？", "最近在忙些什么呢？", "你现在心情怎么样？",
          "你是否已经开始了旅行准备工作？", "周末打算怎么过？", "今天上班累不累？", "晚上准备做什么？",
          "你最近的状态还好吗？", "这次出行的行程定了吗？"]
NOW_EN = ["How was your day?", "What are you up to this afternoon?", "How are you feeling today?",
          "Have you started preparing for the trip yet?", "Any plans for the weekend?",
          "What did you do today?", "How did the meeting go?", "What's on your schedule this evening?",
          "How have things been lately?", "Did you manage to get everything ready?"]
LAST_ZH = ["你平时喜欢做些什么？", "你是做什么工作的？", "你住在哪里呀？", "你有什么长期的目标吗？",
           "你平时一般怎么放松？", "你家里都有谁？", "你有什么特别喜欢吃的吗？", "你养宠物吗？"]
LAST_EN = ["What do you usually do to relax?", "What do you do for a living?", "Where do you live?",
           "Is there anything you've always wanted to do?", "What are your hobbies?",
           "Tell me about your family?", "What kind of food do you like?", "Do you have any pets?"]

# (group, label, question, statement)
LINES: list[tuple[str, int, str, str]] = [
    # --- zh: 问"现在"，答的是今天的事、这几天的安排或心情 (1)
    ("zh-now-news", 1, "今天过得怎么样？", "上午去菜市场买了条鱼，下午在家大扫除"),
    ("zh-now-news", 1, "你今天有什么安排吗？", "等会儿要去营业厅换张手机卡，再去洗个车"),
    ("zh-now-news", 1, "最近在忙些什么呢？", "这两天在赶一个投标书，天天加班到十点"),
    ("zh-now-news", 1, "你现在心情怎么样？", "有点郁闷，刚才和室友因为水电费吵了一架"),
    ("zh-now-news", 1, "你是否已经开始了旅行准备工作？", "我已经把行李箱收拾好了，还换了一些外币"),
    ("zh-now-news", 1, "你是否已经开始了旅行准备工作？", "是的，我订了海边的民宿，也查好了当地的天气"),
    ("zh-now-news", 1, "这次出行的行程定了吗？", "定了，第一天去西湖，第二天去灵隐寺，第三天返程"),
    ("zh-now-news", 1, "周末打算怎么过？", "周六要陪我妈去医院复查，周日可能在家补觉"),
    ("zh-now-news", 1, "今天上班累不累？", "累啊，一下午接了二十多个投诉电话，嗓子都哑了"),
    ("zh-now-news", 1, "晚上准备做什么？", "晚上约了大学同学去吃烤肉，好久没见了"),
    ("zh-now-news", 1, "你最近的状态还好吗？", "最近有点焦虑，总担心月底的考核过不了"),
    ("zh-now-news", 1, "你最近的状态还好吗？", "最近我总是拖延，事情一拖再拖，效率特别低"),
    ("zh-now-news", 1, "今天有什么开心的事吗？", "今天收到了朋友寄来的明信片，特别惊喜"),
    ("zh-now-news", 1, "考试准备得怎么样了？", "这几天一直在刷真题，错题本已经写了半本"),
    ("zh-now-news", 1, "面试准备得如何？", "我把自我介绍背熟了，还找朋友模拟了两遍"),
    ("zh-now-news", 1, "你打算怎么庆祝生日呢？", "打算和几个朋友去唱K，然后吃个蛋糕"),
    ("zh-now-news", 1, "搬家的事情进展如何？", "东西已经打包了一大半，周四搬家公司来拉"),
    ("zh-now-news", 1, "你有没有试着放松一下？", "试了，刚才听了半小时轻音乐，感觉好多了"),
    ("zh-now-news", 1, "谢谢你的分享！那你准备什么时候出发？", "我打算下个月初出发，先去成都待两天"),
    ("zh-now-news", 1, "你看了那部电影吗？感觉怎么样？", "看了，结局有点仓促，不过特效挺震撼的"),
    ("zh-now-news", 1, "你现在在哪儿呢？", "在回家的地铁上，人超级多，挤得不行"),
    ("zh-now-news", 1, "今天午饭吃的什么？", "公司楼下的黄焖鸡，味道一般般"),
    ("zh-now-news", 1, "你身体好点了吗？", "好多了，昨天去诊所打了一针，今天烧退了"),
    ("zh-now-news", 1, "你决定好去哪里玩了吗？", "我决定先去泉州看看古城，然后再去鼓浪屿"),
    # --- zh: 问"现在"，答的却是长久的事 (0)
    ("zh-now-lasting", 0, "今天过得怎么样？", "挺好的，我是做幼儿园老师的，每天跟小朋友在一起很开心"),
    ("zh-now-lasting", 0, "你今天有什么安排吗？", "我一般周末都会去游泳，已经坚持三年了"),
    ("zh-now-lasting", 0, "最近在忙些什么呢？", "我在一家物流公司做调度，一直都挺忙的"),
    ("zh-now-lasting", 0, "你现在心情怎么样？", "还行，我这个人性格比较乐观，不太容易生气"),
    ("zh-now-lasting", 0, "今天上班累不累？", "我在银行柜台工作，习惯了就还好"),
    ("zh-now-lasting", 0, "晚上准备做什么？", "我每天晚上都会练半小时书法，这是我多年的爱好"),
    ("zh-now-lasting", 0, "周末打算怎么过？", "我周末一般都在家陪我女儿，她今年五岁"),
    ("zh-now-lasting", 0, "今天午饭吃的什么？", "我对海鲜过敏，所以一般只吃素菜和鸡肉"),
    ("zh-now-lasting", 0, "你现在在哪儿呢？", "我住在青岛，离海边走路十分钟"),
    ("zh-now-lasting", 0, "你最近的状态还好吗？", "挺好的，我有轻微的哮喘，不过一直控制得不错"),
    ("zh-now-lasting", 0, "今天有什么开心的事吗？", "我养了一只橘猫，它每天都在门口等我下班"),
    ("zh-now-lasting", 0, "最近在忙些什么呢？", "我一直在自学日语，目标是明年考过N2"),
    # --- zh: 问长久的事，答的也是长久的事 (0)
    ("zh-last", 0, "你平时喜欢做些什么？", "我喜欢养多肉植物，阳台上摆了几十盆"),
    ("zh-last", 0, "你是做什么工作的？", "我是一名建筑设计师，主要做住宅项目"),
    ("zh-last", 0, "你住在哪里呀？", "我住在武汉的光谷附近，上班很方便"),
    ("zh-last", 0, "你有什么长期的目标吗？", "我希望五年内能开一家属于自己的咖啡店"),
    ("zh-last", 0, "你平时一般怎么放松？", "我一般会去爬爬山，或者在家做做瑜伽"),
    ("zh-last", 0, "你家里都有谁？", "我和老公还有一个上初中的儿子"),
    ("zh-last", 0, "你有什么特别喜欢吃的吗？", "我特别爱吃酸菜鱼，每周都要吃一次"),
    ("zh-last", 0, "你养宠物吗？", "养了两只仓鼠，一只叫年糕一只叫汤圆"),
    ("zh-last", 0, "你平时喜欢看什么类型的书？", "我比较喜欢推理小说，东野圭吾的几乎都看过"),
    ("zh-last", 0, "你一直都想做的事情是什么？", "我一直梦想着有一天能去西藏看看布达拉宫"),
    ("zh-last", 0, "你平时会做运动吗？", "会的，我每周打两次羽毛球"),
    ("zh-last", 0, "你觉得自己是个什么样的人？", "我是个比较内向的人，不太喜欢人多的场合"),
    # --- zh: 问长久的事，答的却是今天的事 (1)
    ("zh-last-news", 1, "你平时喜欢做些什么？", "今天倒是去看了场话剧，还挺有意思的"),
    ("zh-last-news", 1, "你平时一般怎么放松？", "刚才泡了个澡，现在整个人都松下来了"),
    ("zh-last-news", 1, "你是做什么工作的？", "今天刚好请假了，在家躺了一整天"),
    ("zh-last-news", 1, "你有什么特别喜欢吃的吗？", "刚刚吃了一碗牛肉面，现在撑得不行"),
    # --- en: asked about now, answered with the day's news, a plan of these days or a mood (1)
    ("en-now-news", 1, "How was your day?", "pretty chill, did groceries and then napped on the couch for like two hours"),
    ("en-now-news", 1, "What are you up to this afternoon?", "gotta pick up a parcel at the post office and then get a haircut"),
    ("en-now-news", 1, "How are you feeling today?", "kinda stressed tbh, my landlord texted about a rent increase this morning"),
    ("en-now-news", 1, "Have you started preparing for the trip yet?", "Yes, I have bought travel insurance and printed out all of our hotel confirmations."),
    ("en-now-news", 1, "Have you started preparing for the trip yet?", "I have made a packing list and ordered a new pair of hiking boots for it."),
    ("en-now-news", 1, "Any plans for the weekend?", "my sister is visiting so we'll probably go to the farmers market on saturday"),
    ("en-now-news", 1, "What did you do today?", "spent the morning at the DMV renewing my license, what a nightmare"),
    ("en-now-news", 1, "How did the meeting go?", "not great, my manager picked apart half of my slides"),
    ("en-now-news", 1, "What's on your schedule this evening?", "I'm going to a friend's housewarming party and I still need to buy a gift."),
    ("en-now-news", 1, "How have things been lately?", "Lately I have been feeling rather unmotivated and I keep putting things off."),
    ("en-now-news", 1, "How have things been lately?", "honestly a bit lonely since my roommate moved out last week"),
    ("en-now-news", 1, "Did you manage to get everything ready?", "almost, I still have to iron the tablecloth and pick up the cake"),
    ("en-now-news", 1, "How is the exam prep going?", "I finished two practice papers today and I'm reviewing the ones I got wrong"),
    ("en-now-news", 1, "Are you ready for the interview tomorrow?", "I have researched the company and rehearsed my answers with a friend."),
    ("en-now-news", 1, "Where are you right now?", "stuck in traffic on the way home, the highway is a parking lot"),
    ("en-now-news", 1, "Did you watch the game last night?", "yeah, we lost in overtime, still salty about it"),
    ("en-now-news", 1, "Have you decided where to go for your vacation?", "I decided to spend four days in Kyoto first and then head to Osaka."),
    ("en-now-news", 1, "How was the concert?", "amazing, they played my favorite song as the encore"),
    ("en-now-news", 1, "Are you feeling better?", "a little, the fever broke overnight but I'm still coughing"),
    ("en-now-news", 1, "What did you have for dinner?", "just some instant noodles, too tired to cook"),
    # --- en: asked about now, answered with a lasting thing (0)
    ("en-now-lasting", 0, "How was your day?", "good! I'm a vet tech so every day is a bit of a zoo lol"),
    ("en-now-lasting", 0, "What are you up to this afternoon?", "I always do pottery on Wednesday afternoons, it's my thing"),
    ("en-now-lasting", 0, "How are you feeling today?", "I'm fine, I have type 1 diabetes so I just keep an eye on my sugar"),
    ("en-now-lasting", 0, "Any plans for the weekend?", "I coach my son's soccer team every weekend"),
    ("en-now-lasting", 0, "What did you do today?", "I work from home as a translator, so mostly translating contracts"),
    ("en-now-lasting", 0, "What's on your schedule this evening?", "I volunteer at the animal shelter every Tuesday evening"),
    ("en-now-lasting", 0, "How have things been lately?", "Things are good. I live in Denver with my partner and our two dogs."),
    ("en-now-lasting", 0, "What did you have for dinner?", "I've been vegan for six years, so a lentil curry as usual"),
    ("en-now-lasting", 0, "Where are you right now?", "at home in Melbourne, I've lived here my whole life"),
    ("en-now-lasting", 0, "How was your day?", "fine, I teach high school chemistry and the kids were ok today"),
    # --- en: asked about a lasting thing, answered in kind (0)
    ("en-last", 0, "What do you usually do to relax?", "I knit, I've been knitting scarves for my whole family for years"),
    ("en-last", 0, "What do you do for a living?", "I'm a structural engineer, mostly bridges"),
    ("en-last", 0, "Where do you live?", "a small town outside of Dublin"),
    ("en-last", 0, "Is there anything you've always wanted to do?", "I have always wanted to learn to sail and cross the Atlantic someday."),
    ("en-last", 0, "What are your hobbies?", "rock climbing and board games mostly"),
    ("en-last", 0, "Tell me about your family?", "I'm the oldest of four, my parents run a bakery"),
    ("en-last", 0, "What kind of food do you like?", "anything spicy, Sichuan food is my favorite"),
    ("en-last", 0, "Do you have any pets?", "yes, a parrot named Kiwi who is older than me"),
    ("en-last", 0, "What kind of music do you listen to?", "mostly jazz, I collect old vinyl records"),
    ("en-last", 0, "What are your goals for the next few years?", "I want to finish my nursing degree and work in a children's hospital"),
    ("en-last", 0, "How would you describe yourself?", "I'm pretty introverted, I recharge by being alone"),
    ("en-last", 0, "Do you exercise?", "I swim laps three mornings a week"),
    # --- en: asked about a lasting thing, answered with the day's news (1)
    ("en-last-news", 1, "What do you usually do to relax?", "today I just binged a cooking show and ordered takeout"),
    ("en-last-news", 1, "What are your hobbies?", "this morning I tried a spin class for the first time and my legs are dead"),
    ("en-last-news", 1, "What do you do for a living?", "I'm off today actually, just running errands around town"),
    ("en-last-news", 1, "What kind of food do you like?", "I just had the best ramen of my life at a place downtown"),
]

POLITE_LINES: list[tuple[str, int, str, str]] = [
    # --- zh, MemoryBank's long polite register: a trip being prepared, a plan of the day, a mood of these days,
    # answered to the companion's question about them (1)
    ("zh-polite-news", 1, "你是否已经为这次旅行做好了准备？", "是的，我已经预订了往返的机票和酒店，还查好了当地的地铁线路和换乘方式"),
    ("zh-polite-news", 1, "你有什么具体的出行安排吗？", "我打算第一天去参观当地的美术馆，第二天去老城区逛逛，最后一天去海边看日出"),
    ("zh-polite-news", 1, "你准备在那里住几天呢？", "我计划住五天左右，这样可以有充足的时间慢慢游览每一个景点"),
    ("zh-polite-news", 1, "你打算住在什么样的地方？", "我打算住在市中心附近的一家青年旅舍，交通比较方便，价格也比较实惠"),
    ("zh-polite-news", 1, "你最近的心情如何？", "最近我感觉自己有些疲惫，工作上的事情总是做不完，晚上也休息不好"),
    ("zh-polite-news", 1, "你最近有没有遇到什么烦心事？", "最近我和家人因为一些小事闹了点矛盾，心里有些不太舒服"),
    ("zh-polite-news", 1, "你今天有什么想和我分享的吗？", "今天我去了一家新开的书店，买了两本散文集，感觉收获很大"),
    ("zh-polite-news", 1, "你最近有什么新的计划吗？", "我最近打算去郊区的农家乐住一晚，体验一下摘草莓的乐趣"),
    ("zh-polite-news", 1, "那次展览你觉得怎么样？", "展览的内容很丰富，我印象最深的是一组关于古代陶瓷的展品"),
    ("zh-polite-news", 1, "你准备好明天的演讲了吗？", "我已经把稿子修改了三遍，还对着镜子练习了好几次，希望明天能顺利"),
    ("zh-polite-news", 1, "你打算什么时候出发呢？", "我准备下周三出发，先坐高铁到南京，再转车去扬州"),
    ("zh-polite-news", 1, "周末你过得怎么样？", "周末我和朋友去郊外野餐了，天气很好，我们还放了风筝"),
    # --- zh, the same register: a lasting taste, habit, trait or wish, answered to the companion's question (0)
    ("zh-polite-lasting", 0, "你平时有什么兴趣爱好吗？", "我平时非常喜欢练习书法，已经坚持了很多年，它能让我的心情平静下来"),
    ("zh-polite-lasting", 0, "你一般喜欢去什么样的地方旅行？", "我一直比较喜欢去有历史文化底蕴的古城，感受当地的风土人情"),
    ("zh-polite-lasting", 0, "你平时喜欢吃什么样的菜？", "我一向偏爱清淡的粤菜，尤其是各种煲汤，辣的东西我吃不太习惯"),
    ("zh-polite-lasting", 0, "你觉得自己是一个怎样的人？", "我觉得自己是一个比较细心和有耐心的人，做事情喜欢有条理"),
    ("zh-polite-lasting", 0, "你有什么一直想实现的愿望吗？", "我一直希望将来能够去南极看一看企鹅，这是我从小就有的梦想"),
    ("zh-polite-lasting", 0, "你平时是怎么保持健康的？", "我每周都会去健身房锻炼三次，饮食上也尽量少油少盐"),
    ("zh-polite-lasting", 0, "你喜欢看什么类型的电影？", "我一直很喜欢看科幻电影，尤其是关于太空探索的题材"),
    ("zh-polite-lasting", 0, "你的工作主要是做什么的？", "我在一家出版社做编辑，主要负责儿童读物的出版"),
    ("zh-polite-lasting", 0, "你今天有什么想和我分享的吗？", "我想和你聊聊我的爱好，我从大学开始就喜欢收集各地的邮票"),
    ("zh-polite-lasting", 0, "你最近在忙些什么？", "我一直在学习弹古筝，每个周末都会去老师那里上课"),
    ("zh-polite-lasting", 0, "你的职业规划是什么？", "我希望在未来几年内成为一名注册会计师，为此我一直在努力学习"),
    ("zh-polite-lasting", 0, "你平时喜欢听什么音乐？", "我比较喜欢听古典音乐，特别是肖邦的钢琴曲"),
    # --- en, MemoryBank's long polite register (1)
    ("en-polite-news", 1, "Have you made any arrangements for your trip yet?", "Yes, I have reserved a rental car and booked a guesthouse close to the harbour for the first three nights."),
    ("en-polite-news", 1, "What is your itinerary like?", "I plan to visit the cathedral on the first day, then take a boat tour along the coast on the second day."),
    ("en-polite-news", 1, "How long will you be staying there?", "I am planning to stay for about a week so that I can explore each neighbourhood at a relaxed pace."),
    ("en-polite-news", 1, "How have you been feeling recently?", "Recently I have been feeling quite tired and a little anxious, as there is so much to do at work."),
    ("en-polite-news", 1, "Is there anything you would like to share with me today?", "Today I visited a new bakery in my neighbourhood and tried their lemon tart, which was delicious."),
    ("en-polite-news", 1, "How did you spend your weekend?", "I spent the weekend helping my cousin move into her new apartment, and we were exhausted by the end."),
    ("en-polite-news", 1, "What did you think of the exhibition?", "It was very interesting, and the section on ancient maps impressed me the most."),
    ("en-polite-news", 1, "Are you ready for your presentation tomorrow?", "I have revised my slides several times and practised in front of my roommate, so I hope it goes well."),
    # --- en, the same register, lasting (0)
    ("en-polite-lasting", 0, "What kind of hobbies do you have?", "I have always loved birdwatching, and I have kept a notebook of the species I have seen for many years."),
    ("en-polite-lasting", 0, "Where do you like to travel?", "I have always preferred quiet mountain villages to big cities, because I enjoy the fresh air and slow pace."),
    ("en-polite-lasting", 0, "What kind of person are you?", "I would describe myself as patient and organised, and I like to plan things carefully."),
    ("en-polite-lasting", 0, "Is there a dream you have always had?", "I have always hoped to open a small bookshop of my own one day."),
    ("en-polite-lasting", 0, "How do you usually keep fit?", "I go cycling every Sunday morning and try to eat plenty of vegetables."),
    ("en-polite-lasting", 0, "Is there anything you would like to share with me today?", "I would like to tell you about my hobby: I have been making wooden furniture in my garage for years."),
    ("en-polite-lasting", 0, "What have you been busy with lately?", "I have been learning the cello for three years, and I still practise every evening."),
    ("en-polite-lasting", 0, "What do you do for work?", "I work as a librarian at the city library, mainly looking after the children's section."),
]


def rows(polite: bool = False) -> list[dict[str, Any]]:
    """The written pairs as rows (``question``, ``text``, ``label``, ``group``); ``polite``: with the 40 pairs in
    MemoryBank's long, polite register (``POLITE_LINES``: a trip being prepared, a plan, a mood of these days
    beside lasting tastes, habits, traits and wishes, each answering the companion's question)."""
    return [{"question": q, "text": text, "label": label, "group": f"prec51-{group}"}
            for group, label, q, text in LINES + (POLITE_LINES if polite else [])]


def _lang(text: str) -> str:
    return "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"


def weak_rows(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``lines`` (rows with ``text``, ``label``, ``group``: the rescue-turn head's) each given a question: the
    day's news (1) a question about now, a lasting line (0) a question about now or a lasting one by turns;
    the question is picked by the line's index (deterministic)."""
    out: list[dict[str, Any]] = []
    for i, r in enumerate(lines):
        zh = _lang(r["text"]) == "zh"
        now, last = (NOW_ZH, LAST_ZH) if zh else (NOW_EN, LAST_EN)
        if r["label"] == 1:
            q = now[i % len(now)]
        else:
            q = now[(i // 2) % len(now)] if i % 2 == 0 else last[(i // 2) % len(last)]
        out.append({"question": q, "text": r["text"], "label": r["label"], "group": f"weak-{r['group']}"})
    return out
