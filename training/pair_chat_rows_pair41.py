"""Chat-style pairs of helper ``pair41`` (issue 24, session 22): long chat sentences against a live memory.

Written one by one, as ``training/pair_chat_rows_upd29.py`` (same format, same labels: ``supersede``,
``retract``, ``refine``, ``unrelated``), never copied from an evaluation case or a public benchmark. The
family they hold is the one upd40 found on the public stores (bench/RESULTS.md, session 21): a companion-chat
message of several clauses, about the day or about somebody else, that shares a word or a theme with a live
memory, read by the shipped pair model as a supersede of that memory at 0.86-0.92.

- ``OTHER_GROUPS`` (family ``other``): the old memory is a taste, a goal, a hobby, a job or a home as the store
  holds it; the lines are **long multi-clause chat about something else** (a day out, a dish cooked, a friend's
  or a relative's news, a vague wish to try new things, a question or a request for advice, a mood) that names
  the memory's topic in passing or not at all: ``unrelated``. Beside them, in the same groups, **real changes
  told in the same long chatty way** (``supersede``: the old value ended and a new one told, with or without a
  change word, zh, en and zh-en mixed), and a detail of the same thing told at length (``refine``), so the
  model learns the length and the chat tone are not the cue.

Each group is one old memory and its lines; ``group`` names it, so folds never split a group
(``training.train_pair_model --chat-pair41``). ``--check FILE...`` (``training.hand_rows.check_command``)
lists the lines that are copies of a case file.
"""

# ruff: noqa: E501  (the written lines are data, one line each)
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from training.hand_rows import check_command, copies

_REL = {"S": "supersede", "X": "retract", "R": "refine", "U": "unrelated"}

# (group, old memory, lines "L new line", L one of S X R U)
OTHER_GROUPS: tuple[tuple[str, str, str], ...] = (
    ("taste_scifi_zh", "我喜欢看科幻电影", """
U 今天和两个老同学出去逛了一整天，先去吃了顿烤肉，然后去商场看了场电影，晚上又去唱歌，回到家腿都软了
U 我表弟最近迷上了拍短视频，天天拉着我给他当演员，说是要做一个自己的频道，我也不知道他能坚持多久
U 你说人为什么总是在周末的时候特别不想睡觉呢？明明很累了，还是想刷刷手机看看剧
U 最近天气变化好大，早上出门还挺冷的，中午就热得只想穿短袖，我都不知道该怎么穿衣服了
S 说实话我现在对科幻片没什么兴趣了，看多了都差不多，最近反而更爱看那种慢节奏的文艺片，一个人安安静静看完很舒服
S 这两年口味变了不少，以前追科幻大片，现在基本只看纪录片，尤其是讲自然和动物的
R 我特别喜欢那种讲时间旅行的科幻电影，每次看完都要琢磨好几天剧情，有时候还会去网上看别人的解析
"""),
    ("goal_guitar_zh", "我想买一把好一点的电吉他", """
U 发小前两天打电话说他要去外地闯一闯，下个月就走，认识快十年了，以后想一起喝酒都难
U 昨天下班路上下了好大的雨，我没带伞，只好在便利店门口站了半个多小时，还顺便买了个饭团当晚饭
U 我觉得自己这段时间状态不太好，做什么都提不起劲，可能是工作太累了吧，你有什么放松的好办法吗？
U 周末陪我妈去逛了花鸟市场，她买了两盆兰花，说要放在阳台上，结果回来发现阳台根本放不下
S 吉他的事我想了想还是算了，太贵了，而且最近也没时间练，我打算把这笔钱存起来明年去旅游
S 那把电吉他上个月已经买到手了，现在的目标是攒钱换一个好点的音箱，不然声音出不来
R 我看中的是一把二手的芬达，卖家说音色很好，就是价格还有点犹豫，想再去琴行试试手感
"""),
    ("taste_reading_zh", "我平时喜欢读历史类的书", """
U 昨天晚上我自己下厨做了一道宫保鸡丁，虽然花生有点炸糊了，但是味道还挺不错的，下次想再试试做鱼香肉丝
U 我邻居家的小孩今年要高考了，他们家这段时间气氛特别紧张，连电视都不开了，我路过都不敢大声说话
U 今天公司开了一下午的会，讲的都是明年的计划，听得我昏昏欲睡，散会的时候天都黑了
U 你知道附近有什么适合带小朋友去的地方吗？我侄女下周来我家住几天，我想带她出去玩玩
S 最近历史书看得少了，反而迷上了心理学的书，觉得更能帮我理解身边的人，已经连着看了好几本了
R 最近在看一套讲明朝的书，写得特别生动，我每天睡前都要翻几十页，感觉比电视剧还好看
R 我读历史书最喜欢做笔记，把人物关系画成图，这样看下去思路特别清楚
"""),
    ("hobby_games_zh", "我喜欢玩电子游戏", """
U 总感觉日子过得太单调了，想找点新鲜事做做，不能天天一个样，你说从哪儿下手比较好？
U 今天是我爸的生日，我们全家去饭店吃了一顿，他喝了点酒特别开心，一直在讲他年轻时候的事
U 我室友最近找了个女朋友，天天晚上打电话打到很晚，我都快睡不着了，又不好意思说他
U 最近在减肥，晚饭只吃一点点水果，饿得晚上翻来覆去睡不着，不知道这样有没有效果
S 游戏我已经基本不玩了，手柄都送给我弟了，现在下班更喜欢去楼下打打羽毛球，出出汗感觉好多了
S 跟你说，我现在把打游戏的时间都拿来学画画了，以前一打就是一晚上，想想挺浪费的
R 最近在玩一个开放世界的新游戏，地图特别大，周末一玩就是一整天，停都停不下来
"""),
    ("taste_music_film_zh", "我喜欢听古典音乐", """
U 今天跟同事去郊外的农家乐玩了一天，钓了几条鱼，还摘了好多草莓，回来的路上堵车堵了两个小时
U 我妈最近报了个老年大学的舞蹈班，每天在家里放音乐练，跳得可认真了，我看着也挺开心的
U 刚刚看了个新闻说下个月油价又要涨了，我每天开车上班，一个月油钱又得多好几百
U 能不能帮我想想周末去哪儿玩？我不想待在家里，但是也不想跑太远，最好是一个小时车程以内的
S 我现在其实更爱听爵士了，古典听着听着有点犯困，爵士那种随性的感觉更适合我现在的心情
R 最近特别迷巴赫的大提琴组曲，每天写东西的时候都放着，感觉整个人都静下来了
"""),
    ("job_teacher_zh", "我在一所小学当语文老师", """
U 我的一个大学同学最近说要去国外读博士，他准备了两年终于拿到录取了，我们几个同学都替他高兴
U 今天早上出门发现车被人刮了一道，也不知道是谁干的，物业说监控正好坏了，真是气死我了
U 你觉得现在买房合适吗？我和我老公看了好几个小区，价格都不便宜，有点拿不定主意
U 最近睡眠特别差，半夜总是醒，醒了就想东想西的，白天上课都没精神
S 我已经不在学校教书了，去年考进了教育局，现在主要做行政工作，每天对着电脑写材料
S 跟你说个事，我辞掉了学校的工作，自己开了个小小的托管班，虽然累，但是心里踏实
R 这学期我带的是三年级两个班，孩子们都特别调皮，每天改作文改到很晚
"""),
    ("home_city_zh", "我住在杭州", """
U 我姐姐最近要搬到另一个城市去了，她老公在那边找到了一份更好的工作，我们家以后聚一次就更难了
U 这个周末去了趟苏州，逛了拙政园和平江路，人特别多，不过小吃真的很好吃，买了一大堆回来
U 昨天和朋友聊了很久，她说她想换个城市生活，问我要不要一起，我说我还没想好
U 今天快递送错了，送到楼下另一个同名同姓的人家里去了，跑了好几趟才拿回来
S 跟你说个大新闻，我上个月已经从杭州搬到成都了，这边的生活节奏慢了好多，吃的也辣，还在慢慢适应
S 工作调动，我们一家现在住在南京了，房子是租的，离孩子学校很近
R 我住的那个小区在西湖边上，晚饭后经常去湖边走一圈，风景特别好
"""),
    ("diet_veg_zh", "我吃素", """
U 今天公司楼下新开了一家奶茶店，排队的人特别多，我等了快二十分钟才买到，结果味道一般般
U 我奶奶最近身体不太好，住院了，我这几天下班就去医院陪她，感觉有点累但是也没办法
U 你知道怎么能让自己早上起得来吗？我每天闹钟响好几遍都起不来，上班总是差点迟到
U 周末跟朋友去爬山了，山顶的风景特别好，就是下山的时候膝盖有点疼
S 我现在已经不完全吃素了，医生说我有点贫血，让我适当吃点鱼和鸡蛋，我就慢慢开始吃了
R 吃素快五年了，一开始是为了身体，后来觉得挺好的就一直坚持下来了
"""),
    ("goal_ielts_zh", "我在准备雅思考试", """
U 我表妹今年考上了研究生，全家人都特别高兴，昨天还专门请亲戚们吃了顿饭庆祝
U 今天下午去剪了个头发，理发师给我剪得太短了，照镜子的时候差点没认出自己
U 你能给我讲个笑话吗？今天心情不太好，被领导说了几句，一直闷闷不乐的
U 最近迷上了做手工，买了好多材料在家里做小饰品，做好了送给朋友们，她们都说好看
S 雅思我已经考完了，分数还挺满意的，现在在准备申请学校的材料，每天都在改文书
S 出国的计划暂时搁置了，家里有些事需要我留下来，雅思也就没再继续准备了
R 雅思的口语我最头疼，每天早上都对着镜子练一段，感觉还是有点紧张
"""),
    ("taste_scifi_en", "i love sci-fi movies", """
U spent the whole saturday out with my cousins, we did brunch, then bowling, then caught a movie and ended up at a karaoke bar till like 2am, i'm dead today
U my neighbor's kid just started high school and apparently he's super into making short films with his phone, kinda cute honestly
U do you ever think about why sunday evenings feel so heavy? like the weekend's not even over and i'm already dreading monday
U the weather has been so weird lately, freezing in the morning and then like summer by lunch, i never know what to wear
S honestly i've kind of gone off sci-fi, it all feels the same now, these days i'm way more into slow indie dramas, the quieter the better
S not really a sci-fi person anymore tbh, lately it's all documentaries for me, nature stuff mostly
R i'm obsessed with time travel movies in particular, i always end up reading fan theories for days after watching one
"""),
    ("goal_camera_en", "i want to buy a decent mirrorless camera", """
U one of my closest friends told me last week she's moving across the country for a new job, we've known each other since middle school so i'm kinda gutted
U got caught in the rain on the way home without an umbrella, ended up hiding in a gas station for half an hour and ate a sad hot dog for dinner
U i feel like i've been in a slump lately, nothing really excites me, maybe i'm just burned out from work, any ideas to unwind?
U took my mom to the farmers market on sunday, she bought like five plants and then realized we have zero space on the balcony lol
S gave up on the camera idea, way too expensive and my phone honestly does fine, putting that money toward a trip next spring instead
S finally got the camera last month!! now saving up for a proper lens because the kit one is meh
R been looking at a used sony, the seller says it's barely touched but i want to try it in a store first
"""),
    ("taste_reading_en", "i enjoy reading mystery novels", """
U tried cooking kung pao chicken from scratch last night, burned the peanuts a bit but it actually came out pretty good, gonna try a fish dish next
U the family next door has a kid taking finals this month and their whole house has gone dead silent, i feel like i have to tiptoe past their door
U had a four hour meeting this afternoon about next year's budget, i almost fell asleep twice and it was dark by the time we got out
U any idea where i could take a six year old around here? my niece is staying with me next week and i want to plan something fun
S i've drifted away from mysteries lately, been reading a lot of psychology books instead, they help me understand people better
R currently halfway through an agatha christie collection, i read a couple chapters every night before bed
"""),
    ("hobby_games_en", "i like playing video games", """
U honestly i'm bored of my routine, every week is a copy of the last one, how do people even shake things up?
U it was my dad's birthday today, we all went out for dinner and he told the same stories from when he was young, he was so happy
U my roommate got a girlfriend and now he's on the phone with her every night till 1am, i can hear everything through the wall
U trying to lose weight so i've been having just fruit for dinner, i'm starving every night and can't sleep, is that even working?
S i barely game anymore, gave my controller to my little brother, these days i'd rather play badminton after work
S i swapped all my gaming time for drawing lessons, used to lose whole nights to games and it feels so wasteful looking back
R been playing this huge open world game lately, lose entire weekends to it, the map is insane
"""),
    ("job_nurse_en", "i'm a nurse at the city hospital", """
U my college roommate just got into a phd program overseas after two years of trying, the whole group chat went crazy for him
U came out this morning and someone had scraped my car, building says the camera was broken that day, i'm so mad
U do you think it's a good time to buy a house? we've seen like six places and everything is so expensive, can't decide
U i've been sleeping so badly, waking up at 3am and my brain just won't shut off, i'm a zombie all day
S i don't work at the hospital anymore, took a job with an insurance company reviewing claims, way less running around
S so i quit nursing last spring and opened a tiny daycare, it's exhausting but it feels right
R working nights in the ER this month, it's chaos but the team is great
"""),
    ("home_city_en", "i live in seattle", """
U my sister is moving to another city, her husband got a better offer over there, it'll be so much harder for us to get together now
U spent the weekend in portland, walked around the food carts and a huge bookstore, came back with way too many snacks
U had a long talk with a friend who wants to move somewhere new and asked if i'd come along, told her i need to think about it
U the courier delivered my package to the wrong apartment again, took three trips to get it back
S big news, we moved from seattle to denver last month, the air is so dry here but the sun is amazing
S work transferred me so we live in austin now, renting a place near the kids' school
R my apartment is right by the water in seattle, i walk along the pier most evenings
"""),
    ("diet_veg_en", "i'm vegetarian", """
U a new bubble tea place opened by my office and the line was insane, waited twenty minutes and it was just okay
U my grandma's been in the hospital this week so i go sit with her after work, i'm tired but what can you do
U how do you make yourself get up in the morning? i snooze like five times and nearly miss the bus every day
U went hiking with friends on sunday, the view from the top was unreal but my knees hated the way down
S i'm not strictly vegetarian anymore, my doctor said i'm a bit anemic so i've started eating fish and eggs again
R been vegetarian for about five years now, started for health and just never looked back
"""),
    ("goal_marathon_mixed", "目标是明年跑一个全马", """
U 我同事上周去东京出差了一趟，带回来一堆零食，整个办公室都分到了，那个抹茶饼干真的 super good
U 最近 netflix 上那部新剧好火，朋友圈都在讨论，我还没开始看，怕一看就停不下来
U 今天 zoom 开会的时候网卡了好几次，老板说话断断续续的，后来干脆让我会后看录像
U can you recommend some podcasts? 我每天通勤一个多小时，想找点东西听听
S 全马的计划先放一放了，膝盖受了伤，医生让我至少半年别跑步，现在改成游泳了
S 跟你说，我已经报名了下个月的 half marathon，全马的目标改成后年了，先一步一步来
R 最近每周跑四次，周末拉一次 long run，已经能跑到二十五公里了
"""),
    ("taste_coffee_mixed", "i love iced americano", """
U 今天去了一家新开的 brunch 店，环境超 chill，点了个 eggs benedict，拍了好多照片发朋友圈
U 我老板最近 obsessed with 健身，天天在群里发他的 workout 打卡，搞得我们压力好大
U 昨天 debug 到凌晨两点，最后发现是一个 typo，我真的想哭
U 周末想去海边走走，but 天气预报说会下雨，你觉得要不要改天？
S 最近 switch 到燕麦拿铁了，美式喝多了胃不舒服，医生也说少喝点冰的
R 每天早上上班路上必买一杯美式，不加冰我都不习惯
"""),
    ("job_designer_mixed", "我是做 UI 设计的", """
U 我朋友最近去了一家 startup，说那边 vibe 特别好，每天还有免费午餐，听得我有点心动
U 今天 team 聚餐吃了火锅，大家喝了点酒，聊到很晚，明天还得早起开 standup
U 你觉得 iPad 和 Surface 哪个更适合画画？我妹妹想买一个，问我意见
U 这个月 rent 又涨了，房东说物价都在涨没办法，我真的考虑要不要搬家了
S 我已经 transition 到 product manager 了，不画图了，现在天天写需求文档开会
R 最近在做一个 app 的 redesign，主要负责 onboarding 那几页的交互
"""),
    ("pet_cat_mixed", "i have a cat named mochi", """
U 邻居家新养了一只金毛，每天早上六点就在楼道里叫，吵得我根本睡不着 lol
U 今天去宠物店给朋友挑生日礼物，她家是养仓鼠的，我看了半天也不知道买啥
U 我妈说小时候家里养过一条狗，后来走丢了，她到现在提起来还会难过
U 周末 volunteer 去了动物救助站，帮忙打扫笼子，累但是很有意义
S mochi 去年生病走了，我难过了好久，上个月领养了一只小狗，叫 tofu
R mochi 最近胖了好多，兽医说要控制一下猫粮，她每天都在门口喵喵叫
"""),
    ("goal_house_zh", "我打算明年在老家买套房", """
U 我一个远房亲戚最近说要去城里买房，问了我好多问题，我也不太懂，只能跟他说多看看
U 周末带孩子去了趟游乐园，排队排得腿都酸了，他倒是玩得特别开心，回来路上就睡着了
U 最近公司效益不太好，听说要裁员，大家都人心惶惶的，我也不知道会不会轮到我
U 你说现在存钱放银行好还是买点理财好？利息越来越低了，我有点纠结
S 买房的事不急了，我们商量了一下，还是先在现在住的城市租着，把钱留着给孩子上学用
R 老家的房子看中了一套三室的，离我爸妈家走路十分钟，价格也还能接受
"""),
    ("habit_run_zh", "我每天早上跑步", """
U 今天早上起来发现外面下雪了，楼下的小孩都在堆雪人，我站在窗口看了好久
U 我爸最近迷上了钓鱼，每个周末天不亮就出门，晚上才回来，我妈都说他把家当旅馆了
U 你知道跑步机和动感单车哪个更适合在家里用吗？我朋友想买一个，问我意见
U 最近晚上总是失眠，白天上班的时候头昏脑涨的，不知道是不是压力太大了
S 早上跑步已经停了一个多月了，脚踝扭伤了，现在改成每天晚上做瑜伽
R 早上一般跑五公里，沿着河边跑一圈正好，跑完再吃早饭特别舒服
"""),
    ("habit_yoga_en", "i do yoga every morning", """
U woke up to snow this morning, the kids downstairs were building a snowman and i just stood at the window watching for ages
U my dad got really into fishing, he's out before sunrise every weekend and my mom jokes he treats the house like a hotel
U treadmill or exercise bike for a small apartment? my friend is about to buy one and asked what i think
U can't sleep lately, my head is foggy all day at work, not sure if it's stress
S stopped the morning yoga a while ago, switched to evening swims at the community pool and i sleep way better
R usually a 30 minute flow before breakfast, sun salutations mostly, it really wakes me up
"""),
    ("goal_chinese_en", "i'm learning mandarin", """
U my coworker just got back from a trip to japan and brought everyone snacks, the matcha cookies were unreal
U watched a documentary about the silk road last night, didn't expect to be so into it, ended up reading about it till 1am
U could you suggest some podcasts? i have a long commute and want something to listen to
U my little brother just started college and keeps calling me homesick, it's kind of sweet but also i have work lol
S dropped mandarin after a year, the tones broke me, i'm doing spanish on duolingo now and loving it
R my mandarin tutor has me doing tone drills every day, still mixing up second and third tone
"""),
    ("hobby_painting_en", "i paint watercolors on weekends", """
U my niece had her school art show today, she made a clay dragon and was so proud, we took her for ice cream after
U went to the big art museum downtown with a friend, stood in front of a huge oil painting for like twenty minutes
U is it normal to feel lonely even when you're around people all day? i've been feeling that a lot lately
U the hardware store was packed today, everyone's renovating apparently, i just needed a light bulb
S haven't touched watercolors in months honestly, i've gotten into pottery instead, there's a studio near my place
R trying loose floral stuff in watercolor lately, wet on wet, it's messy but i love it
"""),
    ("goal_cook_zh", "我想学做西餐", """
U 今天加班到九点，回家路上随便吃了碗面，一个人坐在店里看着外面的车发呆，感觉有点孤单
U 我闺蜜下个月结婚，我要当伴娘，这几天一直在陪她挑婚纱，挑得眼睛都花了
U 你觉得猫和狗哪个更好养？我想养只宠物陪陪自己，但是又怕照顾不好
U 昨天看了一部特别感人的电影，讲的是一个老人和他的狗，我在电影院哭得稀里哗啦
S 西餐不打算学了，试了几次都做不好，现在跟着我妈学做家常菜，感觉更实用
R 最近在学做意面，番茄酱是自己熬的，上周做的那次我男朋友说比外面餐厅的还好吃
"""),
    ("taste_spicy_zh", "我特别能吃辣", """
U 周末和同事去吃了一家新开的日料，环境很好，就是有点贵，吃完还得再去吃碗面才饱
U 我外婆今年八十岁了，身体还很硬朗，每天早上还去公园打太极，比我都精神
U 你知道哪里能学游泳吗？我都三十岁了还不会游泳，有点不好意思去报班
U 今天地铁上有人吵架，吵得特别凶，最后被工作人员劝下车了，一车人都在看热闹
S 我现在基本不吃辣了，胃出了点问题，医生让我吃清淡点，慢慢也习惯了
R 我是无辣不欢的那种，吃什么都要加辣椒油，出去吃饭都点特辣
"""),
    ("job_bank_en", "i work at a bank", """
U my best friend just quit her job to travel for a year, part of me is so jealous and part of me thinks she's crazy
U the office coffee machine broke again and the whole floor was miserable all morning
U should i ask for a raise or just wait for the review in march? my manager is kind of hard to read
U went to a wedding this weekend, danced till my feet hurt and cried during the speeches, classic me
S a lot happened lately, i finally left the bank and i'm doing freelance photography full time, money is tight but i'm so much happier
S i'm out of banking, started at a nonprofit doing their finances last week
R at the bank i mostly handle small business loans, lots of paperwork but i like the clients
"""),
    ("partner_zh", "我有一个交往三年的男朋友", """
U 我闺蜜最近跟她男朋友分手了，天天找我哭诉，我陪她聊到半夜，第二天上班困得不行
U 今天在商场看到一对老夫妻手牵手逛街，突然觉得好羡慕，不知道我们老了会不会也这样
U 你觉得情人节送什么礼物比较好？我想送点特别的，不想再送围巾手表这些了
U 最近追的那部恋爱剧好甜，每集都看得我姨母笑，我妈说我看个剧至于吗
S 我们上个月分手了，和平分手，现在我一个人住，挺好的，有更多时间做自己的事
S 跟你说个好消息，我们已经领证了，下个月办婚礼，到时候给你看照片
R 他是做程序员的，工作很忙，我们一般周末才能见面，一起做饭看电影
"""),
)

# ``CUE_GROUPS`` (family ``cue``): the lines carry a word the pair model's change cue holds ("最近", "现在",
# "已经", "新", "lately", "now", "these days", "new", "actually") and tell no change of the memory: the day's or
# the week's news, an activity beside the one the memory holds, a mood, a greeting, a question or a request for
# advice about the memory's topic (``unrelated``), or more of the same thing (``refine``); beside them, a change
# told with the same words (``supersede``).
CUE_GROUPS: tuple[tuple[str, str, str], ...] = (
    ("cue_hobbies_list_zh", "我平时喜欢弹钢琴、画画和喝茶", """
U 最近迷上了一部古装剧，每天下班回来都要看两集，剧情一环扣一环的
U 你最近过得好吗？我这几天一直在忙家里的事，都没顾上跟你聊天
U 最近老是觉得心里空落落的，也说不上为什么，你能陪我聊聊吗
U 我现在在外面吃饭，等会儿回家再跟你细说
R 最近在练一首肖邦的夜曲，左手那段总是弹不顺，每天都要磨一个小时
R 最近新买了一套水彩颜料，周末画了两张风景，自己觉得还挺满意的
S 钢琴现在基本不弹了，手指受伤以后就放下了，这几个月改练书法
"""),
    ("cue_movies_zh", "我很喜欢看电影和旅游", """
U 最近看了一部讲亲情的片子，看完哭了好久，你有没有类似的电影可以推荐给我
U 最近有点想出去走走，但是不知道去哪里好，你有什么推荐的地方吗
U 现在天气越来越热了，出门一趟就是一身汗，真不想动
U 最近刚从海边回来，晒黑了好几度，同事都说差点没认出我来
R 最近特别喜欢那种公路片，一边看一边就想背起包出发
S 说实话现在对旅游没那么热衷了，带着孩子出门太累，更愿意在家附近转转
"""),
    ("cue_reading_focus_zh", "我一直很喜欢看书", """
U 我最近开始追一部很火的综艺，笑得停不下来，你看过吗
U 最近工作上压力好大，领导老是临时加任务，我都快撑不住了
U 你有什么办法让人静下心来吗？我现在做什么事都容易分心
U 现在周末基本都在补觉，感觉怎么睡都睡不够
R 最近在读一本讲敦煌的书，配图特别漂亮，一页一页舍不得翻太快
S 这一年几乎不怎么看书了，时间都拿去带孩子了，有空也只想刷刷短视频
"""),
    ("cue_fitness_zh", "我想把身材练得更好一点", """
U 最近总是觉得身体很累，干什么都没精神，是不是该去医院看看
U 你最近有没有听说什么好用的记账软件？我想把开销管起来
U 现在每天下班都要挤一个多小时的地铁，回到家什么都不想干
U 最近胃口特别好，一顿能吃两碗饭，我妈说我是在长身体哈哈
R 最近每周去三次健身房，主要练腿和背，教练说我进步挺快的
S 练身材的事先放一放了，最近查出来腰椎有点问题，医生让我先好好养着
"""),
    ("cue_job_search_zh", "我在考虑换一份工作", """
U 最近看了一本讲职场沟通的书，里面有些方法还挺实用的
U 现在同事之间关系有点紧张，开会的时候大家都不太说话，气氛怪怪的
U 我最近在学做饭，有没有简单一点的家常菜推荐给我
U 最近天天加班，连周末都要去公司，我都快忘了休息是什么感觉了
R 最近投了好几份简历，主要看互联网公司的运营岗位，已经有两家约了面试
S 新工作已经定下来了，下个月就去一家医药公司报到，不用再纠结了
"""),
    ("cue_mood_zh", "我性格比较内向，不太爱说话", """
U 今天心情好了不少，谢谢你昨天陪我聊了那么久
U 最近跟几个朋友去唱了一次歌，虽然我没怎么唱，但是听他们唱也挺开心的
U 你觉得怎么才能睡个好觉？我最近总是半夜醒
U 最近公司新来了一个实习生，特别能说，整个办公室都热闹了不少
R 在人多的地方我还是会紧张，最近开会发言的时候手心都是汗
"""),
    ("cue_food_zh", "我喜欢吃清淡的菜", """
U 最近在学做川菜，试着做了一次水煮鱼，家里人说比外面的还好吃
U 先不聊了，我现在得去做饭，晚点再来找你
U 最近楼下开了一家烤鸭店，排队的人特别多，我还没去尝过
U 你知道怎么挑西瓜吗？我每次买的都不甜
R 最近早饭都是小米粥配青菜，吃得特别舒服
S 口味现在重了不少，在湖南待了两年，现在顿顿离不开辣椒
"""),
    ("cue_game_zh", "我喜欢玩手机游戏", """
U 最近有什么好看的动画片吗？我侄子周末要来我家
U 我最近在学一门新的编程语言，感觉有点难，你能给我一些建议吗
U 现在每天晚上都陪我妈去广场散步，她说这样睡得好
U 最近家里换了新的沙发，坐着特别舒服，我都不想起来了
R 最近在玩一个种田的游戏，每天上线收菜，感觉特别治愈
S 手机游戏我现在已经全删了，玩得太多眼睛受不了，改成每天看半小时书
"""),
    ("cue_hobbies_list_en", "i like hiking, photography and baking", """
U lately i've been binge watching a cooking show, i can't stop, do you know any good ones?
U how have you been lately? things have been so hectic at home i haven't had time to chat
U i'm kind of in a weird mood these days, can't put my finger on it, can we just talk for a bit?
U i'm out for dinner right now, i'll tell you more when i get home
R lately i've been trying sourdough, my third loaf finally rose properly
R just got a new lens for my camera and took it on a trail on sunday, the shots came out great
S i don't really hike anymore since the knee surgery, these days it's mostly swimming
"""),
    ("cue_movies_en", "i love watching movies and traveling", """
U watched a really moving family drama lately and cried for like an hour, got anything similar to recommend?
U i've been itching to get away lately but i have no idea where to go, any ideas?
U it's getting so hot now, i'm drenched the minute i step outside
U just got back from the beach, i'm so tan now my coworkers barely recognized me
R lately i'm really into road movies, they make me want to pack a bag and go
S honestly travel isn't my thing anymore, with the kids it's exhausting, these days we stay close to home
"""),
    ("cue_reading_en", "i've always loved reading", """
U lately i started a reality show everyone's talking about, it's so dumb but i can't stop laughing
U work has been crushing me lately, my manager keeps piling on last minute tasks
U any tricks to actually focus? i get distracted by everything now
U i basically sleep through my weekends now, i can never get enough rest
R lately i'm reading a big illustrated book about ancient egypt, i go slow on purpose
S i barely read anymore this year, the baby takes all my time and when i'm free i just scroll
"""),
    ("cue_fitness_en", "i want to get in better shape", """
U i've been feeling exhausted lately, no energy for anything, should i get checked out?
U do you know a good budgeting app? i want to get my spending under control now
U my commute is over an hour each way now, when i get home i can't do anything
U my appetite is huge lately, my mom jokes i'm having a growth spurt at 30
R i'm at the gym three times a week now, mostly legs and back, my trainer says i'm progressing
S getting in shape is on hold, found out i have a back issue and the doctor wants me resting for now
"""),
    ("cue_job_search_en", "i'm thinking about changing jobs", """
U i read a book about communication at work lately, some of the tips are actually useful
U things are tense between coworkers now, nobody talks in meetings, it's weird
U i'm learning to cook lately, any easy dinner ideas?
U been working every weekend lately, i forgot what a day off feels like
R sent out a bunch of applications this week, mostly marketing roles, two interviews lined up
S new job is sorted, i start at a logistics company next month, no more agonizing
"""),
    ("cue_mood_en", "i'm pretty introverted", """
U i feel much better now, thanks for talking with me so long yesterday
U went to karaoke with some friends lately, i barely sang but it was fun listening
U how do you get good sleep? i keep waking up at night lately
U a new intern started at work and she's so chatty, the whole office feels livelier now
R big groups still make me nervous, lately my palms sweat whenever i speak up in meetings
"""),
    ("cue_food_en", "i prefer light, simple food", """
U lately i've been learning to cook sichuan dishes, made a spicy fish stew and my family loved it
U i need to go make dinner now, talk later!
U a new roast duck place opened downstairs lately and the line is insane, haven't tried it yet
U how do you pick a sweet watermelon? mine are always bland
R lately breakfast is just congee and greens, feels so good
S my taste has gotten way heavier, two years in hunan and now i need chili with every meal
"""),
    ("cue_goal_tools_mixed", "希望能买齐一套 home studio 的设备", """
U 最近想给自己找点新鲜事做，but 又不知道从哪开始，你有什么 idea 吗
U 最近在听一个很火的 podcast，讲创业的，每集都挺有意思
U 现在房租涨了好多，每个月工资一大半都交给房东了，好心疼
U 我朋友最近说要去 Berlin 发展，说那边做音乐的人多
R 最近先入了一个 audio interface，麦克风还在看，预算有点紧
S studio 的计划先 cancel 了，要攒钱付首付，设备以后再说
"""),
    ("cue_city_mixed", "我住在上海", """
U 最近去了一趟青岛，八大关真的好 chill，拍了超多照片
U 现在天天下雨，衣服都晾不干，上海的梅雨季真的 annoying
U 我同事最近说要 relocate 到新加坡，公司给他 offer 了
U 最近有什么好玩的 exhibition 吗？周末想出去逛逛
R 住在徐汇这边，楼下就是梧桐树，最近秋天特别好看
S 现在已经 based in 深圳了，上个月刚搬过来，还在适应这边的节奏
"""),
)

GROUPS: tuple[tuple[str, str, str], ...] = OTHER_GROUPS + CUE_GROUPS


def _rows(groups: tuple[tuple[str, str, str], ...], family: str) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for group, old, lines in groups:
        for line in lines.strip().splitlines():
            label, new = line.split(" ", 1)
            rows.append({"old": old, "new": new.strip(), "relation": _REL[label], "slot": f"chat41_{group}",
                         "family": family})
    return rows


def chat_pair_rows() -> list[dict[str, Any]]:
    """The written pairs as ``train_pair_model`` rows (``old``, ``new``, ``relation``, ``slot``: the group,
    so folds keep a group together; ``family``: ``other`` or ``cue``)."""
    return _rows(OTHER_GROUPS, "other") + _rows(CUE_GROUPS, "cue")


def case_copies(paths: list[Path]) -> list[str]:
    """The written lines (20 flattened characters or more) found inside a case file."""
    return copies([r["new"] for r in chat_pair_rows()], paths, min_chars=20)


if __name__ == "__main__":
    sys.exit(check_command(None, __doc__.splitlines()[0], case_copies))
