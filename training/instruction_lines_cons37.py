"""Hand-written chat lines for the standing-instruction model (issue 24, session 20, helper cons37).

Each line is written once, in its own voice (English, Chinese, mixed; typos, slang, emoji, hedges),
not frame x slot. They target the surfaces where session 15's weights read a rule and a request of
the moment alike (a polite question that sets a rule, "记住/记得" before a rule, a rule that names a
clock time or emoji, a rule after thanks, a rule with its reason first, "assume …" rules, a changed
value) and the one-off requests that look like them (a task with its payload: write this code,
translate this, draft this reply; a rule's exception for this once; a limit for one meal or one day;
companion chat told in the first person: "I vaguely remember …", "I'll tell you how it went"). Label
1: a rule the assistant follows from now on. ``group`` names the family (the trainer holds whole
families out). Written from the issue's family list, apart from the sentences of the case halves,
the dev sets and the development cases of this session.
"""

from __future__ import annotations

from typing import Any

from training.template_rows import written_rows

POSITIVE: dict[str, list[str]] = {
    "askedrule": [
        "could you keep the tech jargon out of whatever you explain to me?",
        "can u always give me the short version first and details after?",
        "mind not using british spelling when you write stuff for me?",
        "would you mind always listing the cheapest option first when i shop around?",
        "can you not open every answer with 'great question' pls",
        "could you stop adding a summary at the end of every reply? i read the whole thing anyway",
        "能不能以后回我的时候别用那么多术语？",
        "你以后给我推荐东西能不能都附上价格？",
        "可以每次给我写文案都控制在一百字以内吗",
        "以后改代码的时候能不能先说改了哪里再贴代码",
        "can we make it a rule that you never round numbers in my budget stuff?",
        "pls could you always ask me before assuming a deadline",
    ],
    "rememberrule": [
        "remember, anything formal you write for me, no contractions",
        "remember this one: i want recipes in grams, never cups",
        "记住哦，给我推荐餐厅的时候避开太吵的地方",
        "记得给我推荐剧的时候别推韩剧，我真的看不进去",
        "记着点，帮我订酒店只看能免费取消的",
        "别忘了，凡是给我写的邮件都用'您'",
        "note to self for you lol: when i ask for gift ideas, nothing over 50 bucks",
        "keep in mind for all my workout plans: bad knee, so no jumping stuff",
        "请记住，以后帮我翻译东西的时候保留原文的格式",
        "don't forget for any playlist you make me: zero country music",
    ],
    "clockrule": [
        "never put anything on my calendar before 9am, i'm useless in the mornings",
        "when you plan my week, keep friday afternoons empty",
        "don't schedule my calls after 6pm, that's family time",
        "以后给我排日程别排在晚上十点以后",
        "安排会议的时候周一上午都别占，我要处理邮件",
        "any study plan you make me, nothing before 10am on weekends",
        "帮我规划路线的时候，早高峰七点到九点的地铁线都避开",
        "if you ever book me a flight, no red-eyes, i can't sleep on planes",
        "给我订闹钟提醒的时候，周末一律不要早于八点",
    ],
    "reasonrule": [
        "i get nightmares so skip the gory stuff when you suggest films",
        "my stomach can't handle spice, so keep the recipes you give me mild",
        "i'm cutting back on sugar, go easy on the dessert suggestions",
        "i'm red-green colorblind, so pick other colours when you make me charts",
        "胃不好，以后给我推荐菜别推太辣的",
        "我晕车，给我规划旅行的时候少安排长途大巴",
        "我眼睛不太好，给我发的表格字号大一点",
        "i'm on a budget this year so only suggest free or cheap stuff when i ask for weekend plans",
        "my kids read over my shoulder so keep it clean in anything you write me",
        "i'm trying to drink less, so no cocktail ideas when i ask for party stuff",
    ],
    "thanksrule": [
        "thanks!! oh and when you pick podcasts for me, nothing over an hour",
        "ty that helped. btw going forward, put the code in one block not several",
        "哈哈好的谢谢 对了以后给我推荐电影别推三个小时那种",
        "谢啦～另外以后给我回消息别太正式",
        "cool thanks. also in general, just say 'i don't know' if you're not sure, don't guess",
        "perfect ty. and for future stuff, i prefer bullet points over paragraphs",
    ],
    "formatrule": [
        "no emojis in anything you write for my clients",
        "leave the emojis out of any work email you draft for me",
        "写给客户的东西别加表情包",
        "don't use emoji when you summarise stuff for my team",
        "no markdown tables when you answer me, my app can't show them",
        "给我写的周报都用编号列表，别用小圆点",
        "keep headings out of short answers, it's overkill",
        "when you write my texts, lowercase is fine, no need to capitalize",
    ],
    "assumerule": [
        "when i ask about commuting, assume i'm on a bike",
        "for anything about my car assume it's a 2015 corolla",
        "grocery stuff: assume i shop at aldi unless i say otherwise",
        "说到买菜你默认我在盒马买",
        "聊到装修的时候默认我的预算是十万以内",
        "any time zones you mention, assume i'm in pacific time",
        "for money questions assume i'm paid in euros",
        "问天气的话默认是杭州",
    ],
    "changedrule": [
        "actually make the summaries 3 bullets, not 5, from now",
        "scratch two options, just give me one recommendation each time",
        "改一下，以后每次给我两个选项就行，不要三个了",
        "let's do 20 minute workouts instead of 30 going forward",
        "字数上限改成三百吧，之前的两百太少了",
        "switch my units to imperial for good, i moved back to the states",
        "actually for all my recipes just do 2 servings now, not 4",
        "以后提醒我喝水改成每两小时一次",
    ],
}

NEGATIVE: dict[str, list[str]] = {
    "taskpayload": [
        "write me a python function that checks if a string is a palindrome",
        "can u write a regex that matches uk postcodes",
        "translate this into spanish pls: the package will arrive on monday",
        "帮我把这句话翻译成英文：我们下周再约时间",
        "帮我把这段改得正式一点：老板我明天请个假哈",
        "turn these notes into a table: flights 400, hotel 650, food 300",
        "draft a reply to my landlord saying i'll pay on friday",
        "summarize this article for me in 3 lines",
        "give me 5 names for a small bakery",
        "fix the grammar in this: me and him goes to the store yesterday",
        "帮我写个周报，这周主要做了接口联调",
        "帮我算一下2300乘以12是多少",
        "make this email sound less angry, i'm too annoyed to do it myself",
        "write a sql query to get the top 10 customers by revenue",
        "can you convert this json to yaml for me",
        "rewrite my bio in third person, keep it under 100 words",
        "帮我写段代码，把文件夹里的图片都压缩一下",
        "give me a packing list for a weekend camping trip",
        "can you proofread this cover letter real quick",
        "把下面这些要点整理成一封邮件发给HR",
    ],
    "exception": [
        "just this once, answer in english, it's for a coworker",
        "only for this reply, go as long as you want",
        "这次例外，用英文回我",
        "for this one email it's fine to use emojis, it's my best friend",
        "today only, give me the full long version",
        "这次先不用控制字数，写详细点",
        "ignore the metric thing for this recipe, it's my grandma's and she uses cups",
        "this time skip the sources, i just need a quick gut check",
        "就这一次哈，给我推荐个恐怖片，朋友非要看",
        "for this question only, pretend i'm an expert",
    ],
    "onelimit": [
        "no onions in tonight's recipe pls, we're out",
        "don't book anything before 9 for tomorrow's trip, long night",
        "今天的菜单别放辣，有朋友来吃",
        "keep this one under 50 words, it's for a tweet",
        "no meat in the menu for saturday, my vegetarian cousin is coming",
        "这周的计划先别排健身了，我脚崴了",
        "skip the gym in this week's plan, i'm sick",
        "明天的行程别太早，我今晚要加班",
    ],
    "askedquestion": [
        "can you even use markdown?",
        "do you remember what units i like?",
        "你能用表格回答吗",
        "could you explain why you always add a summary?",
        "is it possible for you to write shorter replies?",
        "你是怎么决定推荐哪些电影的",
        "what happens if i ask you to forget something?",
        "would it be weird if i asked you to only use lowercase?",
    ],
    "companion": [
        "I vaguely remember my grandma putting ginger in every soup",
        "I'll tell you how the interview went tomorrow",
        "I usually have tea with a few crackers in the evening",
        "我记得小时候奶奶总给我包饺子",
        "I will share more about my trip when i get back",
        "honestly i always end up ordering the same pasta lol",
        "我平时写东西都挺随意的",
        "I remember using way too much salt the first time i cooked rice",
        "i'm going to try to sleep earlier tonight",
        "我今天又熬夜了，明天得早点睡",
    ],
}


def rows() -> list[dict[str, Any]]:
    """The lines as trainer rows (``text``, ``label``, ``group``: ``cons37-<family>``), no duplicates."""
    return written_rows(POSITIVE, NEGATIVE, "cons37")
