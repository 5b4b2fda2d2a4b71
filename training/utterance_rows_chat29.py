"""Hand-written chat-style utterances for the memory classifier (issue 24, session 16, helper first29).

Unlike the template sets (frame x slot), every row here is one sentence written on its own, in many
voices: English, Chinese and mixed; typos, slang, emoji, hedges, habits, long messages. The families are
the first-statement failures issue 24 names: hedged and habitual tastes, ongoing personal projects that
no word list names, durable possessions and circumstances (a car, a phone, a phone plan, a job said with
an age), and their hard negatives: the day's events, moods, thanks, requests (code above all), sarcasm,
replies to the assistant, someone else's habit, a want of the moment.

No sentence was copied, translated or paraphrased from an evaluation set (the bench case files, the
shared dev cases, the public benchmarks); ``python -m training.utterance_rows_chat29 --check`` re-checks
the non-frozen case files for overlaps. ``python -m training.utterance_rows_chat29 --append`` adds the rows
the corpus lacks (source ``hand``, family ``chat29_*``), then run
``python -m training.train_memory_classifier --normalise-corpus`` and retrain (training/README.md).
``--remove`` takes them out again (the ablation's old corpus).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import unicodedata
from pathlib import Path

from training.train_memory_classifier import CORPUS

P, F, G, J, C = "preference", "fact", "goal", "project", "constraint"
D = None  # drop

# (text, type or None for drop, family)
ROWS: list[tuple[str, str | None, str]] = [
    # --- hedged tastes (keep, preference) ---
    ("I guess I kinda like pottery? it's relaxing", P, "hedged_pref"),
    ("idk, i think i sort of enjoy birdwatching now", P, "hedged_pref"),
    ("I suppose I'm a bit of a jazz person these days", P, "hedged_pref"),
    ("not gonna lie, i'm kind of into bouldering lately", P, "hedged_pref"),
    ("i mean i'm no expert but i do like a good whisky", P, "hedged_pref"),
    ("maybe it's weird but I really enjoy ironing, it calms me down", P, "hedged_pref"),
    ("honestly I think I prefer tea over coffee, most days anyway", P, "hedged_pref"),
    ("i'm sorta a cat person i think", P, "hedged_pref"),
    ("kinda into sci-fi audiobooks, they make the commute bearable", P, "hedged_pref"),
    ("ngl i'm slowly becoming a board game nerd", P, "hedged_pref"),
    ("probably my favourite thing to cook is risotto tbh", P, "hedged_pref"),
    ("i think i like winter more than summer? less sweaty lol", P, "hedged_pref"),
    ("I'd say I lean towards quiet cafes rather than busy bars", P, "hedged_pref"),
    ("i dunno, spicy food is kinda my thing", P, "hedged_pref"),
    ("I've grown to like running, weirdly enough", P, "hedged_pref"),
    ("i guess chess is my comfort hobby", P, "hedged_pref"),
    ("我好像挺喜欢做手工的，尤其是皮具", P, "hedged_pref"),
    ("说不上特别爱，但我还挺喜欢听播客的", P, "hedged_pref"),
    ("我应该算是比较喜欢安静的地方吧", P, "hedged_pref"),
    ("可能我更喜欢看纪录片，电视剧追不动", P, "hedged_pref"),
    ("感觉自己有点爱上攀岩了哈哈", P, "hedged_pref"),
    ("我大概是个甜食控吧，蛋糕奶茶都爱", P, "hedged_pref"),
    ("其实我蛮喜欢下围棋的，就是下得不好", P, "hedged_pref"),
    ("我挺吃辣的，不辣不欢那种", P, "hedged_pref"),
    ("好像越来越喜欢一个人去看展了", P, "hedged_pref"),
    ("我也说不清，反正就是喜欢雨天", P, "hedged_pref"),
    ("我感觉我还是更喜欢猫一点", P, "hedged_pref"),
    ("i think i'm kinda into 手冲咖啡 lately", P, "hedged_pref"),
    ("我应该算 indie music 的粉吧", P, "hedged_pref"),
    ("说实话我挺喜欢 hiking 的，虽然爬得很慢", P, "hedged_pref"),
    # --- habits (keep, preference) ---
    ("I always get the window seat if I can", P, "habit_pref"),
    ("i always pick the vegetarian option when we order in", P, "habit_pref"),
    ("I usually go for dark roast, the light stuff tastes sour to me", P, "habit_pref"),
    ("every morning i do like 20 min of yoga before work", P, "habit_pref"),
    ("I tend to read before bed, usually fantasy", P, "habit_pref"),
    ("i almost always walk to work, it's only 2 miles", P, "habit_pref"),
    ("I basically live in hoodies and jeans", P, "habit_pref"),
    ("we do pizza and a movie every friday night, it's our thing", P, "habit_pref"),
    ("i swim laps most mornings before the office opens", P, "habit_pref"),
    ("I'm the type who always orders the same thing, chicken pad thai", P, "habit_pref"),
    ("my go-to breakfast is oatmeal with blueberries", P, "habit_pref"),
    ("i stick to android phones, never liked iphones", P, "habit_pref"),
    ("usually I take the train instead of flying when I can", P, "habit_pref"),
    ("i pretty much only wear black lol", P, "habit_pref"),
    ("Sundays I always call my grandma and then bake something", P, "habit_pref"),
    ("i mostly shop at farmers markets on saturdays", P, "habit_pref"),
    ("whenever I travel I pick hostels over hotels, cheaper and more fun", P, "habit_pref"),
    ("I journal every night, been doing it for years", P, "habit_pref"),
    ("我还是习惯用纸质笔记本记东西", P, "habit_pref"),
    ("我日常穿衣基本就是卫衣加牛仔裤", P, "habit_pref"),
    ("我一般都是早上六点起来跑步", P, "habit_pref"),
    ("我习惯睡前看半小时书", P, "habit_pref"),
    ("我每天中午都要午睡一会儿，不睡下午就废了", P, "habit_pref"),
    ("点外卖我一般都点麻辣烫", P, "habit_pref"),
    ("我买衣服基本只买优衣库", P, "habit_pref"),
    ("周末我一般都去游泳", P, "habit_pref"),
    ("我一直用 Kindle 看书，纸书反而不习惯了", P, "habit_pref"),
    ("我通勤都是骑电动车，不爱挤地铁", P, "habit_pref"),
    ("我喝咖啡一直只喝美式，不加糖", P, "habit_pref"),
    ("我每周三晚上都会去打羽毛球", P, "habit_pref"),
    ("出门旅行我都习惯住民宿", P, "habit_pref"),
    ("平时做饭我都是少油少盐", P, "habit_pref"),
    ("我写代码一直用 vim，改不过来了", P, "habit_pref"),
    ("我基本每天都要喝一杯豆浆", P, "habit_pref"),
    ("我听歌基本只听粤语歌", P, "habit_pref"),
    ("i usually 周末 go hiking with my dog", P, "habit_pref"),
    ("我一般都 order 燕麦拿铁，lactose intolerant 嘛", P, "habit_pref"),
    # --- plain tastes in chat voice (keep, preference) ---
    ("tbh nothing beats a bowl of pho when it's cold out", P, "chat_pref"),
    ("obsessed with k-dramas rn, can't stop", P, "chat_pref"),
    ("mountains > beaches, fight me", P, "chat_pref"),
    ("i looove thrifting, best way to spend a saturday", P, "chat_pref"),
    ("big fan of true crime podcasts", P, "chat_pref"),
    ("can't stand mushrooms, the texture is gross", P, "chat_pref"),
    ("I hate crowded places, they drain me", P, "chat_pref"),
    ("not really a fan of rap, more into folk", P, "chat_pref"),
    ("my fav color has always been forest green", P, "chat_pref"),
    ("i'm a sucker for anything with matcha in it", P, "chat_pref"),
    ("i'm not big on sweets, i'd pick chips any day", P, "chat_pref"),
    ("我超级讨厌香菜，闻到都不行", P, "chat_pref"),
    ("我最爱的运动是乒乓球", P, "chat_pref"),
    ("宫崎骏的电影我都很喜欢", P, "chat_pref"),
    ("我对海鲜没什么兴趣", P, "chat_pref"),
    ("我是重度咖啡依赖者哈哈", P, "chat_pref"),
    ("我不太喜欢吵闹的地方，太累了", P, "chat_pref"),
    ("我特别喜欢秋天，不冷不热", P, "chat_pref"),
    ("本人资深猫奴一枚🐱", P, "chat_pref"),
    ("火锅永远的神，一周吃三次都不腻", P, "chat_pref"),
    # --- durable facts in chat voice (keep, fact) ---
    ("I drive an old Honda Civic, like 2009", F, "chat_fact"),
    ("my car's a beat up subaru outback", F, "chat_fact"),
    ("I'm on an iphone 13, still works fine", F, "chat_fact"),
    ("i use a pixel 8 for everything", F, "chat_fact"),
    ("my phone plan is the unlimited one from t-mobile", F, "chat_fact"),
    ("I'm on a prepaid plan with 10gb a month", F, "chat_fact"),
    ("im 31 and i work as a dental hygienist", F, "chat_fact"),
    ("i'm 24, freelance illustrator, mostly from home", F, "chat_fact"),
    ("42 years old, accountant, two kids", F, "chat_fact"),
    ("i work nights at a warehouse", F, "chat_fact"),
    ("I teach 5th grade math in a public school", F, "chat_fact"),
    ("been a nurse for about 6 years now", F, "chat_fact"),
    ("I live in a tiny studio in Lisbon", F, "chat_fact"),
    ("we rent a flat on the outskirts of Manchester", F, "chat_fact"),
    ("grew up in a small town in Ohio", F, "chat_fact"),
    ("I'm allergic to shellfish, found out the hard way", F, "chat_fact"),
    ("I have type 1 diabetes so I count carbs a lot", F, "chat_fact"),
    ("i'm colorblind, red-green", F, "chat_fact"),
    ("we have a 3 year old beagle named Toast", F, "chat_fact"),
    ("got two rabbits at home, Mochi and Bean", F, "chat_fact"),
    ("I'm left handed btw", F, "chat_fact"),
    ("my wife and I have been married 10 years", F, "chat_fact"),
    ("i speak spanish and a bit of portuguese", F, "chat_fact"),
    ("i've been sober 4 years, no alcohol for me", F, "chat_fact"),
    ("I ride a vespa to work", F, "chat_fact"),
    ("i'm a student, second year of nursing school", F, "chat_fact"),
    ("I own a small bakery downtown", F, "chat_fact"),
    ("we live with my in-laws for now, it's a big house", F, "chat_fact"),
    ("我开的是一辆二手的思域", F, "chat_fact"),
    ("我家的车是比亚迪，开了三年了", F, "chat_fact"),
    ("我用的手机是小米14", F, "chat_fact"),
    ("我手机还是 iPhone 11，一直没换", F, "chat_fact"),
    ("我办的是移动的流量套餐，一个月30G", F, "chat_fact"),
    ("我今年29，在一家外企做财务", F, "chat_fact"),
    ("我是做室内设计的，干了快八年了", F, "chat_fact"),
    ("我在医院当护士，经常上夜班", F, "chat_fact"),
    ("我住在成都，租的房子", F, "chat_fact"),
    ("我老家是湖南衡阳的", F, "chat_fact"),
    ("我对芒果过敏，吃了嘴巴会肿", F, "chat_fact"),
    ("我有轻度近视，六百度", F, "chat_fact"),
    ("家里养了一只柯基，叫豆豆", F, "chat_fact"),
    ("我是独生子女", F, "chat_fact"),
    ("我在读研二，专业是材料", F, "chat_fact"),
    ("我有个三岁的女儿", F, "chat_fact"),
    ("我吃饭写字都用左手", F, "chat_fact"),
    ("我不喝酒的，一滴都不喝", F, "chat_fact"),
    ("我骑的是一辆捷安特的公路车", F, "chat_fact"),
    ("I'm 35 and work remote as a UX writer", F, "chat_fact"),
    ("我在一家电商公司做 BI analyst", F, "chat_fact"),
    ("我开的是 Tesla Model 3，充电挺方便的", F, "chat_fact"),
    # --- goals, hedged or long-horizon (keep, goal) ---
    ("hoping to finish a half marathon next spring", G, "chat_goal"),
    ("I kinda want to learn japanese properly this year", G, "chat_goal"),
    ("one day i wanna open my own little bookshop", G, "chat_goal"),
    ("trying to save up for a house deposit by 2028", G, "chat_goal"),
    ("my plan is to switch careers into data science eventually", G, "chat_goal"),
    ("i'd love to visit iceland someday", G, "chat_goal"),
    ("goal for this year: read 30 books", G, "chat_goal"),
    ("i want to get my drivers license before summer", G, "chat_goal"),
    ("thinking seriously about doing a masters abroad in a couple years", G, "chat_goal"),
    ("I'm aiming to lose about 10 kg by my wedding", G, "chat_goal"),
    ("我今年想把驾照考下来", G, "chat_goal"),
    ("我打算明年去考教师资格证", G, "chat_goal"),
    ("以后想带爸妈去一趟新疆", G, "chat_goal"),
    ("我的小目标是年底前存够五万", G, "chat_goal"),
    ("想在三十岁之前跑一次全马", G, "chat_goal"),
    ("我一直想学会游泳，今年一定要学", G, "chat_goal"),
    ("计划明年把日语考到N2", G, "chat_goal"),
    ("希望自己能早点转行做产品经理", G, "chat_goal"),
    ("这辈子想去一次南极", G, "chat_goal"),
    ("i want to 今年 pass the CPA exam", G, "chat_goal"),
    # --- ongoing personal projects no word list names (keep, project) ---
    ("I'm restoring an old 1970s sailboat in my dad's garage", J, "chat_project"),
    ("slowly putting together a little booklet on our street's history", J, "chat_project"),
    ("i've been fixing up a vintage motorbike for like a year now", J, "chat_project"),
    ("working on a family cookbook with all of grandma's recipes", J, "chat_project"),
    ("I'm knitting a blanket for my niece, halfway done", J, "chat_project"),
    ("been building a treehouse for the kids on weekends", J, "chat_project"),
    ("digitizing all my parents' old slides, there are hundreds", J, "chat_project"),
    ("I'm writing a fantasy novel, chapter 12 now", J, "chat_project"),
    ("turning our back yard into a veggie garden, one bed at a time", J, "chat_project"),
    ("i'm making a short documentary about local fishermen", J, "chat_project"),
    ("renovating the bathroom myself, tiles are the worst part", J, "chat_project"),
    ("putting together a photo zine of my city at night", J, "chat_project"),
    ("I've been mapping our family tree back to the 1800s", J, "chat_project"),
    ("building a mechanical keyboard from scratch, waiting on switches", J, "chat_project"),
    ("im converting a van into a camper, slowly lol", J, "chat_project"),
    ("translating my grandpa's war letters into english", J, "chat_project"),
    ("composing an album of lofi tracks, 5 of 10 done", J, "chat_project"),
    ("我在修一台老的上海牌手表", J, "chat_project"),
    ("最近在给小区写一本老街坊的回忆录", J, "chat_project"),
    ("我正在自己装修老房子，厨房刚弄完", J, "chat_project"),
    ("在整理我外公留下的老照片，准备做成相册", J, "chat_project"),
    ("我在自学做一个记账的小程序", J, "chat_project"),
    ("一直在翻新一辆八十年代的老凤凰自行车", J, "chat_project"),
    ("在写一本关于家乡方言的小册子", J, "chat_project"),
    ("我在阳台搭一个小型鱼菜共生系统", J, "chat_project"),
    ("最近在给女儿做一个手工娃娃屋", J, "chat_project"),
    ("我在拍一个关于外婆的纪录短片", J, "chat_project"),
    ("在录一张自己的民谣小专辑，写了六首了", J, "chat_project"),
    ("我在做一个 side project，一个帮人找猫的网站", J, "chat_project"),
    ("最近在 restore 一台老的 Walkman", J, "chat_project"),
    # (eight standing instructions in chat words were written too and taken out: fitted 4 times, they made
    # one-off Chinese requests to the assistant read as rules; standing instructions have their own model)
    # --- requests: code and one-offs (drop) ---
    ("can you write me a python script that renames all my photos by date", D, "request_code"),
    ("write a regex that matches email addresses pls", D, "request_code"),
    ("give me a bash one liner to find big files", D, "request_code"),
    ("pls make a function that reverses a linked list in java", D, "request_code"),
    ("can u fix this sql query, it keeps timing out", D, "request_code"),
    ("show me how to sort a dict by value in python", D, "request_code"),
    ("write a quick excel formula to sum column B if A says paid", D, "request_code"),
    ("generate a react component for a login form", D, "request_code"),
    ("帮我写个python脚本，把文件夹里的图片都转成png", D, "request_code"),
    ("写一个正则匹配手机号", D, "request_code"),
    ("帮我看看这段代码为什么报错", D, "request_code"),
    ("用 JS 写个防抖函数给我", D, "request_code"),
    ("帮我写个 SQL 查一下每个月的订单量", D, "request_code"),
    ("能不能帮我写一个爬虫抓一下豆瓣评分", D, "request_code"),
    ("help me write a cover letter for a barista job", D, "request_once"),
    ("translate this into french for me: see you tomorrow", D, "request_once"),
    ("what's a good gift for a 10 year old", D, "request_once"),
    ("remind me what the capital of australia is", D, "request_once"),
    ("can you summarize this article real quick", D, "request_once"),
    ("give me 3 names for a goldfish", D, "request_once"),
    ("帮我润色一下这封邮件", D, "request_once"),
    ("给我推荐几部周末能看的电影", D, "request_once"),
    ("帮我算一下 150 乘以 12", D, "request_once"),
    ("明天北京天气怎么样", D, "request_once"),
    ("帮我想个生日祝福语，给同事的", D, "request_once"),
    ("把这段话翻译成英文", D, "request_once"),
    ("能帮我列个下周的健身计划吗", D, "request_once"),
    # --- sarcasm (drop) ---
    ("oh yeah I just LOVE sitting in traffic for two hours", D, "sarcasm"),
    ("wow, my favourite thing: getting rained on without an umbrella", D, "sarcasm"),
    ("nothing i enjoy more than doing taxes on a sunday night. truly", D, "sarcasm"),
    ("love that my flight got delayed again, amazing", D, "sarcasm"),
    ("great, another meeting that could've been an email, my fav", D, "sarcasm"),
    ("yeah i adore stepping on lego at 3am /s", D, "sarcasm"),
    ("sure, I absolutely love when the wifi dies mid call", D, "sarcasm"),
    ("I'm SO into getting spam calls every hour", D, "sarcasm"),
    ("我可太喜欢周末加班了呢", D, "sarcasm"),
    ("真是爱死了挤早高峰的地铁", D, "sarcasm"),
    ("我最喜欢排两个小时的队了，真的", D, "sarcasm"),
    ("好开心啊，又被甲方改了第八版", D, "sarcasm"),
    ("太棒了，快递又丢了", D, "sarcasm"),
    ("哇我超爱半夜被楼上装修吵醒的", D, "sarcasm"),
    ("oh great, my landlord raised the rent again, just what i wanted", D, "sarcasm"),
    # --- the day's events (drop) ---
    ("just got back from a walk by the river, so nice out", D, "day_event"),
    ("had sushi for lunch today", D, "day_event"),
    ("went to the dentist this morning ugh", D, "day_event"),
    ("watched a movie with friends tonight, it was ok", D, "day_event"),
    ("finally cleaned my whole apartment today", D, "day_event"),
    ("the bus was late again this morning", D, "day_event"),
    ("i baked cookies earlier, they came out kinda flat", D, "day_event"),
    ("spent the afternoon at the mall with my sister", D, "day_event"),
    ("went for a run this morning, 5k in 30 min", D, "day_event"),
    ("my team won the trivia night yesterday lol", D, "day_event"),
    ("got a haircut today, shorter than i wanted", D, "day_event"),
    ("just finished a 3 hour meeting, brain is fried", D, "day_event"),
    ("tried a new ramen place tonight, pretty good", D, "day_event"),
    ("今天去公园散了会儿步", D, "day_event"),
    ("刚吃完一顿火锅，好撑", D, "day_event"),
    ("今天下午去看了场电影", D, "day_event"),
    ("早上地铁太挤了", D, "day_event"),
    ("刚下班，今天开了一天的会", D, "day_event"),
    ("昨天和朋友去唱K了", D, "day_event"),
    ("今天做了个蛋糕，有点塌了哈哈", D, "day_event"),
    ("刚才去超市买了点菜", D, "day_event"),
    ("今天终于把房间收拾干净了", D, "day_event"),
    ("下午去剪了个头发", D, "day_event"),
    ("今晚吃的是麻辣香锅", D, "day_event"),
    ("今天 meeting 开到七点，累死", D, "day_event"),
    ("just had the best 煎饼 for breakfast lol", D, "day_event"),
    # --- the day's plans and momentary wants (drop) ---
    ("gonna grab tacos tonight i think", D, "momentary_want"),
    ("i feel like pizza rn", D, "momentary_want"),
    ("might go to the gym later, might not lol", D, "momentary_want"),
    ("thinking of watching something scary tonight", D, "momentary_want"),
    ("I want a nap so bad right now", D, "momentary_want"),
    ("今晚想吃烧烤", D, "momentary_want"),
    ("等会儿打算去楼下买杯奶茶", D, "momentary_want"),
    ("周六可能去趟宜家", D, "momentary_want"),
    ("现在好想睡觉", D, "momentary_want"),
    ("明天早上要去银行办点事", D, "momentary_want"),
    # --- moods (drop) ---
    ("ugh today sucked", D, "mood"),
    ("feeling kinda meh today", D, "mood"),
    ("i'm so stressed rn", D, "mood"),
    ("honestly in a great mood today!!", D, "mood"),
    ("so bored rn, nothing to do", D, "mood"),
    ("tired af, long week", D, "mood"),
    ("a bit anxious about tomorrow's presentation", D, "mood"),
    ("今天心情不太好", D, "mood"),
    ("好烦啊，什么都不想干", D, "mood"),
    ("今天超开心的！", D, "mood"),
    ("有点焦虑，明天要答辩", D, "mood"),
    ("累到不想说话", D, "mood"),
    ("emo了，今天啥都不顺", D, "mood"),
    ("今天好 down 啊", D, "mood"),
    # --- thanks and replies to the assistant (drop) ---
    ("thanks, that helps a lot!", D, "reply"),
    ("haha yeah that makes sense", D, "reply"),
    ("ok cool, got it", D, "reply"),
    ("lol true", D, "reply"),
    ("hmm not sure that's right tbh", D, "reply"),
    ("oh nice, didn't know that", D, "reply"),
    ("yep exactly what i meant", D, "reply"),
    ("that's a good idea, i'll try it", D, "reply"),
    ("you're the best, seriously", D, "reply"),
    ("nah i'm good, thanks though", D, "reply"),
    ("wait what do you mean by that", D, "reply"),
    ("谢谢你啊，很有帮助", D, "reply"),
    ("好滴好滴", D, "reply"),
    ("嗯嗯明白了", D, "reply"),
    ("有道理诶", D, "reply"),
    ("不用了，谢谢", D, "reply"),
    ("你讲得在理", D, "reply"),
    ("好主意，我试试看", D, "reply"),
    ("啊？啥意思", D, "reply"),
    ("ok 收到 thx", D, "reply"),
    ("sounds like a plan, 谢啦", D, "reply"),
    # --- someone else's tastes and habits (drop) ---
    ("my roommate is super into kombucha, makes it every week", D, "others"),
    ("my coworker always orders the spiciest curry", D, "others"),
    ("my brother wants to become a pilot", D, "others"),
    ("my mom is restoring an old piano", D, "others"),
    ("my friend just bought a tesla", D, "others"),
    ("my neighbour plays the drums at night", D, "others"),
    ("我室友特别喜欢打游戏，天天熬夜", D, "others"),
    ("我同事每天都喝三杯咖啡", D, "others"),
    ("我闺蜜最近在学油画", D, "others"),
    ("我表弟想考公务员", D, "others"),
    ("我朋友刚买了辆宝马", D, "others"),
    # --- questions and chatter about things, not the user (drop) ---
    ("is it true that octopuses have three hearts?", D, "question"),
    ("what do you think about electric cars", D, "question"),
    ("which is better for beginners, guitar or piano?", D, "question"),
    ("猫为什么喜欢纸箱子？", D, "question"),
    ("你觉得哪个手机拍照最好", D, "question"),
    ("the new marvel movie looks kinda mid", D, "chatter"),
    ("crazy how expensive eggs got", D, "chatter"),
    ("this weather is wild", D, "chatter"),
    ("最近房价又跌了", D, "chatter"),
    ("今年夏天好热啊", D, "chatter"),
    ("那个新闻你看了吗，太离谱了", D, "chatter"),
    # --- hypotheticals and plans dropped (drop) ---
    ("if i ever win the lottery i'm buying a castle lol", D, "hypothetical"),
    ("was gonna learn guitar but nah, too lazy", D, "hypothetical"),
    ("本来想报个瑜伽班的，后来还是算了", D, "hypothetical"),
    ("要是我有钱就天天环游世界", D, "hypothetical"),
    ("in another life i'd be a marine biologist", D, "hypothetical"),
]


def rows() -> list[dict[str, object]]:
    return [{"text": text, "keep": kind is not None, "type": kind, "family": "chat29_" + family,
             "relation": None, "source": "hand"} for text, kind, family in ROWS]


def _flat(text: str) -> str:
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFKC", text).lower())


def check(paths: list[Path]) -> list[str]:
    """Rows whose flattened text occurs inside a case file's flattened text (copies)."""
    blob = "".join(_flat(p.read_text(encoding="utf-8")) for p in paths)
    return [text for text, _, _ in ROWS if _flat(text) in blob]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--append", action="store_true")
    group.add_argument("--remove", action="store_true")
    group.add_argument("--check", nargs="+", type=Path, help="case files to check for copies")
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args(argv)
    if args.check:
        copies = check(args.check)
        print("\n".join(copies) or "no copies")
        return 1 if copies else 0
    lines = [line for line in args.corpus.read_text(encoding="utf-8").splitlines() if line.strip()]
    mine = {_flat(str(r["text"])) for r in rows()}
    if args.remove:
        kept = [line for line in lines if not str(json.loads(line)["family"]).startswith("chat29_")]
        args.corpus.write_text("".join(line + "\n" for line in kept), encoding="utf-8")
        print(f"removed {len(lines) - len(kept)} rows")
        return 0
    have = {_flat(json.loads(line)["text"]) for line in lines}
    new = [r for r in rows() if _flat(str(r["text"])) not in have]
    args.corpus.write_text("".join(line + "\n" for line in lines)
                           + "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in new), encoding="utf-8")
    print(f"appended {len(new)} of {len(mine)} rows")
    return 0


if __name__ == "__main__":
    sys.exit(main())
