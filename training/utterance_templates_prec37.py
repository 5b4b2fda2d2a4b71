# ruff: noqa: E501  (data: hand-written chat lines, one family per block)
"""An eleventh set of rows for the precision model, each a user's message with a companion assistant's turn
before it (issue 24, precision, session 20; ``prec37``).

Written for this repository on 2026-12-06 by the ``prec37`` helper (an AI agent session) before any public run
of its model: every line is its own, written as a person would type it in a companion chat (many voices, zh,
en and mixed, no slot grid), none copied or paraphrased from an evaluation set (the dev cases,
``bench/data/*_cases.jsonl``, MemoryBank, Synthetic-Persona-Chat's test split), the issue texts or the demo
samples (a test searches every case file). Built into the precision corpus with ``PAI_PRECISION_SETS=s20``
(session 19's corpus and these).

Why: of main's bad public memories at the start of session 20, most are MemoryBank's companion chat: the day's
outing, meal or purchase told with feeling, a mood of the moment ("these days I feel ..."), self-doubt,
thanks and praise of the assistant, a request, a question back, a plan of the moment; most reach a catalogue
slot, where the precision model must be sure (p(drop) >= 0.95) to drop them. Against them, in the same warm
register and after the same kinds of turns: long-run tastes and habits, ongoing learning and career aims told
with "recently / 最近" and a mood (session 19's gslot35 found the held-out split lacks them), life changes and
standing facts. The families:

- ``day_told_with_feeling`` (drops): an outing, a meal, a purchase, a film or book of today told with feeling;
- ``mood_of_the_moment`` (drops): how the user feels now or these days, self-doubt, worry about a thing ahead;
- ``thanks_and_praise`` (drops): thanks, praise of the assistant's help, "I'll keep that in mind";
- ``request_or_question_back`` (drops): a request to the assistant, a question back, an agreement or reaction;
- ``where_i_am_now`` (drops): where the user is or what they are doing right now;
- ``plan_of_the_moment_warm`` (drops): a plan for the next hours or days, trip logistics, told warmly;
- ``taste_told_warmly`` (keeps, preference): a lasting taste or habit told with feeling after the same turns;
- ``aim_recently_with_mood`` (keeps, goal): ongoing learning and career aims told with "recently" and a mood;
- ``life_change_warm`` (keeps, fact): a move, a new job, a pet, a diagnosis, a family change, told warmly;
- ``standing_fact_warm`` (keeps, fact): who the user is (work, home, family, a lasting condition) told in passing;
- ``mood_lately_after_advice`` / ``thanks_after_advice`` (drops): a mood of these days, self-doubt, thanks and
  the hope to keep chatting, after a companion's advice or comfort (its turns are long and end with a wish or a
  question);
- ``taste_or_aim_after_advice`` (keeps, typed by what they tell): a lasting taste, habit or aim after the same
  advice turns.
"""

from __future__ import annotations

from typing import Any

from training.template_rows import context_rows

Pair = tuple[str, str]
FAMILIES: list[tuple[str, bool, str | None, list[Pair]]] = [
    ("day_told_with_feeling", False, None, [
        ("How was your weekend?", "we went to the aquarium this morning and the jellyfish tank was unreal, I stood there for ages"),
        ("What have you been up to today?", "I tried a new dumpling place near the station for lunch and honestly it was so good, I'm still thinking about it"),
        ("How has your day been so far?", "pretty lovely actually, I walked along the canal after work and the sunset was all pink"),
        ("Anything fun happen today?", "I bought a little ceramic teapot at the market, it's blue and a bit wonky and I adore it"),
        ("How did the evening go?", "we watched an old black and white comedy tonight and I laughed so hard my stomach hurts"),
        ("Hi there! What's new?", "Hey! Today I finally visited the botanical garden, the greenhouse was so warm and green, it made me really happy"),
        ("Did you do anything special today?", "my cousin took me to a rooftop bar this evening, the view was amazing and I felt so free"),
        ("How was the trip to your friend's place?", "it was really nice, we cooked a huge pot of curry together and talked until midnight"),
        ("What did you do this afternoon?", "I spent the afternoon at a used bookshop and found an old poetry collection, it made my day"),
        ("How are things going today?", "good! I got my hair cut short this morning and I feel like a new person lol"),
        ("你今天过得怎么样？", "今天和室友去吃了一家新开的烤鱼，味道超级好，吃得好满足"),
        ("周末都干嘛了呀？", "周六去了一趟植物园，樱花开得正好，拍了好多照片，心情特别好"),
        ("今天有什么开心的事吗？", "下午在商场买了一双新的运动鞋，颜色我特别喜欢，穿上感觉走路都轻快了"),
        ("晚上做了什么呢？", "刚刚看完一部动画电影，结尾哭得稀里哗啦的，太感人了"),
        ("最近出去玩了吗？", "昨天去海边散步了，吹着海风听着浪声，整个人都放松下来了"),
        ("今天忙吗？", "还好，中午跟同事去吃了一碗牛肉面，汤特别鲜，感觉一下午都有劲了"),
        ("你好呀，今天怎么样？", "你好！今天我去图书馆借了几本书，在里面坐了一下午，很安静很舒服"),
        ("那你今天都去了哪些地方？", "先去了老城区逛了逛，又在一家小咖啡馆坐了会儿，那里的拿铁真的很香"),
        ("今天的聚会好玩吗？", "特别好玩！大家一起唱歌玩游戏，我笑了一晚上"),
        ("how was ur day", "omg so good, went to a night market w my sister and ate like five kinds of skewers 😂"),
        ("今天去哪儿玩了？", "today 去了一个手作市集, bought a hand-knitted scarf, 超级可爱"),
        ("今天过得好吗？", "挺好的，今天去看了个 live show，现场气氛太燃了"),
    ]),
    ("mood_of_the_moment", False, None, [
        ("How are you feeling today?", "honestly a bit flat today, nothing's wrong exactly, I just can't get going"),
        ("Is everything okay?", "I've been feeling kind of restless these past few days, like I can't sit still"),
        ("How have you been lately?", "not great, I've been feeling lonely this week and the evenings drag"),
        ("You sound a bit down.", "yeah, I feel like I'm not good enough at anything right now"),
        ("What's on your mind?", "I keep worrying that my presentation on Friday will go badly and everyone will notice"),
        ("How's your mood today?", "I'm in such a good mood today for no reason, everything feels easy"),
        ("Is something bothering you?", "I feel stuck, like I've lost my spark and nothing excites me at the moment"),
        ("How did you sleep?", "badly, I'm exhausted and a bit grumpy today to be honest"),
        ("Tell me how you're doing.", "I've been so anxious these days, my head just won't switch off at night"),
        ("Anything you want to talk about?", "I'm not sure I can handle the new responsibilities they gave me, I feel out of my depth"),
        ("你最近心情怎么样？", "这几天总觉得空落落的，做什么都提不起兴致"),
        ("今天感觉如何？", "今天有点烦躁，一点小事就想发火"),
        ("怎么了，听起来不太开心。", "嗯，我觉得自己最近什么都做不好，有点怀疑自己"),
        ("最近压力大吗？", "有点，这阵子特别焦虑，晚上老是睡不着"),
        ("你还好吗？", "还行吧，就是这两天情绪很低落，不太想说话"),
        ("有什么心事可以跟我说。", "我担心下周的面试表现不好，一想到就紧张"),
        ("今天开心吗？", "今天心情特别好，阳光也好，感觉整个人都轻松了"),
        ("最近过得怎么样？", "最近有点迷茫，不知道自己每天忙来忙去是为了什么"),
        ("你还好吧？", "累死了，今天整个人都是 drained 的状态"),
        ("你今天还好吗？", "feeling a bit overwhelmed today，事情太多了有点喘不过气"),
    ]),
    ("thanks_and_praise", False, None, [
        ("I'm glad I could help!", "thank you so much, talking to you always calms me down"),
        ("You're welcome, anytime.", "you're honestly the best listener, I really appreciate it"),
        ("I hope that helps a little.", "it does, your advice is always so thoughtful, thanks"),
        ("Take care of yourself, okay?", "I will, thanks for always being here for me"),
        ("Try to be kind to yourself.", "I'll keep that in mind, thank you for saying it"),
        ("That's a great idea, good luck!", "thanks! your encouragement really means a lot to me"),
        ("Let me know how it goes!", "will do, thanks for cheering me on as always"),
        ("不客气，有需要随时找我。", "谢谢你，每次跟你聊完我都觉得好多了"),
        ("希望这些建议对你有帮助。", "很有帮助，你的建议总是很实用，太感谢了"),
        ("记得照顾好自己哦。", "嗯嗯，我会的，谢谢你一直陪着我"),
        ("加油，我相信你可以的！", "谢谢你的鼓励，我会记住你说的话"),
        ("很高兴能帮到你。", "你真的太贴心了，有你在真好"),
        ("别太担心，一步一步来。", "好的，听你这么说我安心多了，谢谢"),
        ("祝你顺利！", "谢谢啦，you always know what to say"),
    ]),
    ("request_or_question_back", False, None, [
        ("Is there anything I can help you with?", "could you suggest a few easy recipes I could make for dinner tonight?"),
        ("What would you like to talk about?", "can you tell me some ways to calm down before a big meeting?"),
        ("I'd be happy to recommend something.", "yes please, what are some good podcasts for a long drive?"),
        ("I like learning about new places.", "oh really? what kind of places do you find most interesting?"),
        ("There are many ways to relax.", "that sounds great, there are so many options to try"),
        ("Music can really lift your mood.", "true, I totally agree with you on that"),
        ("Do you have any questions for me?", "what do you think I should wear to a friend's engagement party?"),
        ("有什么我可以帮你的吗？", "你能给我推荐几部适合周末看的电影吗？"),
        ("我可以给你一些建议。", "好呀，那你说说怎么才能让自己早点睡着？"),
        ("读书是个很好的习惯。", "是啊，那你平时最喜欢看哪一类的书呢？"),
        ("你可以试试做点运动。", "听起来不错，有这么多选择，我都想试试"),
        ("旅行能让人放松。", "对对，我也这么觉得"),
        ("想聊点什么呢？", "你能帮我想想给妈妈的生日准备什么礼物吗？"),
        ("好书其实挺多的。", "能推荐几本 easy 一点的英文小说吗？"),
    ]),
    ("where_i_am_now", False, None, [
        ("What are you doing right now?", "just sitting on the balcony with a cup of cocoa, watching the rain"),
        ("Where are you at the moment?", "I'm on the train home, it's packed and super stuffy in here"),
        ("Hi! Busy?", "a bit, I'm at the office and the printer has jammed for the third time"),
        ("你现在在干嘛呢？", "我正躺在沙发上听歌，外面在下雨"),
        ("在忙吗？", "在等外卖，饿得不行了"),
        ("你现在在哪儿？", "在机场候机呢，航班又晚点了"),
        ("What's happening over there?", "I'm waiting at the dentist's, kind of nervous tbh"),
        ("在家吗？", "在公司加班呢，办公室就剩我一个人了"),
    ]),
    ("plan_of_the_moment_warm", False, None, [
        ("Any plans for the weekend?", "I think I'll go to the flower market on Saturday, I'm so excited"),
        ("What are you going to do next?", "I'm about to make some pancakes and then take a long bath"),
        ("Sounds like a nice trip!", "yes! I've already booked the hostel and bought the train tickets, just need to pack"),
        ("Where will you go first?", "first stop is the old harbour, then a seafood lunch, then the castle in the afternoon"),
        ("How long will you stay?", "about ten days, I'll fly back on the 20th"),
        ("周末有什么安排？", "周六打算去郊区的农家乐摘草莓，好期待"),
        ("接下来准备做什么？", "等会儿准备去楼下散散步，然后早点睡"),
        ("行程都定好了吗？", "定好了，机票酒店都订了，第一天去古镇，第二天去爬山"),
        ("打算玩几天？", "大概一周吧，下周三回来"),
        ("今晚有什么打算？", "今晚打算 order pizza 然后看两集剧"),
    ]),
    ("mood_lately_after_advice", False, None, [
        ("Going for a short walk or calling a friend can really help. I hope tomorrow feels lighter for you.", "I've been feeling so drained lately, like my battery never fills up"),
        ("Everyone has ups and downs, and it's okay to rest. Is there anything that usually cheers you up?", "not really, I've just been feeling flat and unmotivated these past weeks"),
        ("Try to get some sunlight and keep a regular sleep schedule. How are you feeling now?", "still pretty low, I've had no energy for anything recently"),
        ("Remember that your worth isn't measured by one bad day. I'm always here to listen.", "I know, I just keep feeling like I'm falling behind everyone lately"),
        ("Journaling can help you sort through your thoughts. Would you like to try it?", "maybe, my head has been such a mess these days, I can't focus on anything"),
        ("It sounds like you've had a tough week. Be gentle with yourself.", "yeah, I've been irritable with everyone and I hate it"),
        ("Small steps still count as progress. What's one thing you could do today?", "honestly I've felt kind of useless lately, nothing I do seems to matter"),
        ("It's normal to feel nervous before something new. You've prepared well.", "I guess, but I keep doubting myself, what if I'm just not cut out for it"),
        ("Many people feel lonely in a new city at first. Have you met anyone nice yet?", "not yet, I feel pretty isolated at the moment and the weekends are the worst"),
        ("I'm really happy to hear that! What made today so good?", "no idea, I've just been in such a cheerful mood the last couple of days"),
        ("散散步或者和朋友聊聊天都会有帮助的，希望你明天心情好一点。", "最近总觉得特别累，怎么睡都睡不够"),
        ("每个人都会有低谷的时候，休息一下也没关系。有什么事能让你开心一点吗？", "好像没有，这段时间对什么都提不起兴趣"),
        ("可以试着多晒晒太阳，保持规律的作息。你现在感觉怎么样？", "还是有点丧，最近干什么都没劲"),
        ("不要用一件事来否定自己，我一直都在听你说。", "我知道，可我这阵子老觉得自己比别人差一截"),
        ("写写日记也许能帮你理清思路，要不要试试？", "可以试试，最近脑子里乱糟糟的，根本静不下心"),
        ("听起来你这周过得挺辛苦的，对自己温柔一点。", "是啊，最近脾气特别差，动不动就跟家人发火"),
        ("一点点进步也是进步，今天可以先做一件小事。", "说实话，最近觉得自己挺没用的，做什么都没意义"),
        ("面对新的事情紧张是正常的，你已经准备得很好了。", "话是这么说，但我还是怀疑自己到底行不行"),
        ("刚到一个新城市觉得孤单很正常，认识新朋友了吗？", "还没有，这段时间一个人挺孤独的，周末尤其难熬"),
        ("真为你高兴！今天是有什么好事吗？", "也没什么特别的，就是这两天心情一直很好"),
    ]),
    ("thanks_after_advice", False, None, [
        ("Try breaking the task into smaller pieces and rewarding yourself for each one. You can do it!", "that's really helpful, you always know how to make me feel better"),
        ("I'm glad our chats help you. I'll always be here whenever you want to talk.", "I really hope we can keep talking like this, you mean a lot to me"),
        ("Setting a small daily goal might make it easier to start. Good luck!", "thank you, I'll remember what you said and give it a go"),
        ("You've come a long way already, and I'm proud of you.", "aww that's so sweet, you're always so supportive of me"),
        ("把任务拆成小块，每完成一块就奖励一下自己，你一定可以的！", "这个办法太好了，你总是能让我心情变好"),
        ("很高兴我们的聊天对你有帮助，我会一直在这里陪你。", "希望我们以后也能一直这样聊下去，谢谢你"),
        ("每天定一个小目标，开始就会容易一些。祝你顺利！", "好的，我会记住你的话，试着去做"),
        ("你已经进步很多了，我为你感到骄傲。", "哈哈谢谢你，你总是这么支持我"),
    ]),
    ("taste_or_aim_after_advice", True, None, [
        ("Going for a short walk or calling a friend can really help. I hope tomorrow feels lighter for you.", "walking always works for me actually, I walk by the river most evenings"),
        ("Everyone has ups and downs, and it's okay to rest. Is there anything that usually cheers you up?", "baking! I've loved baking since I was little, cinnamon rolls especially"),
        ("Small steps still count as progress. What's one thing you could do today?", "I've been learning to play the cello this year and I really want to join an orchestra one day"),
        ("It's normal to feel nervous before something new. You've prepared well.", "thanks, I've wanted to work in wildlife conservation for years so this job matters to me"),
        ("Many people feel lonely in a new city at first. Have you met anyone nice yet?", "not yet, but I'm a big climber so I'm hoping to find a bouldering gym here"),
        ("每个人都会有低谷的时候，休息一下也没关系。有什么事能让你开心一点吗？", "弹吉他吧，我从高中就开始弹，一弹就开心"),
        ("一点点进步也是进步，今天可以先做一件小事。", "嗯，我最近在学韩语，虽然慢，但我想明年能去首尔交换"),
        ("面对新的事情紧张是正常的，你已经准备得很好了。", "谢谢，我一直都想当一名中学物理老师，这次机会很难得"),
        ("刚到一个新城市觉得孤单很正常，认识新朋友了吗？", "还没有，不过我特别喜欢打羽毛球，打算找个球队加入"),
        ("散散步或者和朋友聊聊天都会有帮助的，希望你明天心情好一点。", "我平时就喜欢晚饭后去公园快走，好几年的习惯了"),
    ]),
    ("taste_told_warmly", True, "preference", [
        ("How was your weekend?", "quiet, which I love, I've always been happiest pottering around my garden"),
        ("What have you been up to today?", "the usual, I bake bread every Sunday, it's the most calming thing in my week"),
        ("How has your day been so far?", "good, I went for my morning swim, I never miss it, it keeps me sane"),
        ("Anything fun happen today?", "not really, but you know me, I'm happiest with a good crime novel and a pot of tea"),
        ("What's on your mind?", "honestly I just love rainy evenings, they're my favourite kind of weather"),
        ("How are you feeling today?", "pretty good, hiking always lifts me up and I go most weekends"),
        ("Thanks for sharing that!", "haha of course, jazz has been my comfort music since I was a teenager"),
        ("Is there anything I can help you with?", "maybe later, I'm a huge fan of board games so I might ask you for new ones"),
        ("I like learning about new places.", "me too, I love wandering through old towns with narrow streets"),
        ("你今天过得怎么样？", "挺好的，我每天晚上都会练一会儿书法，写着写着心就静了"),
        ("周末都干嘛了呀？", "还是老样子，我特别喜欢周末去爬山，出一身汗整个人都舒服"),
        ("今天有什么开心的事吗？", "也没什么，我本来就很喜欢在家做饭，做饭的时候最开心"),
        ("你最近心情怎么样？", "还不错，我一直很喜欢听民谣，心情不好的时候听听就好了"),
        ("想聊点什么呢？", "聊聊养花吧，我特别爱养多肉，阳台上摆了好多"),
        ("读书是个很好的习惯。", "是的，我一直都很喜欢看历史类的书，从小就爱看"),
        ("旅行能让人放松。", "对，我最喜欢的就是去小城市慢慢逛，不喜欢赶景点"),
        ("你平时怎么放松？", "我一般会去游泳，游完整个人都轻松了，坚持好几年了"),
        ("你平时喜欢玩什么？", "我超爱拼乐高的，especially the big architecture sets"),
    ]),
    ("aim_recently_with_mood", True, "goal", [
        ("How have you been lately?", "busy! I've been learning Italian recently, it's hard and my progress is slow but I really want to be fluent"),
        ("What's new with you?", "I started studying for an accounting certificate a few months ago, some days I feel hopeless but I want to pass it"),
        ("How are you feeling today?", "a bit nervous, I've been thinking about switching careers into nursing lately and it's a big step"),
        ("Is everything okay?", "yeah, just tired, I've been practising piano every night recently because I want to play properly one day"),
        ("Anything you want to talk about?", "I've been trying to get into illustration professionally, it's scary but it's what I want"),
        ("How's work going?", "okay, but lately I've been looking for a job in a greener field, I really want work that means something"),
        ("What have you been up to?", "I've been learning to code in the evenings recently, I get stuck a lot but I want to become a developer"),
        ("You sound a bit down.", "a little, I've been training for my first marathon and my knee hurts, but I'm not giving up on it"),
        ("How are things going?", "okay, I've been saving up lately to study abroad, it feels far away some days but I really want it"),
        ("你最近忙什么呢？", "最近在学西班牙语，进步有点慢，有时候挺沮丧的，但我真的很想学好"),
        ("最近过得怎么样？", "还行，最近一直在准备考研，压力挺大的，但我想读心理学"),
        ("你还好吗？", "有点累，最近在考虑转行做设计，心里没底，但我挺想试试的"),
        ("最近压力大吗？", "挺大的，我最近在找一份离家近一点的工作，想换个环境"),
        ("今天感觉如何？", "有点受挫，最近在学游泳，总是呛水，不过我一定要学会"),
        ("有什么心事可以跟我说。", "我最近一直在想以后要不要自己开一家小花店，很想做但是有点怕"),
        ("你最近心情怎么样？", "还可以，最近开始学画油画了，画得不太好，但我希望能坚持下去"),
        ("最近在忙什么？", "最近在考驾照，科目二老是挂，有点郁闷，但今年一定要拿到"),
        ("最近忙啥呢？", "最近在自学 data analysis，有点难但我想转岗去做数据"),
    ]),
    ("life_change_warm", True, "fact", [
        ("How have you been lately?", "a lot has changed! I moved to Valencia last month and I'm still getting used to the heat"),
        ("What's new with you?", "we adopted a rescue greyhound called Pip, he's the gentlest thing ever"),
        ("How are you feeling today?", "relieved, I finally got diagnosed with coeliac disease, so no more gluten for me"),
        ("Anything exciting happening?", "yes!! I just started a new job as a lab technician and I love my team"),
        ("How's everything at home?", "busy, my partner and I got married in the spring and we're still settling in"),
        ("Is everything okay?", "mostly, I retired from teaching this year and I'm still figuring out what to do with my days"),
        ("你最近怎么样？", "挺好的，我上个月搬到了昆明，这边天气真舒服"),
        ("最近有什么新鲜事吗？", "有！我家新养了一只橘猫，特别粘人"),
        ("最近身体还好吗？", "前阵子查出来有高血压，现在每天都在吃药，饮食也清淡了"),
        ("工作还顺利吗？", "我换工作了，现在在一家出版社做编辑，挺喜欢的"),
        ("家里都好吗？", "都好，我刚当妈妈了，宝宝三个月大，每天又累又幸福"),
        ("有什么新变化吗？", "我刚搬去 Melbourne 了，still adjusting 但很喜欢这里"),
    ]),
    ("standing_fact_warm", True, "fact", [
        ("How was your day?", "long, I'm a night-shift nurse so my day is only just starting haha"),
        ("What did you do today?", "mostly worked, I run a small bike repair shop so Saturdays are always busy"),
        ("How are things?", "fine, being a single dad to twins keeps me on my toes"),
        ("Did you sleep well?", "not really, I have chronic back pain so sleeping is always a bit of a battle"),
        ("How's the weather there?", "cold, but that's normal, I live up in the mountains in a tiny village"),
        ("你今天忙吗？", "挺忙的，我是中学语文老师，今天改了一天作文"),
        ("今天过得怎么样？", "还行，我在一家医院做药剂师，每天都差不多"),
        ("周末去哪儿玩了？", "没出去，我有哮喘，天冷的时候不太敢出门"),
        ("家里人都好吗？", "都挺好，我跟爸妈住在一起，还有一个上初中的弟弟"),
        ("今天过得顺利吗？", "还不错，我在一家 startup 做 product manager，今天开了一天会"),
    ]),
]


_AFTER_ADVICE_TYPES: dict[str, str] = {
    "walking always works for me actually, I walk by the river most evenings": "preference",
    "baking! I've loved baking since I was little, cinnamon rolls especially": "preference",
    "I've been learning to play the cello this year and I really want to join an orchestra one day": "goal",
    "thanks, I've wanted to work in wildlife conservation for years so this job matters to me": "goal",
    "not yet, but I'm a big climber so I'm hoping to find a bouldering gym here": "preference",
    "弹吉他吧，我从高中就开始弹，一弹就开心": "preference",
    "嗯，我最近在学韩语，虽然慢，但我想明年能去首尔交换": "goal",
    "谢谢，我一直都想当一名中学物理老师，这次机会很难得": "goal",
    "还没有，不过我特别喜欢打羽毛球，打算找个球队加入": "preference",
    "我平时就喜欢晚饭后去公园快走，好几年的习惯了": "preference",
}


def prec37_template_rows(keeps: bool = True) -> list[dict[str, Any]]:
    """Every family's (prev, text) pairs, in a fixed order, distinct texts only; ``source`` is
    ``template_prec37``; each row carries its ``prev``; a kept line after advice is typed by what it tells.
    ``keeps=False``: the drop families alone (the ablation ``PAI_PRECISION_SETS=s20d``)."""
    rows = [r for r in context_rows(FAMILIES, "template_prec37") if keeps or not r["keep"]]
    for r in rows:
        if r["family"] == "taste_or_aim_after_advice":
            r["type"] = _AFTER_ADVICE_TYPES[r["text"]]
    return rows
