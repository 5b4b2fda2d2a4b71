# ruff: noqa: E501  (data: hand-written chat lines, one family per block)
"""An eighth set of rows for the precision model, each a user's reply with the assistant's turn before it
(issue 24, precision, session 16; ``prec29``).

Written for this repository on 2026-12-06 by the ``prec29`` helper (an AI agent session): every line is its own,
written as a person would type it in a companion chat (many voices, no slot grid), none copied or paraphrased
from an evaluation set (the dev cases, ``bench/data/*_cases.jsonl``, MemoryBank, Synthetic-Persona-Chat's test
split), the issue texts or the demo samples (a test searches every case file). Built into the precision corpus
with ``PAI_PRECISION_SETS=s16`` (session 15's ``utterance_templates_prec28`` rows and these), for the precision
model that reads the previous turn (``train_memory_mlp --precision --context``).

Why: session 15's context model learned from its keep rows that a reply never takes up its question's words,
so a durable wish told in the question's own words ("which band would you like to see live?" -> "I'd love to
see <band> live one day") read as an echo of the turn and was dropped (MemoryBank en lost an item). Here the
reply takes up the turn's topic on both sides, and only what the reply adds decides:

- keeps: a taste, a wish for the long run or a fact about the user told in the words of the question that
  asked for it; a told event that changes who the user is or what they have (moved, a new job, married, a
  diagnosis, a pet) told in answer to "how have you been";
- drops: the day's news told in answer to "what did you do today" (a walk, a meal, a film tonight); a remark
  that only agrees with the assistant about the topic ("concerts really are special", "看来我们都喜欢美食");
  thanks and requests after an answer; a passing mood about the day.

Withdrawn after the measurement (session 16): six rows (two concert wishes, four agreeing remarks about concerts
and food) were shaped after the two MemoryBank items prec28's report describes (a concert wish, a remark about
food), which is tuning to a public set; the model measured in ``bench/RESULTS.md`` (issue 24, session 16) was
trained on the set with them (commit ``592dc07``), this set is without them and is not yet measured.
"""

from __future__ import annotations

from typing import Any

from training.template_rows import context_rows

Pair = tuple[str, str]
FAMILIES: list[tuple[str, bool, str | None, list[Pair]]] = [
    ("prev_topic_taste", True, "preference", [
        ("Do you enjoy concerts?", "yeah I love concerts, I go to at least a few gigs every year"),
        ("What kind of food do you enjoy the most?", "The food I enjoy most is Sichuan food, the spicier the better"),
        ("Food can be such a comfort. Do you like cooking?", "I do like cooking, especially slow stews on a Sunday"),
        ("Reading can be a great escape. What kind of books do you read?", "mostly I read detective novels, I've got a whole shelf of them"),
        ("Do you have a favourite sport to watch?", "My favourite sport to watch is tennis, I never miss a grand slam final"),
        ("Movies are a nice way to unwind. What genre do you like?", "I like horror movies, the older and cheesier the better lol"),
        ("Do you prefer the mountains or the beach?", "definitely the mountains, I've always been happier up high than on a beach"),
        ("What music do you listen to?", "I listen to a lot of jazz, mostly old Blue Note records"),
        ("Do you like animals?", "I like animals a lot, dogs especially, I've grown up with them"),
        ("Games can be fun. Do you play any video games?", "I play strategy games on my PC, Civilization is my go-to"),
        ("Gardening seems relaxing. Do you have a garden?", "I'm really into gardening, tomatoes and herbs mostly on my balcony"),
        ("Coffee or tea?", "tea all the way, green tea, I can't stand coffee"),
        ("What do you like about travelling?", "I like travelling slowly, staying a week in one small town rather than rushing around"),
        ("你喜欢吃什么？", "我最喜欢吃的是湘菜，越辣越好"),
        ("你平时喜欢看什么类型的书？", "我平时喜欢看推理小说，东野圭吾的基本都看过"),
        ("你喜欢运动吗？", "挺喜欢运动的，尤其是打乒乓球，从小就打"),
        ("你喜欢什么样的电影？", "我喜欢看老港片，周星驰的电影百看不厌"),
        ("你喜欢猫还是狗？", "我更喜欢猫，安安静静的很适合我"),
        ("你平时听什么音乐？", "我平时听民谣比较多，尤其喜欢赵雷"),
        ("旅行的时候你喜欢怎么玩？", "我旅行喜欢慢慢逛，在一个小镇住上一周那种"),
        ("你喝咖啡吗？", "我每天都要喝咖啡，不喝一杯整个人都不清醒"),
        ("你喜欢爬山吗？", "很喜欢爬山，周边的山我差不多都爬遍了"),
    ]),
    ("prev_topic_wish", True, "goal", [
        ("Is there a place you dream of visiting?", "I've always dreamed of visiting Iceland to see the northern lights"),
        ("Would you ever want to learn an instrument?", "I want to learn the cello properly one day, it's been on my list for years"),
        ("Do you have any big goals for the next few years?", "My goal is to run a full marathon before I turn forty"),
        ("Is there a skill you'd like to pick up?", "I'd like to become fluent in Japanese, I've started saving for a course"),
        ("What would you like to do after you retire?", "after I retire I want to open a small bookshop by the sea"),
        ("Have you thought about changing careers?", "I'm planning to retrain as a nurse over the next two years"),
        ("Do you want to travel more?", "yes, I want to visit every national park in the country eventually"),
        ("你有什么特别想去的地方吗？", "我一直想去冰岛看极光，这是我的梦想"),
        ("你想学一门乐器吗？", "我以后想好好学大提琴，这个愿望好多年了"),
        ("未来几年有什么目标吗？", "我的目标是四十岁之前跑一次全程马拉松"),
        ("有没有想学的技能？", "我想把日语学到能流利交流，已经在攒钱报班了"),
        ("退休以后想做什么？", "退休以后我想在海边开一家小书店"),
        ("你考虑过换行业吗？", "我打算这两年转行去做护士"),
    ]),
    ("prev_topic_fact", True, "fact", [
        ("Do you have any pets?", "I have two cats, Miso and Pickle, both rescues"),
        ("Where do you live?", "I live in a small flat in Glasgow with my partner"),
        ("What do you do for work?", "I work in a call centre, night shifts mostly"),
        ("Do you have any siblings?", "I have an older brother who lives in Canada"),
        ("Are you a student?", "yeah I'm a second-year engineering student"),
        ("Do you have kids?", "I have a six-year-old daughter, she keeps me busy"),
        ("Is your family close by?", "my parents live just two streets away so I see them a lot"),
        ("Do you drive?", "I don't drive, I never got my licence, so I cycle everywhere"),
        ("你养宠物吗？", "我养了两只猫，都是领养的"),
        ("你住在哪里？", "我住在成都，和男朋友一起租房"),
        ("你是做什么工作的？", "我在一家医院做药剂师"),
        ("你有兄弟姐妹吗？", "我有一个姐姐，在上海工作"),
        ("你还在上学吗？", "我在读研二，学的是环境工程"),
        ("你有孩子吗？", "有个上小学的儿子，挺调皮的"),
        ("你会开车吗？", "我不会开车，平时都骑电动车"),
        ("你对什么过敏吗？", "我对花生过敏，吃一点都不行"),
    ]),
    ("prev_life_change", True, "fact", [
        ("How have things been since we last talked?", "big news, we moved to Bristol last month"),
        ("How's everything going?", "I started a new job as a data analyst at a bank"),
        ("Anything new with you?", "I got married in the spring!"),
        ("How are you doing these days?", "I was diagnosed with type 2 diabetes, so I'm changing how I eat"),
        ("What's new?", "we adopted a puppy, a little beagle called Toast"),
        ("How have you been?", "I finally finished my PhD and graduated"),
        ("最近怎么样？", "我上个月搬到杭州了"),
        ("最近有什么新鲜事吗？", "我换工作了，现在在一家游戏公司做策划"),
        ("好久不见，过得好吗？", "我今年结婚了"),
        ("最近身体还好吗？", "前阵子查出来有高血压，现在每天吃药"),
        ("最近家里有什么变化吗？", "我们家新养了一只柯基"),
        ("最近忙什么呢？", "我刚博士毕业，拿到学位了"),
    ]),
    ("prev_day_news", False, None, [
        ("What did you get up to today?", "I went for a walk along the river this afternoon"),
        ("How was your day?", "it was ok, had a nice lunch with a colleague"),
        ("Did you eat yet?", "just had some instant noodles lol"),
        ("Any plans for tonight?", "I'm going to watch a film tonight, probably something light"),
        ("What are you doing this weekend?", "this weekend I'm going to clean the flat and do laundry"),
        ("How was the weather where you are?", "it rained all day so I stayed in"),
        ("What did you do this morning?", "I went to the supermarket and bought some vegetables"),
        ("Did you sleep well?", "not really, I woke up at 4 and couldn't fall back asleep"),
        ("How was your trip to the shops?", "good, I picked up a new pair of shoes"),
        ("今天都做了什么？", "今天下午去公园散了会儿步"),
        ("今天过得怎么样？", "还行，中午和同事吃了顿火锅"),
        ("吃饭了吗？", "刚吃了碗面"),
        ("今晚有什么安排？", "今晚打算在家看部电影"),
        ("周末准备干嘛？", "这周末打算在家大扫除"),
        ("你那边天气怎么样？", "下了一天的雨，我就没出门"),
        ("早上做了什么？", "早上去超市买了点菜"),
        ("昨晚睡得好吗？", "不太好，凌晨四点就醒了"),
    ]),
    ("prev_agreeing_remark", False, None, [
        ("Reading opens up so many worlds.", "true, books really can take you anywhere"),
        ("Exercise is great for both body and mind.", "exactly, exercise is good for everything"),
        ("Travel broadens the mind.", "I agree, travelling teaches you a lot"),
        ("Music can really lift your mood.", "yeah music is powerful like that"),
        ("Pets can be such good company.", "so true, animals are amazing company"),
        ("读书可以让人看到更大的世界。", "对，读书确实能开阔眼界"),
        ("运动对身心都有好处。", "没错，运动好处真的很多"),
        ("旅行能让人成长。", "我同意，出去走走能学到很多"),
        ("音乐真的能改变心情。", "是的，音乐的力量很大"),
    ]),
    ("prev_thanks_request", False, None, [
        ("Here are a few books you might enjoy: a mystery, a memoir and a travel diary.", "thank you so much, that's really helpful"),
        ("I hope that helps!", "it does, thanks a lot"),
        ("Is there anything else I can help with?", "can you recommend a good podcast for my commute?"),
        ("Let me know if you want more ideas.", "could you give me a few more recipes like that one?"),
        ("That's all I know about it.", "ok cool, thanks for explaining"),
        ("这几本书你可以看看。", "太感谢了，很有帮助"),
        ("希望对你有帮助！", "有帮助，谢谢你"),
        ("还有什么我能帮你的吗？", "能帮我推荐几部适合周末看的电影吗？"),
        ("需要的话我可以再给你一些建议。", "再给我推荐几道类似的菜吧"),
        ("这就是我知道的全部了。", "好的，谢谢你的解释"),
    ]),
    ("prev_passing_mood", False, None, [
        ("How are you feeling right now?", "kinda tired today, long day"),
        ("You sound a bit down.", "yeah just a bit grumpy this evening"),
        ("How did the meeting go?", "honestly I'm relieved it's over"),
        ("Did the exam go well?", "I'm so happy right now, it went better than I expected"),
        ("现在心情怎么样？", "今天有点累，忙了一整天"),
        ("你听起来有点不开心。", "嗯，今晚有点烦"),
        ("会开得怎么样？", "总算开完了，松了口气"),
        ("考试顺利吗？", "现在超开心，比我想的顺利多了"),
    ]),
]


def prec29_template_rows() -> list[dict[str, Any]]:
    """Every family's (prev, text) pairs, in a fixed order, distinct texts only; ``source`` is
    ``template_prec29``; each row carries its ``prev``."""
    return context_rows(FAMILIES, "template_prec29")
