"""Hand-written chat lines for the standing-instruction model (issue 24, session 16, helper cons29).

Not frame x slot templates: each line is written once, in its own voice (English, Chinese, mixed; typos,
slang, emoji, hedges, indirect phrasing). Label 1: a rule the assistant should follow from now on, said
without "from now on" ("going forward …", "keep X out of …", "for anything <kind> assume …", "default to
…", "unless i say otherwise …", "以后你帮我<做事>的时候…" with what to do, "默认…", "往后…一律…"), and a
rule whose value changes ("make it two options instead of three from here on"). Label 0, the hard negatives
of the same surface: a one-off request ("draft this for my boss"), a question about a rule or a habit, a
rule's exception ("just for this one …", "今天破例…"), the withdrawal of a rule ("drop the no-emoji
thing"), talk about forgetting and reminders ("don't forget to …"), the user's own habit ("i never use
emojis at work"), someone else's rule, sarcasm. ``group`` names the family (the trainer holds whole
families out). The lines were written from the issue's family list, apart from the sentences of the case
halves and the dev sets.
"""

from __future__ import annotations

from typing import Any

POSITIVE: dict[str, list[str]] = {
    "goingforward": [
        "going forward, celsius please, fahrenheit means nothing to me",
        "going forward pls keep answers under 200 words",
        "going fwd just give me the code, skip the explanation unless i ask",
        "moving forward can u always put the total at the top",
        "from here on out, call me Sam, not Samantha",
        "for the future: I prefer answers with sources linked",
        "in future replies, no bullet points, just short paragraphs",
        "henceforth speak to me like a normal person not a customer service bot lol",
        "going forward assume i'm on a mac when you give me shortcuts",
        "next time and every time after, show prices in yen",
    ],
    "keepout": [
        "keep corporate buzzwords out of anything you write for me",
        "keep exclamation marks out of my cover letters, they look desperate",
        "leave politics out of any small talk suggestions you give me",
        "keep the medical jargon out of what you explain to me pls",
        "keep swear words out of stuff you draft for my kids' school",
        "no hashtags in anything you write for my linkedin ever",
        "pls keep spoilers out of any show recs, i hate knowing the ending",
        "keep it pg in anything you write that my mum might see",
    ],
    "whenever": [
        "whenever you suggest workouts, stick to stuff i can do in a small apartment",
        "when you help me with spreadsheets, give me the formula first and the explanation after",
        "any time you recommend books, mention the page count",
        "every time you give me a recipe, list the prep time up top",
        "whenever i ask about money stuff, show the math",
        "when u suggest restaurants, only places with vegan options k",
        "each time you summarise an article, end with one line on why it matters to me",
        "if you ever write code for me, add type hints",
        "whenever i send a draft, point out the weakest sentence first",
        "for any email you draft for me, sign it off with just my first name",
    ],
    "assume": [
        "for any travel planning assume i'm leaving from Denver",
        "for anything cooking related assume i only have a microwave and an air fryer",
        "assume i'm a beginner for anything about guitar",
        "for budget stuff assume my take-home is about 3k a month",
        "treat me as someone with zero coding background when you explain tech",
        "assume metric for anything physical, i'm in europe",
        "for gift ideas assume the budget is under 50 bucks unless i say so",
        "when you plan my days assume i can't do anything before 10am",
    ],
    "default": [
        "default to british spelling for everything you write me",
        "default to the cheapest option when you compare things for me",
        "unless i say otherwise, answers in Portuguese",
        "unless I tell you different, keep replies to three sentences max",
        "my default is dark mode screenshots, so describe menus that way",
        "as a rule, don't recommend anything that needs a subscription",
        "standing rule: two options max when i ask for suggestions",
        "rule of thumb for you: if you're not sure, say so",
    ],
    "stop": [
        "pls stop ending every reply with a question, it's exhausting",
        "quit apologising so much in your answers lol",
        "stop suggesting meditation every time i say i'm stressed",
        "no more motivational quotes at the end, ever",
        "can you stop calling me buddy, it's weird",
        "stop recommending netflix shows, i cancelled it",
        "ur summaries are too long, always cut them in half",
        "never say 'great question' to me again",
    ],
    "changedvalue": [
        "actually make it two options instead of three from now on, three is too many",
        "change of plan on the word limit: 150 words max going forward, not 300",
        "switch my units to imperial for good, i moved back to the states",
        "instead of Spanish, answer me in French from here on",
        "update the rule: remind me of deadlines two days before, not one",
        "let's do weekly summaries instead of daily ones from now",
        "以后推荐改成两个就行，三个太多了",
        "回复长度改一下，以后一百字以内",
    ],
    "zh_rule": [
        "以后你帮我改简历的时候，先指出最大的问题再改细节",
        "你帮我看合同的时候，先把违约条款标出来",
        "给我推荐电影别推恐怖片，我胆小",
        "往后给我写的东西一律不要用感叹号",
        "默认用人民币算价格",
        "除非我特别说，不然都用中文回我",
        "每次给我列计划都按时间顺序排",
        "跟我解释东西的时候少用术语，我是外行",
        "帮我订行程的时候记得避开红眼航班",
        "推荐餐厅的时候只推能停车的",
        "我说的预算都是税前的，你算的时候注意",
        "你回我消息别太长，三段以内",
        "以后提到我老板都叫她王总",
        "写周报的时候先写成果后写问题",
        "别再给我推荐保健品了，我不信这个",
        "今后给我举例子都用篮球的例子，我好理解",
        "给我的菜谱里面不要放香菜，一直都不要",
        "凡是涉及钱的，都帮我算到小数点后两位",
    ],
    "mixed": [
        "以后帮我写 email 的时候 keep it short pls",
        "推荐 podcast 的时候 only english ones 谢谢",
        "你给我的 code 都加上 comments 吧，以后都这样",
        "when you translate for me 保留原文的语气，别太书面",
        "每次 summary 都给我一个 tl;dr 在最上面",
        "default 用 24 小时制写时间 pls",
        "any recipe 都不要放 peanuts，我家有人过敏",
        "帮我 plan trips 的时候别排太满，我喜欢 chill 一点",
    ],
    "indirect": [
        "i'd really appreciate it if you always flagged anything that costs money",
        "it'd help me a lot if your answers started with the short version",
        "honestly the thing that works best for me is when you number the steps, so keep doing that",
        "for my sake keep the tone casual when you write to me",
        "u know what would be great? if every workout plan came with a rest day",
        "my brain works better with tables, so use those for comparisons",
        "i'm dyslexic so short sentences in everything pls",
        "i can't read tiny walls of text on my phone, break things up for me always",
        "我眼睛不好，以后回我字少一点",
        "我比较笨哈，讲东西一步一步来，每次都这样",
    ],
}

NEGATIVE: dict[str, list[str]] = {
    "oneoff": [
        "draft a quick note to my landlord about the broken heater",
        "can you write a birthday message for my sister",
        "give me three dinner ideas for tonight",
        "translate this paragraph into german real quick",
        "summarise this article for me",
        "make this email sound less passive aggressive",
        "rewrite my bio for the conference, keep it short",
        "plan a route for saturday's bike ride",
        "help me pick a gift for my dad, budget 40",
        "write a cover letter for the barista job",
        "帮我写一条请假的微信",
        "给我推荐三部今晚能看的电影",
        "这段话帮我翻成英文",
        "帮我算一下这个月的房贷",
        "帮我改一下这个标题",
        "帮我看看这份合同有没有坑",
        "pls give me a packing list for the weekend trip",
        "fix the grammar in this text to my boss",
    ],
    "exception": [
        "just for this one, skip the summary at the end",
        "only this time, answer in english, it's for a coworker",
        "this once you can go long, i need the detail",
        "for today only, ignore the word limit",
        "break the no-emoji rule just this once, it's for my niece",
        "today's an exception, give me five options not two",
        "今天破例用英文回我，我要转给同事",
        "这次可以写长一点，没关系",
        "就这一次，价格用美元算",
        "这一条先别按老规矩来，写正式一点",
    ],
    "question": [
        "do you always use metric?",
        "is it weird to avoid emojis in work emails?",
        "what's the best way to keep answers short?",
        "should i tell my boss i prefer email over calls?",
        "can you remember things between chats?",
        "how do i get chatgpt to stop apologising lol",
        "你能一直记住我的偏好吗？",
        "写邮件一般要不要用感叹号？",
        "用摄氏度还是华氏度比较常见？",
        "is two options better than three for decision making?",
    ],
    "withdraw": [
        "you can drop the no-emoji thing now",
        "forget the rule about bullet points",
        "ignore what i said about using metric",
        "scrap the word limit thing, it's not working",
        "never mind the two-options rule",
        "之前说的只用中文那条不用管了",
        "那个不要感叹号的规矩取消吧",
        "不用再按时间顺序排了，那条作废",
    ],
    "forgetting": [
        "don't forget to remind me about the dentist tomorrow",
        "ugh i forgot my charger at work again",
        "i always forget to drink water lol",
        "remind me to call mum at 6",
        "别忘了提醒我明天交房租",
        "我又忘带钥匙了",
        "lol my memory is so bad lately, forgot my own pin",
        "did i tell you about my trip? i forget",
        "remember to check the weather before my run tomorrow",
        "记得明早八点叫我",
    ],
    "ownhabit": [
        "i never use emojis at work, feels unprofessional",
        "i always write my to-do list the night before",
        "i keep my phone out of the bedroom",
        "i usually answer emails in the morning",
        "i avoid caffeine after 2pm",
        "我每次出门都会带伞",
        "我写东西习惯先列提纲",
        "我从来不在群里发语音",
        "i round everything to the nearest dollar in my budget",
        "i only shop at the farmers market on sundays",
    ],
    "others": [
        "my boss hates exclamation marks in emails",
        "my wife always wants the cheapest option",
        "my teacher said to keep essays under 500 words",
        "our team rule is no meetings on friday",
        "我妈做菜从来不放香菜",
        "我老板要求周报必须先写成果",
        "my sister insists on metric for everything, it's annoying",
        "the school says no nuts in packed lunches",
    ],
    "sarcasm": [
        "oh sure, always give me ten paragraphs, i have all day 🙄",
        "yeah please keep adding disclaimers, i love those /s",
        "wow another motivational quote, never stop lol",
        "对对对，你就一直这么啰嗦吧🙃",
    ],
    "chat": [
        "thanks that was super helpful",
        "lol ok that makes sense",
        "cool, i'll try that tomorrow",
        "好的谢谢，我试试",
        "haha you're funny",
        "that recipe was great btw, made it last night",
        "i'm so tired today",
        "just got back from the gym",
    ],
}


def rows() -> list[dict[str, Any]]:
    """The lines as trainer rows (``text``, ``label``, ``group``: ``cons29-<family>``), no duplicates."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for lines, label in ((POSITIVE, 1), (NEGATIVE, 0)):
        for family, texts in lines.items():
            for text in texts:
                if text not in seen:
                    seen.add(text)
                    out.append({"text": text, "label": label, "group": f"cons29-{family}"})
    return out
