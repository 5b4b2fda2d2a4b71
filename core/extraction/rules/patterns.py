"""Compiled patterns of the rules extractor: clause flags (drop reasons) and slot triggers.

All patterns run on ``segment.normalise``d text (NFKC, lowercase), Chinese and English side by side.
A data table: module-level patterns and the pieces they are built from, with the two combinators that
spell them (``rx``, ``alt``); the code that reads them lives in the modules that use them (e.g.
``questions``).
"""

from __future__ import annotations

from collections.abc import Iterable

from core.extraction.rules import lexicon
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re
from core.text.regex import not_followed_by as _nf
from core.text.regex import not_preceded_by as _np


def rx(*parts: str) -> re.Pattern[str]:
    """The alternation of ``parts``, compiled."""
    return re.compile("|".join(parts))


def alt(words: Iterable[str]) -> str:
    """A non-capturing alternation of ``words`` (lowercased: patterns run on lowercased text),
    longest first, regex-escaped."""
    uniq = sorted({w.lower() for w in words if w}, key=lambda w: (-len(w), w))
    return "(?:" + "|".join(re.escape(w) for w in uniq) + ")"


_WEEKDAY = r"(?:周|星期|礼拜)[一二三四五六日天]"
_EN_DAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|wed|thu|fri|sat|sun)"
_ZH_NUM = r"[0-9一二两三四五六七八九十]+"

# --- clause flags ----------------------------------------------------------------------------
TIME_HARD = rx(
    _np("从") + "今天" + _nf("起", "开始", "以后")
    + r"|今日|今晚|今早|今儿|今夜|今天下午|明天|明早|明晚|明儿|明日|后天|大后天|"
    r"明后天|这两天|这几天|近几天|"
    r"未来几天|接下来几天|接下来的几天|过两天|这周|本周|这个?星期|这礼拜|下周|下个?星期|下礼拜|这个月|本月|"
    r"下个月|月底前|这周末|下周末|待会儿?|等会儿?|"
    # "一会儿" after a verb is a duration ("听一会儿相声"), not "in a moment"
    + _np(*"听看玩读睡躺坐走歇聊练弹写跑游泡逛") + "一会儿|"
    r"马上|刚才|刚刚|这次|这回|"
    r"本次|这一次|到时候|晚点|稍后|"
    r"今年(?:的)?(?:端午|中秋|国庆|五一|春节)|这个假期|这个周末",
    rf"\b(?:today|tonight|tomorrow|tmrw|tmr|later today|this (?:morning|afternoon|"
    rf"evening|week|weekend|month|"
    rf"{_EN_DAY})|next (?:week|weekend|month|{_EN_DAY})|(?:the )?next (?:few|couple(?: of)?|"
    rf"two|three|2|3) days|"
    rf"in (?:a|an|\d+|a few|a couple(?: of)?) (?:min|mins|minutes|hours?|hrs?)|"
    # "on Sunday mornings", "on tuesdays" recur; "on Sunday (morning)" is one day
    rf"on {_EN_DAY}" + _nf(" mornings", " afternoons", " evenings", " nights", "s") + "|"
    # "this once", "just for this one" scope what follows to the moment, as "这次" / "这一次" do
    r"by (?:\d{1,2}|noon|tonight|eod|end of (?:the )?day)|this time|this once|(?:just|only) for this one|"
    r"for now|just now|right away)\b",
    # a duration as a limit ("keep each session to 30 min max", "under 20 minutes") is no time window
    _np("under ", "max ", "most ", "than ", " to ", "within ", "upto ")
    + r"\b\d+ ?(?:min|mins|minute|minutes)\b"
    + _nf(" max", " tops", " long", " or less", " or under", " or shorter", " each", " per ", " a session",
          " an episode"),
)
TIME_SOFT = rx(
    # lookarounds consumed (see core/text/regex.py): every use of TIME_SOFT is a yes/no search
    _np("每", "每个", "到", "至", "~", "-") + _WEEKDAY + _nf("到", "至", "~", "-")
    + "|" + _np("每", "个") + "周末"
    + _nf(*"都一般才会通常"),
    rf"(?:上午|下午|中午|晚上|早上|凌晨|傍晚)\s*{_ZH_NUM}\s*点|[0-9]{{1,2}}\s*点(?:半|钟|[0-9]+分)?|"
    r"[一二两三四五六七八九十]{1,6}点(?:半|钟|[一二三四五六七八九十]{1,6}分)",
    r"\bat \d{1,2}(?::\d\d)? ?(?:am|pm)?\b|\b\d{1,2}(?::\d\d)? ?(?:am|pm)\b",
)
HABIT_STRONG = rx(
    r"每天|每晚|每早|每周|每个?月|每年|平时|平常|一般|通常|习惯|经常|常常|总是|天天|雷打不动",
    r"\b(?:every (?:day|morning|night|evening|week|weekend)|usually|typically|normally|"
    r"most (?:days|mornings|nights))\b",
)
HABIT = rx(
    r"每|一般|通常|平时|平常|经常|常常|总是|总会|总要|老是|基本上?|向来|一向|习惯|都会|天天|"
    r"日常|雷打不动|一直|工作日|到哪都|闲暇|空闲时间|业余时间|有空(?:的时候|时|就)|没事(?:的时候|就)|"
    r"(?:周|星期)[一二三四五六日天][到至~\-](?:周|星期)[一二三四五六日天]",
    r"\b(?:every|usually|always|often|normally|typically|generally|tend to|each|most days|on weekends|"
    r"weekends|weekdays|whenever|everywhere|all the time|religiously|in my (?:free|spare|down) time|"
    r"when i have (?:some )?(?:free|spare) time|for fun)\b|"
    r"\bi (?:also |regularly |often )?(?:practi[cs]e|play|collect|listen to)\b|"
    r"\bi (?:eat|drink|read|watch|bake|cook) (?:a lot of|lots of|tons of|plenty of)\b",
)
QUESTION = rx(
    r"吗[呀啊呢]?$|呢$|么$|" + _np("不") + "什么" + _nf("都", "也") + "|" + _np("不") + "啥" + _nf("都", "也")
    + "|" + _np("哪怕") + r"哪(?:个|"
    r"些|里|儿|家|种|款|位|能)" + _nf("都", "也") + "|"
    + _np("不") + "怎么" + _nf("都", "也") + "|怎样|如何|多少" + _nf("有点")
    + r"|几(?:点|号|岁)|能不能|可不可以|"
    r"是不是|有没有|要不要|会不会|"
    r"行不行|对不对|好不好|不$|请问|问下|问一下|想问|想知道",  # "X不X" at the end: is_a_not_a
    # ("n't" cannot follow a word boundary after these words, so only " not" needs excluding)
    r"^(?:do|does|did|is|are|was|were|what|what's|"
    r"how|how's|why|where|which|"
    r"who|whats|any ideas?|anything|is there|are there|have you|has)\b" + _nf(" not", "'t", "’t"),
    # a modal opens a question only with its subject after it ("could you …", "can i …"); with a verb after
    # it the subject is elided, a statement of chat ("could eat them every day", "would love to see Peru")
    r"^(?:can|could|would|will|should|shall)\s+(?:not\s+)?(?:you|u|ya|i|we|they|he|she|it|this|that|these|"
    r"those|there|someone|somebody|anyone|anybody|one|people|my|your|our|their|his|her|the|a|an|y'all)\b",
)
# "X不X" at the end ("去不去"): ``questions.is_question`` compares the two groups
A_NOT_A = re.compile(r"(?P<a>\w)\s*不\s*(?P<b>\w)$")


REQUEST = rx(
    r"帮我|帮忙|你帮|麻烦你?|请你|给我(?:写|列|出|算|查|找|推荐|讲|解释|做|想|看|"
    r"整理|翻译|生成|画|定|设|订|发|念|讲讲|来)|"
    r"提醒我|提醒一下|叫我(?:起床|起来|一声)|记得(?:提醒|叫)|(?:设|定|订)(?:个|一个|"
    r"两个)?(?:闹钟|提醒|计时)|闹钟|"
    r"推荐(?:一下|几|个|些|点)|总结一下|算一下|算算|查一下|查查|列个|列一下|搜(?:一下|"
    r"索)|翻译一下|你(?:能|可以|会)" + _nf("不") + "|"
    r"可以推荐|(?:^|给我|你|请|麻烦)(?:看看|想想|出(?:个|几|十)|写(?:个|一个|一封|一篇|段|一版))",
    r"\b(?:can|could|would|will) (?:you|u)\b|\bhelp me\b|\bplease\b|\bpls\b|\bplz\b|\bremind me\b|"
    r"\bset (?:a |an |the |up a )?(?:\d+ ?min(?:ute)?s? )?(?:timer|alarm|reminder)\b|"
    r"\bgive me\b|\btell me\b|"
    r"\bshow me\b|\blet me know\b|\bmake me\b|\bwrite me\b|\brecommend\b|\bsuggest\b|"
    r"\bnag me\b|\bwake me\b|"
    r"\bping me\b|\bdraft\b|\bsummari[sz]e\b|\bplan (?:my|a|the|some)\b|\bbuild (?:a|"
    r"me)\b|\bfind me\b|\blook up\b|"
    r"\bi need you\b|\bneed to (?:finish|pick|get|buy|call|send|do|submit|pay|book)\b|\bu help\b",
)
MEMORY_REQUEST_PREFIX = re.compile(
    r"^(?:(?:你|请|麻烦)?(?:帮我)?(?:记住|记一下|记下|记着|记好)(?:了|哈|哦)?[,，:： ]*|"
    r"(?:你)?(?:别|不要)忘了[,，:： ]*|(?:please )?(?:don'?t|do not) forget(?: that)?[,:]? |"
    r"(?:please )?(?:remember|note|keep in mind|for the record|fyi)(?: that)?[,:]? )"
)
LONGTERM = rx(
    r"以后|今后|往后|之后都|从现在(?:开始|起)|从今(?:天|往后|以后)?(?:起|开始)|一律|"
    r"永远|始终|凡是|默认|长期|一直(?:都)?(?:用|按)",
    r"\b(?:always|from now on|going forward|in (?:the )?future|never|don'?t ever|do not ever|by default|"
    r"as a rule|moving forward|from here on|all future|each reply|every reply|every answer|no matter what|"
    r"one rule|house rule|ground rule|standing rule)\b",
)
# weaker markers of a standing rule: they need an explicit address to the assistant
LONGTERM_WEAK = rx(r"每次|每回|只要|一旦|每当|我(?:更|还是)?(?:希望|宁愿|宁可|更喜欢)你",
                   r"\b(?:every time|whenever|each time|any ?time|i'?d (?:much )?rather you|"
                   r"i'?d prefer (?:it )?if you|i prefer (?:it )?when you)\b")
RECURRING = rx(r"每天|每周|每个?月|每晚|"
               r"每早|每年|每逢", r"\bevery (?:day|morning|night|evening|week|month|year|"
               rf"{_EN_DAY})\b|\bdaily\b|\bweekly\b")
CONDITION_REMIND = rx(
    r"(?:只要|每当|一旦|如果|要是|遇到|碰到|逢|遇上|赶上|一有).{0,24}(?:时|的时候|"
    r"就|那天)?.{0,8}(?:提醒|叫|告诉|通知)我",
    r"(?:下雨|下雪|降温|升温|大风|台风|暴雨|雾霾|高温|寒潮|空气(?:不好|差)|换季|过节|"
    r"节假日|生日|纪念日).{0,6}"
    r"(?:时|的时候|天|前|之前)?.{0,6}(?:提醒|叫|告诉|通知)我",
    r"\bremind me .{0,60}\b(?:when|whenever|if|every time|each time|any time|before)\b",
    r"\b(?:when|whenever|if|every time|each time|any time) .{0,60}\b(?:remind|tell|notify|ping) me\b",
)
ASSISTANT_STRONG = rx(
    r"你|回答|回复|回我|答复|给我|帮我|提醒我|叫我|告诉我|跟我说|对我说|称呼我",
    r"\b(?:you|your|reply|replies|respond|response|responses|answer|answers|remind me|give me|tell me|"
    r"show me|send me|explain|explanations|suggestions|answering|replying|responding|suggest|suggesting|"
    r"recommend|recommending|mention|mentioning)\b",
)
ASSISTANT_WEAK = rx(
    r"写|用|列|输出|解释|翻译|推荐|换算|标注|加上|附上|总结|说明|举例|回",
    r"\b(?:write|use|format|keep|include|add|list|convert|translate|summar\w*|code|copy|comments?|"
    r"bullet|output|label|mention|cite|stick to|suggest|recommend|offer|bring up|show|give)\b",
)
STYLE_DIRECTIVE = rx(
    r"^(?:请)?(?:不要|别|少|不用|请不要|请别|不许|禁止)(?:再)?(?:用|加|给我|写|带)",
    r"^(?:please |pls )?(?:don'?t|do not|never|stop|avoid|no more) (?:use|using|give|"
    r"giving|add|adding|write|writing|include|including|send|sending|suggest|suggesting|recommend|"
    r"recommending|mention|mentioning|bring up|bringing up|ask|asking)\b|"
    r"^(?:please |pls )?keep [a-z0-9' -]{1,30} out of\b",
)
CONDITION_START = rx(
    r"^(?:只要|每当|一旦|如果|要是|遇到|碰到|逢|遇上|赶上)|(?:下雨|下雪|降温|升温|"
    r"大风|台风|暴雨|雾霾|高温|寒潮)(?:时|的时候|天|前)",
    r"^(?:when|whenever|if|every time|each time|any ?time|on days when)\b",
)
REPLY_WORD = rx(r"回答|回复|答复|解答|回我|"
                r"回消息|回信息", r"\b(?:reply|replies|answer|answers|answering|respond|responses|responding|"
                r"explanations?)\b")
IMPERATIVE = rx(
    r"尽量|不要|别|用|控制|请|只|不超过|以内|先|要|直接|必须|务必|需要|改成|换成|改为|都",
    r"\b(?:keep|use|don'?t|no more than|under|in|always|never|only|start with|lead with|be|make|give)\b",
)
SELF_RULE = rx(r"(?:^|以后|今后|从现在起|开始|起|，)(?:我|咱)(?:要|会|得|想|打算|准备|每天|自己|还是|也)",
               r"(?:^|from now on,? |，)i (?:will|'ll|want|need|am going|'m going|should|must)\b")
NEGATED_OLD = rx(r"不(?:再)?(?:喝|吃|用|做|住|去|玩|看|听|学|考|练|养|抽|穿|追|打)\S{0,8}了|"
                 r"不再|已经不|没再",
                 r"\bno longer\b|\bnot .{1,30} anymore\b|\bdon'?t .{1,30} anymore\b|\bstopped\b")
SELF_SUBJECT = rx(r"^我(?:要|会|得|想|打算|准备|"
                  r"每天|自己)|^(?:我)?(?:自己)", r"^i (?:will|'ll|want|need|should|am going)\b")
PROFILE = rx(
    r"你(?:就)?(?:叫|名字叫|的名字是|的名字叫|改名)|叫你|给你(?:起|取|改)(?:个)?名|你的名字|你的昵称|"
    # "叫我X吧" unless X starts with 起/起来/吃/一声/去/回/做/别/不要/不用 (a lookahead in ``re``)
    r"(?:叫|称呼)我(?:\s+\S{1,8}?|[^\s起吃去回做别一不]\S{0,7}?|一(?:[^\s声]\S{0,6}?)?|不(?:[^\s要用]\S{0,6}?)?)"
    r"(?:就行|就好|就可以|吧|$)|"
    r"我的?(?:昵称|外号|网名|名字)(?:是|叫)|^我叫|表情|emoji|颜文字|头像",
    r"\bcall me\b" + _nf(" when", " if", " at", " tomorrow", " later", " back", " tonight")
    + r"|\byour name (?:is|will be|should be)\b|"
    r"\bi'?ll call you\b|\bcall you\b|\bname you\b|\bmy nickname\b|\bemojis?\b|\bkaomoji\b|\bavatar\b|"
    r"\brename yourself\b|\byou'?re (?:now )?called\b|\bmy name is\b|\bme by\b",
)
TEST = rx(r"测试一下|测一下|试一下你?的?记忆|测试.{0,6}(?:记忆"
          r"|memory)|就测试|只是测试|随便测", r"\btest(?:ing)? (?:the |your )?memory\b|"
          r"\bthis is (?:just )?a test\b|\bjust testing\b|\bignore this\b")
# an acknowledgement of the assistant's advice ("我会认真考虑的", "I'll give it a try"): a pleasantry,
# never a durable goal of the user
ACK_ADVICE = rx(
    r"(?:谢谢|感谢|多谢)(?:你)?的?(?:建议|提醒|意见|安慰|鼓励)|(?:我|那我)(?:会|就|回头|再)?(?:认真|好好)?"
    r"(?:试试|试一下|试一试|尝试一下|照你说的|按你说的|听你的)|(?:我|那我)(?:会|就)?(?:认真|好好)?考虑(?:一下)?"
    r"(?:的|吧|看看)?$|(?:我会|会)(?:努力|尽量|尽力)(?:调整|放松|试|保持)|"
    r"我(?:会|就|也会|一定会)(?:认真|好好)?考虑(?:尝试|试试|试一下|加入|增加|找)|"
    # a commitment whose object is what the assistant said ("我会试试你推荐的方法", "我会按照这些建议调整")
    r"我(?:会|就|也会|一定会)[^，。,.；;]{0,12}(?:这些方法|这些建议|这个方法|你说的|你推荐的|你建议的|"
    r"你的建议|你提到的|你的方法)|"
    r"好主意|好建议|有道理",
    r"\bthanks?(?: you)? (?:so much |a lot )?for (?:the|your) (?:advice|suggestions?|tips?|help|input)\b|"
    r"\bi(?:'ll| will) (?:definitely |certainly |surely )?(?:give (?:it|that|them) a (?:try|shot|go)|"
    r"try (?:it|that|this|them)\b|try my best to (?:relax|calm|rest|stay|be|take|keep|adjust|maintain)|"
    r"consider (?:it|that|this|your|\w+ing\b)|think about (?:it|that|this)|keep (?:that|it|this) in mind|"
    r"take your advice|follow your (?:advice|suggestions?|tips?)|try to follow your)|"
    r"\b(?:sounds like a|that'?s a|what a) (?:good|great|nice) (?:idea|plan|suggestion)\b|"
    # a commitment whose object is what the assistant said ("I will try to implement these methods",
    # "I'll try the dishes you recommended", "I will pay attention to these aspects")
    r"\bi(?:'ll| will) (?:definitely |also |really |surely )?(?:try|consider|pay attention|do my best|"
    r"make sure|remember|practice|use|apply|implement|follow|learn from)\b[^.;!?]{0,60}\b(?:these|those|"
    r"your (?:advice|suggestions?|tips?|ideas?|methods?|recommendations?)|you (?:recommended|suggested|"
    r"mentioned|said))\b",
)
# a promise of effort in reply to advice ("我会好好实践", "我一定会试着…", "I'll try learning…",
# "I will do my best to…"): an acknowledgement even when it names a goal's topic; a goal is stated
# with an intent verb (想/打算/计划/希望/决定, want/plan/hope/decide), not with "I will try"
ACK_COMMIT = rx(
    r"我(?:一定|也|还|就|都)?会(?:好好|认真|试着|尝试|尽力|努力|继续|多多?|尽量)",
    r"\bi(?:'ll| will) (?:definitely |also |really |surely |certainly |continue to )?(?:try\b|do my best|"
    r"work hard|keep trying|make an effort|pay attention)",
)
# praise of (or warmth towards) the assistant, "always" and "每次" included: a pleasantry, never a rule
PRAISE = rx(
    r"^你(?:每次|总是|一直|永远|老是|真的|真)?(?:都)?(?:这么|那么|很|好|真|特别|超)(?:耐心|贴心|温柔|厉害|懂我|"
    r"靠谱|细心|暖|会安慰人|有耐心)|有你(?:在)?真好|多亏(?:了)?你|你(?:是|真是)(?:最好|最棒)的",
    r"\byou(?:'re| are)? (?:always|really|so|never fail to) (?:know how to|make me|manage to|so|such|"
    r"there for me|help me (?:feel|when)|cheer|understand|get me)\b|\byou(?:'re| are) the best\b|"
    r"\bi'?m always (?:here|there) (?:for you|if you)\b|\byou(?:'re| are) always (?:so )?(?:kind|patient|"
    r"helpful|sweet|nice)\b|\b(?:nice|good|great|fun|lovely) (?:talking|chatting) (?:to|with) you\b",
)
HYPOTHETICAL = rx(r"^(?:如果|假如|要是|假设|万一|倘若|假使)|"
                  r"^(?:我)?(?:在想|想象)", r"^if\b|\bsuppose\b|\bimagine\b|"
                  r"\bwhat if\b|\blet'?s say\b|\bhypothetically\b|\bin theory\b|\bpretend\b|\bwould you\b")
# a recent one-off event: detail of nothing stable ("昨天加班到两点", "a kid threw up yesterday")
RECENT_PAST = rx(r"昨天|昨晚|昨儿|前天|前两天|刚才|刚刚|刚被|刚吃|刚到|刚下班|刚起床|刚回|上周末|今早",
                 r"\b(?:yesterday|last night|the other day|last weekend|earlier today|"
                 r"this morning|just now|"
                 r"last saturday|last sunday|last friday)\b")
TRANSIENT = rx(
    r"饿(?:死|得|了|坏)|好饿|困(?:死|得)|好困|累(?:死|得|瘫)|好累|热死|冷死|烦死|"
    r"好烦|无聊死|感冒了|发烧了|心情不好|心情很差|心情差|现在还在|"
    r"躺平|摸鱼|emo了|头好痛|头疼死",
    r"\bi'?m (?:so |really |super )?(?:hungry|starving|sleepy|tired|bored|exhausted|"
    r"stressed)\b" + _nf(" of", " with"),
)
PAST_REF = rx(
    r"上次(?:跟你|和你|给你|对你)?(?:说|讲|提)|之前(?:跟你|和你|给你)(?:说|讲|提)|"
    r"以前(?:我)?(?:是|在|住|只|一直|常)|"
    r"原来(?:我)?(?:是|在|住|只)|放弃了|不学了|不考了|不做了|不干了|换了(?:家|个|份)?(?:公司|工作)|跳槽了|"
    r"(?:已经)?辞职了|离职了|被裁了?|失业了|裸辞",
    r"\bi used to\b|\bpreviously\b|\bi (?:told|said to) you (?:before|earlier)\b|"
    r"\blast time i (?:said|told)\b|"
    r"\bdropping\b|\bgiving up (?:on )?\b|\bgave up\b|\bi (?:finally |just )?left\b|"
    r"\bi (?:finally |just )?quit (?:my|the|at|working|being)\b|\bi (?:finally |just )?quit\s*$|"
    r"\bno longer doing\b|"
    r"\bi'?m done with\b|\bchange of plans?\b|\bscrap that\b",
)
CHANGE = rx(
    r"现在|改(?:成|为|了|一下|回|喝|吃|用|开|学|玩|练|听|看|住|去|坐|骑)|换(?:成|了|到|回)|不再|已经不|"
    r"搬(?:到|去|家)|得改|变了|卖(?:了|掉)|"
    r"更新一下|同步一下|跟你同步|改主意",
    r"\bupdate\b|\bnow\b|\bchanged?\b|change of plans?|\bswitched\b|\bswitch (?:back|to)\b|\bgo back to\b|"
    r"\binstead\b|\bno longer\b|\banymore\b|\bsold\b|\btraded in\b|\bgot a new\b|"
    r"\bany more\b|\bmoved\b|\bnew job\b|\bthese days\b|\bactually\b|\bnot .{1,30} anymore\b",
)
# "...\b" after Chinese words needs re's Unicode boundary: here "not followed by a letter" (consumed)
TOPIC_SHIFT = rx(r"^(?:另外|还有|对了|然后|顺便|此外|btw|also|anyway|"
                 r"by the way|oh and|p\.?s)(?:$|[^\w])", r"^(?:另外|还有|对了)")
FORGET = rx(
    r"(?:你|帮我|请|麻烦|就)?.{0,3}(?:忘掉|忘了吧|忘记吧|删掉|删了|删除|抹掉|清除|"
    r"去掉)(?:吧|它|这条|那条|哈)?|"
    r"(?:别|不要|不用|无需|不必)(?:再)?(?:记|记住|记着|存|保存|提)(?:了|它|这个|那个|这件事|那件事)?|"
    r"别再提|不想(?:你|被)?(?:再)?(?:记|提起|被提起)|从(?:你的)?记忆(?:里|中)(?:删|"
    r"去)|当(?:我)?没(?:听过|说过?|提过)|"
    r"别往心里记|不用存|别存",
    r"\bforget (?:about )?(?:the|that|this|my|it|what|i)\b|\bforget [a-z]+\b|\bdelete (?:that|"
    r"the|my|it|this)\b|"
    r"\bremove (?:that|the|it|this)\b.{0,30}\b(?:memory|memories|from)\b|\bdon'?t (?:remember|"
    r"keep|store|save|record) "
    r"(?:that|this|it|the|my|anything about)\b|\berase (?:that|it|this)\b|\bwipe (?:that|"
    r"it|this)\b|\bscratch that\b|"
    r"\bstrike that\b|"
    r"\bdon'?t want (?:that|it|this) in your memory\b|\bout of your memory\b",
)
# a reminder to keep something is never a request to forget it ("don't forget I'm allergic", "别忘了…")
KEEP_REMINDER = rx(r"别忘|不要忘", r"\b(?:don'?t|do not|never) forget\b")
FORGET_TOPIC_ZH = re.compile(
    r"(?:关于|把)?(?P<t>[^，,。]{1,16}?)(?:的)?(?:那条|这条|那件事|这件事|那个事|"
    r"那事|这事|的事情?|那些|这个|那个)"
)
FORGET_TOPIC_ZH_BA = re.compile(r"把(?P<t>[^，,。]{1,16}?)(?:的事|那条|这条)?(?:忘|删|去|抹|清)")
FORGET_TOPIC_EN = re.compile(
    r"\b(?:forget|delete|remove|erase|wipe|don'?t keep|don'?t remember|don'?t store|"
    r"don'?t save|don'?t record)"
    r"\s+(?:about\s+)?(?:the\s+|that\s+|this\s+|"
    r"my\s+|what i said about\s+)?"
    r"(?P<t>[\w' -]{1,40}?)(?:\s+(?:thing|stuff|part|bit|info|one|memory|detail))?"
    r"(?:\s*(?:,|\.|$|\b(?:from|pls|please|we|because|since|and|i'm|i was|i got)\b))"
)
FORGET_TOPIC_NOISE = re.compile(
    r"^(?:不用记|别记|不要记)|我|你|喜欢|爱吃|爱喝|爱|说过|说的|提过|之前|刚才|刚刚|"
    r"那个|这个|那件|这件|关于|的事|事情|这事|那事|"
    r"这条|那条|帮|记"
)
PERSONA = rx(
    r"自称|称呼你自己|你(?:以后)?(?:就)?(?:叫|名字叫|的名字是|的名字叫|改名)|叫你|给你(?:起|取|改)(?:个)?名|"
    r"你的名字|你的昵称|颜文字|"
    r"你(?:以后)?(?:说话|讲话|回复|聊天)(?:的时候)?.{0,6}(?:可爱|温柔|萌|俏皮|嗲|"
    r"傲娇|像个?|扮演)|扮演|人设",
    r"\bcall you\b|\byour name (?:is|will be|should be)\b|\bi'?ll call you\b|\bname you\b|"
    r"\brename yourself\b|\byou'?re (?:now )?called\b|\bkaomoji\b|\bpretend to be\b|\brole-?play\b|"
    r"\bpersona\b|\bact (?:like|as) (?:a|my)\b",
)
TASK = rx(
    r"^(?:帮我|请|麻烦你?|你)?(?:翻译|译成|改写|润色|校对|仿写|扩写|缩写|续写|写(?:一段|"
    r"一篇|一封|段|篇|封|个|一个|首|一首)|"
    r"拟(?:一段|一封|个)|生成(?:一段|一篇|一个)|起草)",
    r"^(?:please |pls |can you |could you )?(?:translate|rewrite|rephrase|paraphrase|proofread|polish|"
    r"write (?:a|an|me|up|my)|draft (?:a|an|me|my)|compose|generate (?:a|an))\b",
)
# how a user names a slot when asking to forget it ("把我的地址删了", "forget where I work")
SLOT_NAMES: dict[str, re.Pattern[str]] = {
    "fact-home_city": rx(r"地址|住址|住在哪|住哪|所在城市|城市|位置",
                         r"\b(?:address|where i live|my city|location)\b"),
    "fact-job": rx(r"工作|职业|公司|单位", r"\b(?:job|work|where i work|employer|occupation)\b"),
    "fact-allergy": rx(r"过敏", r"\ballerg"),
    "fact-pets": rx(r"宠物|猫|狗", r"\b(?:pets?|dogs?|cats?)\b"),
    "fact-relationship": rx(r"对象|男朋友|女朋友|前任|恋爱|感情",
                            r"\b(?:boyfriend|girlfriend|partner|dating|ex|relationship)\b"),
    "fact-family": rx(r"家人|家里人|孩子|老婆|老公", r"\b(?:family|kids|wife|husband)\b"),
    "fact-age": rx(r"年龄|岁数|生日", r"\b(?:age|birthday)\b"),
    "fact-health": rx(r"病|健康|身体", r"\b(?:health|medical|condition|diagnosis)\b"),
}
FORGET_STOP = {
    "it", "that", "this", "about", "everything", "all", "what", "i", "me", "你", "我", "它", "这", "那",
}

WRONG_SLOT = rx(
    r"我的?(?:城市|所在城市|所在地|居住地|常住地|国家|省份|所在省份|坐标|家乡|老家)(?:是|在|:)\s*\d+",
    r"\bmy (?:city|country|province|state|hometown|location) is \d+",
    r"(?:住在|来自|生活在)\s*\d{2,}",
    r"\b(?:live|living|based) in \d{2,}\b",
)

# A clause whose subject is a person named by a capitalised name ("Anna lives in Paris", "Tom is
# allergic to peanuts"): matched on the original text (case matters), only when the clause never
# speaks of the user (FIRST_PERSON), so "Mandarin is my native language" stays the user's fact.
NAMED_SUBJECT_EN = re.compile(
    r"^[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+"
    r"(?:is|was|has|had|lives|lived|moved|works|worked|loves|likes|hates|eats|drinks|speaks|"
    r"can't|cannot|can|doesn't|does|did|got|gets|became|keeps|owns|drives|studies|studied|"
    r"just|still|also|never|always|now)\b"
)
# the subject of a sentence is a relative or partner / a friend, colleague or other acquaintance
_KIN_ZH = alt(lexicon.FAMILY_ZH + lexicon.PARTNER_ZH)
_KIN_EN = alt([w.lower() for w in lexicon.FAMILY_EN + lexicon.PARTNER_EN])
FAMILY_SUBJECT = rx(r"^(?:我|我家|我们家)(?:的)?(?:大|小|二)?" + _KIN_ZH,
                    r"^(?:my|our) (?:\w+ )?" + _KIN_EN + r"(?:'s)?\b")
# a relative or partner named anywhere ("wife is German, 我们有个儿子叫 Leo"): a fact of the user's family
KIN_WORD = rx(_KIN_ZH, r"\b" + _KIN_EN + r"\b")
FRIEND_SUBJECT = rx(r"^我(?:的)?(?:最好的|一个|一位|好)?(?:朋友|同事|老板|领导|同学|室友|邻居|哥们|闺蜜|"
                    r"客户|发小)",
                    r"^我(?:的)?\s*(?:best )?(?:friend|colleague|coworker|boss|roommate|flatmate|housemate|"
                    r"neighbou?r|classmate|bff)\b",
                    r"^my (?:best |close |old |good )?(?:friend|colleague|coworker|co-worker|boss|roommate|"
                    r"flatmate|housemate|neighbou?r|client|manager|buddy|mate|classmate)s?\b")
FIRST_PERSON = rx(r"我|本人|咱", r"\b(?:i|i'm|i've|i'd|i'll|im|ive|me|my|mine|we|we're|our)\b")
THIRD_PARTY_START = rx(
    r"^(?:他|她|它|他们|她们|它们|我(?:的)?(?:朋友|同事|老板|领导|同学|室友|邻居|"
    r"哥们|闺蜜|客户)|朋友|同事|老板|领导|室友)",
    # mixed: "我 roommate 是个 vegan"
    r"^我(?:的)?\s*(?:best )?(?:friend|colleague|coworker|boss|roommate|flatmate|housemate|neighbou?r|"
    r"classmate|bff)\b",
    r"^(?:he|she|they|it|my (?:friend|colleague|coworker|boss|roommate|neighbou?r|client|manager))\b",
    # a relative or partner as the subject: a fact about the family, never the user's own preference
    r"^(?:我|我家|我们家)(?:的)?(?:大|小|二)?" + _KIN_ZH,
    r"^(?:my|our) (?:\w+ )?" + _KIN_EN + r"\b" + _nf(" and i"),
)
TRIP = rx(r"出差|旅游|旅行|度假|玩几天|玩两天|转转|探亲|路过|开会|参会|签证",
          r"\b(?:on (?:a )?(?:vacation|holiday|trip|business trip)|visiting|traveling|"
          r"travelling|for (?:a|the) "
          r"(?:week|conference|trip|visit|few days)|until|layover|conference)\b")
HEDGE = rx(r"也许|说不定|不一定|还没想好|还不确定|"
           r"可能吧|随便想想", r"\bmaybe\b|\bnot sure\b|\bmight\b|\bperhaps\b|"
           r"\bwho knows\b|\bjust an idea\b")

# --- slot triggers ---------------------------------------------------------------------------
PLACE_ZH_ALT = alt(lexicon.PLACES_ZH)
PLACE_EN_ALT = alt([p.lower() for p in lexicon.PLACES_EN])
DEICTIC_ZH = alt(lexicon.PLACE_DEICTIC_ZH)
PLACE_ZH_GENERIC = r"[\u4e00-\u9fff]{1,5}?(?:市|省|县|自治区|特别行政区)"
PLACE_ZH = rf"(?:{PLACE_ZH_ALT}|{PLACE_ZH_GENERIC}|{DEICTIC_ZH})"
FUTURE_MOVE = rx(r"(?:打算|准备|计划|想|要|将|会|考虑|明年|下个月|"
                 r"以后)(?:要)?(?:搬|去|到)", r"\b(?:will|going to|gonna|"
                 r"planning to|plan to|want to|might|may|thinking about|considering|"
                 r"hope to)\b.{0,12}\b(?:move|moving|"
                 r"relocate|relocating)\b|\b(?:moving|relocating) to .{1,30}\bnext\b|"
                 r"\bwe'?re (?:moving|relocating)\b")
LOC_ZH = [
    re.compile(rf"(?:住在|住|生活在|生活于|定居在|定居于|定居|常住在?|居住在|居住于|"
               rf"人在|base在|坐标|落户在?|扎根在?)\s*"
               rf"(?P<p>{PLACE_ZH})"),
    re.compile(rf"(?:搬(?:家)?|跳槽|调|调动|外派)(?:到|去|来)了?\s*(?P<p>{PLACE_ZH})"),
    re.compile(rf"搬回(?:到|了)?(?:老家|家乡)?\s*(?P<p>{PLACE_ZH})"),
    re.compile(rf"(?:来|回|去)(?:到|了)?\s*(?P<p>{PLACE_ZH})\s*(?:工作|发展|定居|"
               rf"生活|上班|读书|安家|扎根)"),
    re.compile(rf"(?:^|我|我们|目前|现在|一直|还|也|平时)(?:是)?\s*在\s*(?P<p>{PLACE_ZH})"
               rf".{{0,14}}(?:上班|工作|生活|定居|读书|上学|念书|打工|实习|做|当|"
               rf"干|教|开|住|待|呆|发展|读|上大学|买了房)"),
    re.compile(rf"我的?(?:城市|所在城市|所在地|居住地|常住地|国家|省份|所在省份|坐标)(?:是|"
               rf"在|:)\s*(?P<p>{PLACE_ZH})"),
]
HOMETOWN_ZH = [
    re.compile(rf"我是\s*(?P<p>{PLACE_ZH_ALT}|{PLACE_ZH_GENERIC})\s*人"),
    re.compile(rf"(?:老家|家乡)(?:是|在)?\s*(?P<p>{PLACE_ZH_ALT}|{PLACE_ZH_GENERIC})"),
]
OCC_EN_FWD = alt([o.lower() for o in lexicon.OCCUPATIONS_EN])
_EN_PLACE_TAIL = (
    r"(?P<p>[a-z][a-z.'\- ]{1,40}?)(?:$|[,.;!?(]| for | since | with | and | but | because | now| last| \d|"
    r" about| over| ever| ~| —| -)"
)
LOC_EN = [
    re.compile(r"\b(?:live|living|lives|reside|residing|based|settled|located|staying long-term)\s+(?:in|"
               r"at|out of|"
               r"near)\s+" + _EN_PLACE_TAIL),
    re.compile(r"\b(?:moved|relocated|moved back|i moved)\s+(?:from [\w .'-]{2,30}? )?(?:to|back to)\s+"
               + _EN_PLACE_TAIL),
    re.compile(r"\b(?:moved|relocated|moved back)\s+(?P<p>here|there)\b"),
    re.compile(r"\bmy (?:city|country|location|home city) is\s+" + _EN_PLACE_TAIL),
    re.compile(r"\b(?:i'?m|i am) (?:now |currently )?(?:back )?(?:based |"
               r"living )?in\s+(?P<p>" + PLACE_EN_ALT
               + r")\b" + _nf(*(" for " + w for w in ("a", "the", "an", "two", "three", "work", "business",
                                                      "vacation", "holiday", *"0123456789")))),
    re.compile(r"\bi(?:'m| am) (?:currently |"
               r"now )?in\s+(?P<p>" + PLACE_EN_ALT + r")\b for (?:good|work|the long)"),
    re.compile(r"(?:\bi(?:'m| am) |^)(?:a|an) (?:[\w-]+ ){0,3}?" + OCC_EN_FWD
               + r"s? (?:in|based in|out of)\s+(?P<p>" + PLACE_EN_ALT + r")\b"),
]
HOMETOWN_EN = [
    re.compile(r"\bi(?:'m| am) (?:originally )?from\s+" + _EN_PLACE_TAIL),
    re.compile(r"\bgrew up in\s+" + _EN_PLACE_TAIL),
]

OCC_ZH = alt(lexicon.OCCUPATIONS_ZH)
ROLE_ZH = alt(lexicon.ROLE_FIELDS_ZH + lexicon.OCCUPATIONS_ZH)
SUBJECT_ZH = alt(lexicon.TEACH_SUBJECTS_ZH)
ACRONYM_ROLE = r"(?:sre|ui|ux|qa|pm|hr|dba|devops|ios|android|java|python|go|c\+\+|it|bd|ai|ml|nlp|cv|seo)"
# "现在做算法工程师", "当了一名护士": doing a job, not a project ("在做" inside "现在做")
JOB_AS_ZH = re.compile(rf"(?:做|当|干)(?:了)?(?:一名|一个|名|个)?\s*"
                       rf"(?P<role>[^,，。做当干]{{0,8}}?(?:{OCC_ZH}))(?:$|[,，。；;！!了的吧啊呢])")
JOB_ZH = [
    re.compile(rf"我(?:主要|目前|现在)?负责\s*(?P<role>[^,，。]{{0,8}}?(?:{ROLE_ZH}|{ACRONYM_ROLE}\b))"),
    re.compile(rf"(?:^|本人|我)(?:是)?\s*(?P<role>[^,，。]{{0,6}}?(?:{OCC_ZH}))\s*(?:一枚|一个|一名|一只)"),
    re.compile(rf"在(?P<org>[^,，。]{{1,20}}?)(?:做|当|干|负责|从事)\s*(?P<role>[^,，。]{{0,8}}?(?:{ROLE_ZH}"
               rf"|{ACRONYM_ROLE}\b))"),
    re.compile(rf"在(?P<org>[^,，。]{{1,20}}?)教\s*(?P<role>{SUBJECT_ZH})"),
    re.compile(r"在(?P<workplace>[^,，。]{1,20}?)(?:上班|工作|实习|任职|就职|供职|打工)"),
    # a job change names the new employer: "我跳槽去字节了", "换工作到了华为"
    re.compile(r"(?:跳槽|换工作|入职)(?:去|到|进)了?(?P<workplace>[^,，。]{2,20}?)(?:了|上班|工作)?$"),
    re.compile(rf"我(?:现在|目前|自己)?是(?:一名|一个|一位|个|名|位)?\s*(?P<role>[^,，。]{{0,12}}?(?:{OCC_ZH}"
               rf"))"),
    re.compile(rf"(?:^|我|还是|一直|目前|现在|主要)(?:是)?(?:做|干|从事|搞)\s*(?P<role>[^,，。]{{0,8}}?(?"
               rf":{ROLE_ZH}|"
               rf"{ACRONYM_ROLE}\b)[^,，。]{{0,6}}?)(?:的|工作|这行|行业|相关|方面)?$"),
    re.compile(rf"(?:^|我)(?:在)?教\s*(?P<role>{SUBJECT_ZH})"),
    re.compile(r"(?:我的)?(?:职业|工作|本职)(?:是|:)\s*(?P<role>\S{2,})"),
    # ... and where the user works as one: "在苏州一家工厂当质检员", "在码头做装卸工"
    re.compile(r"在(?P<org>[^,，。]{1,20}?)(?:当|做|干)(?:了)?(?:一名|一个|名|个)?\s*(?P<role>[^,，。的做当干]{1,6}?"
               r"(?:师|员|工|匠|司机|医生|护士|经理|主播|记者|编辑|警察|厨师|保安))(?:$|[,，。])"),
    # an occupation outside the word list, by its ending: "我是一名殡葬礼仪师", "我是一名高铁乘务员"
    re.compile(r"^(?:我|本人)(?:现在|目前)?是(?:一名|一位|名|位)\s*(?P<role>[^,，。的]{1,8}?(?:师|员|工|匠|官|"
               r"司机|医生|护士|经理|主播|博主|记者|编辑|作家|画家|警察|农民|厨师|保安|快递员))(?:$|[,，。])"),
]
JOB_HISTORY_ZH = re.compile(r"(?:之前|以前|曾经|原来|前几年)在(?P<org>[^,，。]{1,16}?)(?:做|"
                            r"干|当|上)了?\s*(?:[0-9一二两三四五六七八九十几多半]+年)?"
                            r"(?P<role>[^,，。]{0,10})")
# service the user did before ("I used to be in the military", "I'm a retired teacher"): a lasting fact,
# not an old value the user is correcting (a bare "I used to be a nurse, now..." is an update: PAST_REF)
JOB_HISTORY_EN = re.compile(
    r"\bi used to be in the (?:military|army|navy|air force|marines|coast guard|national guard)\b|"
    r"\bi (?:was|served) in the (?:military|army|navy|air force|marines|coast guard|national guard)\b|"
    r"\bi(?:'m| am) an? (?:retired|former) [\w -]{2,30}|\bi(?:'m| am) an? (?:army|navy|military) veteran\b|"
    r"\bi(?:'m| am) an? veteran\b"
)
# where and how the user lives without a place name ("I live in a small town / on a farm")
HOME_KIND_EN = re.compile(
    r"\bi (?:live|grew up|reside) (?:in|on|out in) (?:a |an |the )?(?:\w+ ){0,2}?(?:town|village|city|farm|"
    r"ranch|countryside|country|suburbs?|apartment|condo|trailer|cabin|house|island|mountains)\b"
)
# the user's home and what it has ("I have a large garden", "I rent an apartment", "I own a boat")
HOME_HAS_EN = re.compile(
    r"\bi (?:have|own|rent) (?:a|an|two|my own) (?:(?:big|large|small|huge|little|tiny|nice|vegetable|"
    r"private|one-bedroom|two-bedroom|studio) ){0,2}(?:garden|yard|backyard|pool|boat|sailboat|cabin|farm|"
    r"ranch|house|vineyard|orchard|greenhouse|workshop|apartment|flat|condo|lake house|beach house)\b"
)
NOT_JOB_ROLE = re.compile(r"^(?:饭|菜|作业|家务|运动|梦|手术|饭菜|好|完|过|了|一个|个|些|点|事)")
GOAL_NEAR = re.compile(r"(?:想|打算|准备|希望|要|转|计划|争取)(?:要)?(?:做|干|从事|转|当)")
OCC_EN = alt([o.lower() for o in lexicon.OCCUPATIONS_EN])
JOB_EN: list[re.Pattern[str] | re.Unless] = [
    # an appositive in an introduction: "I'm Dana, a UX designer in Amsterdam"
    re.compile(r"^(?:a|an) (?P<role>(?:[\w/&'+-]+\s+){0,4}?" + OCC_EN + r")s?\b"),
    re.compile(r"\bi(?:'m| am)\s+(?:now |currently |still |actually |just |also |a full-time |working as )*"
               r"(?:a|an|the)\s+(?P<role>(?:[\w/&'+-]+\s+){0,4}?" + OCC_EN + r")s?\b"),
    re.compile(r"\bi work (?:nights |days |weekends |nights and weekends |part[- ]time |full[- ]time |"
               r"remotely )?as (?:a |an |the )?(?P<role>[\w' -]{2,40})"),
    # not "i work at home / in the morning" (a lookahead in ``re``)
    re.Unless(re.compile(r"\bi(?: currently| still)? work (?:at|for|in) (?P<org>[\w&' .-]{2,40})"), "org",
              re.compile(r"home\b|the morning|the evening|night")),
    re.compile(r"\b(?:a|my|new|the|current)\s+job\s+(?:at|with|in|as)\s+(?P<org>[\w&' .-]{2,40})"),
    re.compile(r"\bi teach (?P<role>[\w -]{2,30})"),
    re.compile(r"\bi do (?P<role>[\w -]{2,30}?) (?:for|at|in) (?:a|an|the|my|our)\b"),
    re.compile(r"\bi work in (?P<role>marketing|finance|tech|sales|hr|healthcare|education|"
               r"retail|hospitality|"
               r"insurance|banking|consulting|real estate|construction|logistics|media|publishing|law|it|"
               r"government|manufacturing|nonprofits?|academia|pharma|biotech)\b"),
    re.compile(r"\b(?:by profession|for a living|my job is|my profession is|my day job is|"
               r"i'?m employed (?:at|by|as)|"
               r"i'?m working (?:at|for|as))\b"),
]
# "I'm a horse trainer / bodybuilder / beekeeper": an agent noun outside the occupation list is what the
# user is or does (a fact), unless its head is a relative, a leisure role or a disposition (NOT_AGENT_EN)
AGENT_NOUN_EN = re.compile(
    r"\bi(?:'m| am)\s+(?:now |currently |also |actually |just |still )*(?:a|an)\s+"
    r"(?P<role>(?:[\w-]+\s+){0,2}?(?:[\w-]{2,}(?:er|or|ist|ian|smith|wright)|[\w-]+ (?:guide|agent|coach)))"
    # "i'm a graphic novelist living in portland": the role before where the user lives or works is the job
    r"(?:\s*$|[,.;!]| and\b| so\b| at\b| in\b| for\b| by\b| who\b| with\b| from\b| on\b| but\b|"
    r" (?:living|based|working) (?:in|at|near|out of|from)\b)"
)
NOT_AGENT_EN = re.compile(
    r"(?:^|\s)(?:mother|father|brother|sister|daughter|grandmother|grandfather|partner|fan|lover|beginner|"
    r"member|user|customer|follower|supporter|believer|player|gamer|runner|swimmer|hiker|reader|eater|"
    r"drinker|smoker|watcher|listener|collector|learner|cyclist|traveler|traveller|perfectionist|optimist|"
    r"pessimist|realist|minimalist|introvert|extrovert|vegetarian|pescatarian|other|better|bigger|older|"
    r"younger|newer|major|minor|junior|senior|fresher|foreigner|stranger|newcomer|outsider|winner|loser|"
    r"survivor|worrier|dreamer|thinker|teenager|toddler|number|talker|sucker|helper|visitor|"
    r"neighbor|neighbour|dinner|liver|monster|master|sinner|partier|procrastinator|doer)$"
)
AGE_ZH = re.compile(r"我(?:今年)?(?:已经)?(?P<n>[0-9]{1,2}|[一二三四五六七八九十]{1,3})岁")
AGE_EN = re.compile(r"\bi(?:'m| am|’m) (?P<n>[1-9][0-9]?)(?: years old| yo| y/o|\s*$|,| and| now)")

FAMILY_ZH = alt(lexicon.FAMILY_ZH)
FAMILY_PRED_ZH = (r"(?:今年|已经|刚)?(?:[0-9]{1,2}|[一二两三四五六七八九十]{1,3})(?:岁|"
                  r"个月)|上(?:小学|初中|高中|大学|幼儿园|"
                  r"[一二三四五六]年级)|[一二三四五六七八九]年级|读(?:小学|初中|高中|"
                  r"大学|研|博)|叫|名字|在.{1,12}(?:上班|工作|"
                  r"读书|上学|念书)|是" + _nf("不是") + r"|过敏|出生|怀孕|刚生|结婚|退休|住在|身体|"
                  r"做.{1,6}的|当.{1,6}|跟不上|成绩|"
                  r"上学|幼儿园|小学|初中|高中|大学|[初高][一二三]|大[一二三四]|研[一二三]|毕业|工作了|"
                  r"上班了|考上|读研|读博|在学|正在学|在练|学了.{1,6}年|"
                  # a relative's taste is a fact about the user's family, never the user's preference
                  r"(?:特别|很|最|超|非常)?(?:喜欢|爱吃|爱喝|爱看|爱玩|爱听|讨厌|不吃|不喝|不能吃|吃不了)")
# a clause that opens with the user's partner or child, the "我" left out in chat ("…，老婆在 Tim Hortons
# 上班"): their job or place is the family's fact, never the user's own (``detectors``)
KIN_FIRST_ZH = re.compile(r"^(?P<rel>老婆|老公|媳妇|爱人|对象|男朋友|女朋友|儿子|女儿)"
                          r"(?:在|是|做|当|开|从事|上|读|今年)")
FAMILY_ZH_RX = [
    re.compile(rf"(?:我|我家|我们家|家里)(?:的)?(?:大|小|二)?(?P<rel>{FAMILY_ZH}).{{0,6}}?(?:{FAMILY_PRED_ZH}"
               rf")"),
    re.compile(rf"我(?:有|家有|生了)(?:一个|两个|三个|个|俩|一对|一儿一女)?(?:[0-9]+岁的)?(?P<rel>{FAMILY_ZH}"
               rf")"),
    re.compile(r"我(?:已经)?(?:当|做)(?:了)?(?:爸爸|妈妈|爸|妈|父亲|母亲)|我是(?:.{0,4})(?:宝妈|"
               r"宝爸|全职妈妈|全职爸爸|独生子|独生女|家里老大|家里老二|家里老小)"),
    KIN_FIRST_ZH,
]
FAMILY_EN = alt(lexicon.FAMILY_EN)
FAMILY_EN_RX = [
    re.compile(rf"\b(?:my|our)\s+(?:\w+\s+)?(?P<rel>{FAMILY_EN})\b\s*(?:is|are|was born|"
               rf"just turned|turned|goes to|"
               r"started|just started|has|have|works|lives|named|called|\(\d|\d|in (?:\w+ )?grade|"
               r"(?:really |absolutely )?(?:loves|likes|hates|enjoys|adores)|"
               r"(?:can't|cannot|doesn't|won't) eat|"
               r"who is|who's|and i|and me)"),
    # a named relative's taste: "my sister Ana loves jazz"
    re.compile(rf"\b(?:my|our)\s+(?P<rel>{FAMILY_EN})\s+[a-z]+\s+(?:really )?"
               r"(?:loves|likes|hates|enjoys|adores)\b"),
    re.compile(rf"\bi have (?:a|an|one|two|three|four|\d|twin) (?:[\w-]+ )?(?:\d+[- ]year[- ]old )?(?P<"
               rf"rel>{FAMILY_EN})\b"),
    re.compile(r"\bi(?:'m| am) (?:a )?(?:mom|mum|dad|mother|father|parent|single mom|"
               r"single dad|stepmom|stepdad)\b"),
    re.compile(r"\bmom of\b|\bdad of\b|\bmother of\b|\bfather of\b"),
    re.compile(r"\bi (?:just |recently )?became an? (?:first[- ]time |new |proud )?(?:mom|mum|dad|mother|"
               r"father|parent|grandma|grandpa|grandmother|grandfather|grandparent)\b|"
               r"\bi(?:'m| am) an? (?:first[- ]time|new|proud|young) (?:mom|mum|dad|mother|father|parent)\b"),
]
PARTNER_ZH_ALT = alt(lexicon.PARTNER_ZH)
RELATION_ZH = [
    re.compile(rf"我(?:的)?(?P<rel>{PARTNER_ZH_ALT})(?:是|叫|在|做|住|今年|[0-9]+岁|也是)"),
    re.compile(rf"我(?:有)?(?:{PARTNER_ZH_ALT})了|(?:在)?谈恋爱|我(?:是)?单身|(?:目前|"
               rf"现在|还是|一直)单身|母胎单身|我已婚|"
               rf"我(?:已经)?结婚了|我订婚了|我们订婚"),
]
RELATION_EN = [
    re.compile(r"\b(?:i'?ve been |i'?m |been )?(?:seeing|dating) (?:someone|somebody|"
               r"a guy|a girl|this guy|this girl|"
               r"[a-z]+ for)"),
    re.compile(r"\bmy (?:boyfriend|girlfriend|bf|gf|fiance|fiancé|fiancee|fiancée|partner)\b(?: is|"
               r" and i|'s name| works|"
               r" lives| named| called)"),
    re.compile(r"\b(?:i'?ve been|we'?ve been|i'?m|we'?re|i am|we are|been) (?:happily )?(?:single|married|"
               r"engaged|divorced|in a relationship)\b|"
               r"\bi (?:just )?got (?:married|engaged)\b"),
]
BREAKUP = rx(r"分手了|离婚了|分了", r"\bbroke up\b|\bsplit up\b|\bgot divorced\b|\bwe'?re (?:over|done)\b")
JOB_LOSS = rx(r"辞职了|离职了|被裁了?|失业了|"
              r"裸辞了?|退休了", r"\bquit my job\b|\bgot laid off\b|\blost my job\b|\bi'?m unemployed\b|"
              r"\bi retired\b|\bbetween jobs\b")
# a job that ends soon is not ended ("快退休了", "马上要辞职了", "about to retire"): no loss of the job yet
JOB_ENDS_SOON = rx(r"(?:快|快要|就要|马上要?|即将|准备|打算|明年|年底)(?:就)?(?:退休|辞职|离职)",
                   r"\b(?:about to|going to|gonna|soon to|planning to) (?:retire|quit my job)\b")

PETS_ZH = alt(lexicon.PETS_ZH)
PETS_ZH_RX = [
    re.compile(rf"(?:我家|我养的?|养了|我的|我有|家里有?|家里养了?|我们家)(?:一只|两只|"
               rf"三只|[0-9]+只|一条|两条|只|条|个|一个)?"
               rf".{{0,6}}?(?P<pet>{PETS_ZH})"),
    re.compile(rf"(?P<pet>{PETS_ZH})(?:叫|名叫|名字叫)"),
]
PETS_EN = alt(lexicon.PETS_EN)
PETS_EN_RX = [
    re.compile(rf"\b(?:my|our)\s+(?:[\w-]+\s+){{0,2}}?"
               rf"(?P<pet>{PETS_EN})s?\b"),
    re.compile(rf"(?:^|\bi |\bwe |\bi'?ve |\bwe'?ve )(?:\w+ )?"
               rf"(?:have|got|adopted|own|rescued|foster|fostered) (?:a|"
               rf"an|two|three|"
               rf"four|\d|one|a second|another)?\s*(?:[\w-]+\s+){{0,2}}?(?P<pet>{PETS_EN})s?\b"),
]

ALLERGY = rx("过敏" + _nf("性鼻炎") + "|不耐受",
             r"\ballergic\b|\ballerg(?:y|ies)\b|\bintoleran(?:t|ce)\b|\bceliac\b|\bcoeliac\b|"
             r"\banaphyla")
HEALTH_ZH = alt(lexicon.HEALTH_ZH)
HEALTH_EN = alt([h.lower() for h in lexicon.HEALTH_EN])
# a condition the list does not name, told by the user as theirs and named by its kind ("我有 G6PD 缺乏症",
# "我患有<X>综合征", "i have <X> syndrome", "diagnosed with <X> disorder"): the kind words are closed classes
# (a flaw or a joke named like one, "毛病", "拖延症", "选择困难症", is none)
_CONDITION_ZH = (r"(?:我|本人)(?:有|得了|得过|患有|患了|确诊了?|查出了?|被诊断(?:出|为)?)"
                 r"[^，。,.!?！？]{0,14}?"
                 r"(?:缺乏症|综合征|综合症|[^心毛通职业公主拖延难强迫懒]症|[^心毛通职业公主]病)")
_CONDITION_EN = (r"\bi(?:'ve| have|'m| am)? (?:got |been )?(?:diagnosed with |living with |have )?"
                 r"(?:[a-z0-9'\-]+ ){0,3}(?:disease|syndrome|disorder|deficiency)\b")
HEALTH = rx(HEALTH_ZH, rf"\b{HEALTH_EN}\b", _CONDITION_ZH, _CONDITION_EN)
DIET = rx(alt(lexicon.DIET_ZH), r"\b" + alt([d.lower() for d in lexicon.DIET_EN]) + r"\b")
DIET_CHOSEN = rx(alt(lexicon.DIET_CHOSEN_ZH),
                 r"\b" + alt([d.lower() for d in lexicon.DIET_CHOSEN_EN]) + r"\b")
# a diet kept for a reason of faith or health is a fact about the user, not a taste
DIET_GROUNDED = rx(r"宗教|信仰|清真|医生|医嘱|过敏|不耐受|病",
                   r"\breligio|\bfaith\b|\bhalal\b|\bkosher\b|\bdoctor|\bmedical\b|\ballerg|\bintoleran|"
                   r"\bceliac\b|\bcoeliac\b|\bcondition\b")
DIET_RETRACT = rx(r"不(?:再)?吃素了|不是素食(?:者|"
                  r"主义者)?了|开荤了|开始吃肉了", r"\b(?:not|no longer) (?:a )?(?:vegetarian|vegan|"
                  r"pescatarian)\b|\b(?:quit|stopped) being (?:a )?(?:vegetarian|vegan)\b|"
                  r"\beat(?:ing)? meat again\b")
TRAITS = rx(alt(lexicon.TRAITS_ZH),
            r"\b" + alt([t.lower() for t in lexicon.TRAITS_EN]) + r"\b")
EDUCATION = rx(
    r"在(?P<school>[^,，。]{2,12}(?:大学|学院|中学|高中|大专))(?:读|上|念)|"
    r"在[^,，。]{1,10}(?:读|上|念)(?:大[一二三四]|研[一二三]?|博[一二三四五]?|大学|"
    r"本科|硕士|博士|高中|初中)|我(?:在)?(?:读|"
    r"上)(?:大[一二三四]|研[一二三]?|博[一二三四五]?|博士|研究生|硕士|本科|大学|"
    r"高[一二三]|初[一二三])|专业是|主修|毕业于|我是.{1,10}专业的",
    r"\bi(?:'m| am) (?:a )?(?:freshman|sophomore|junior|senior) (?:at|in)\b|\bi study " + _nf("for") + "|"
    r"\bi'?m studying " + _nf("for") + "|"
    r"\bmy major is\b|\bmajoring in\b|\bgraduated from\b|\bi(?:'m| am) in (?:grad|"
    r"graduate|med|law) school\b|\bi(?:'m| am) (?:currently |still )?(?:attending|enrolled in|back in) "
    r"(?:school|college|university|community college|grad school|high school|nursing school)\b",
)

# other stable facts
VEHICLE = rx(
    r"我(?:的|家的?)车(?:是|换成)|(?:换|买|提|入手)了(?:一)?辆|"
    r"我(?:家)?(?:开|开的是|开着|有|买了)(?:一辆|辆|台)?[^,，。]{0,8}?(?:车|特斯拉|"
    r"比亚迪|宝马|奔驰|奥迪|丰田|本田|大众|蔚来|理想|"
    r"小鹏|问界|电动车|摩托|机车)",
    r"\bi (?:drive|own|have) (?:a|an|two) (?:[\w-]+ ){0,3}?(?:car|truck|suv|van|motorcycle|bike|ev|tesla|"
    r"subaru|toyota|honda|ford|jeep|prius|civic|corolla|model [3sxy]|convertible|mustang|camaro|corvette|"
    r"pickup|minivan|sedan|harley|scooter|rv|camper)\b|\bmy (?:car|"
    r"truck|suv|motorcycle) is\b|"
    r"\b(?:got|bought|traded (?:it |my [\w ]{1,20})?(?:in )?for) (?:a|an) (?:new |used )?"
    r"(?:[\w-]+ ){0,2}?(?:car|truck|suv|van|ev|tesla|model [3sxy])\b",
)
LANGUAGES_SPOKEN = rx(
    r"我(?:会|能)说[^,，。]{1,12}(?:话|语|文)|母语是|我的母语|我是(?:双语|母语者)",
    r"\bi (?:speak|am fluent in|'m fluent in)\b|\bmy (?:native|first|mother) (?:language|tongue)\b|"
    r"\bi'?m (?:a )?native (?:\w+ )?speaker\b|\bi'?m bilingual\b",
)
ALMA_MATER = rx(r"[^,，。]{2,10}(?:大学|学院|北大|清华|复旦|交大|浙大)(?:本科|硕士|"
                r"研究生|博士)?毕业|毕业于|我是[^,，。]{2,8}毕业的",
                r"\b(?:graduated from|went to (?:college|university|school) at|alum(?:na|"
                r"nus)? of|i studied at)\b")
BIRTHDAY = rx(r"我(?:的)?生日(?:是|在)", r"\bmy birthday is\b|\bi was born (?:on|in)\b")
TECH = rx(
    r"我(?:平时|一般|一直|主要)?(?:用|使用|用的是)[^,，。]{0,6}?(?:mac|macbook|windows|"
    r"linux|ubuntu|iphone|安卓|android|"
    r"华为|小米|苹果手机|ipad|vim|emacs|vscode|notion|obsidian|kindle|chrome|firefox)",
    r"\bi (?:use|mostly use|'m on|am on|daily drive|run) (?:a |an |my )?(?:mac|macbook|"
    r"windows|linux|arch|ubuntu|"
    r"iphone|android|pixel|ipad|vim|neovim|emacs|vs ?code|notion|obsidian|kindle|chromebook|firefox)\b",
)
# the device the user uses (a phone, a computer, a tablet, a reader): a thing the user has, a fact
# (``fact-devices``), where the software and tools of TECH are a taste (``preference-tech``)
TECH_DEVICE = rx(
    r"我(?:平时|一般|一直|主要)?(?:用|使用|用的是)(?:的)?(?:手机|电脑|笔记本)?(?:是)?[^,，。]{0,6}?(?:macbook|iphone|"
    r"华为|小米|苹果手机|ipad|kindle|荣耀|oppo|vivo|三星|一加)",
    r"\bi (?:use|mostly use|'m on|am on|daily drive|run) (?:a |an |my )?(?:macbook|"
    r"iphone|pixel|ipad|kindle|chromebook|galaxy|oneplus|thinkpad)\b",
)

# preferences
_ADV = (r"(?:(?:really|absolutely|totally|just|honestly|also|still|do|genuinely|kinda|"
        r"kind of|actually|truly|"
        r"seriously|definitely|personally|generally|usually|always) ){0,3}")
LIKE = rx(
    r"(?:最|很|超|特别|非常|真的|比较|更|挺|蛮|巨|贼|太|也|超级)?(?:喜欢|热爱|偏爱|"
    r"钟爱|迷上|沉迷|爱上|痴迷)|" + _np(*"可恋亲宠关疼友心") + r"爱(?:吃|喝|看|听|玩|去|用|"
    r"穿|逛|打|"
    r"做|追|上|)|离不开|是.{0,6}(?:粉|迷|党|控|爱好者|发烧友|死忠)|(?:只|就|最常|"
    r"常|经常)(?:喝|吃|用|看|听|玩|穿|去|点)|真爱|"
    r"偏好|能吃(?:辣|甜|酸|苦)|改(?:喝|吃|用|听|看|玩|穿|成)|口味(?:偏|比较)|不\S{0,2}不欢|"
    r"是(?:个|一个|一名|资深|重度)?(?:夜猫子|早起党|吃货|甜党|咸党|咖啡党|奶茶党|"
    r"猫奴|狗奴|铲屎官|宅男|宅女|"
    r"书虫|游戏宅|健身党|路痴|无辣不欢)|(?:吃|喝)\S{1,2}(?:完全|一点|都|绝对)?没问题|不怕辣|"
    r"上瘾|百吃不厌|必点|必吃|最爱|情有独钟|天天(?:吃|喝|听|看)|爱好|一定要|必须要?|非得|非要|离不了|"
    r"感兴趣|有兴趣",
    r"\bi " + _ADV + r"(?:love|like|"
    r"enjoy|adore|prefer|dig|crave|live for)\b|\bi'?m (?:really |totally |so |kind of |"
    r"kinda |lowkey |low-key )?"
    r"(?:obsessed with|into|addicted to|hooked on|a (?:big |huge |massive )?fan of|"
    r"(?:very |also |quite |more |most )?(?:interested in|passionate about|fascinated by)|"
    r"a sucker for|crazy about)\b|"
    r"\bi'?m (?:an? |such an? |the biggest )?[\w-]+(?: [\w-]+){0,3} (?:person|fan|"
    r"lover|addict|junkie|nerd|geek|"
    r"girl|guy|snob|enthusiast|fanatic|buff|head)\b|没有?抵抗力|无法抗拒|抗拒不了|欲罢不能|爱死|迷恋|"
    r"\b(?:switched to|moved on to|i now (?:prefer|drink|eat|use)|i'?m now into)\b|"
    r"\bmy (?:absolute |all-time )?(?:favou?rite|fave|fav|comfort|go-to|guilty pleasure)\b|"
    r"\bcan'?t live without\b|"
    # a work loved or being read/played now, an activity taken up: "I loved "Becoming Nicole"",
    # "I'm playing "Hollow Knight"", "I'm trying out yoga", "I've taken up pottery"
    r"\bi (?:(?:really|absolutely|totally|just|also) )?(?:loved|enjoyed|adored) "
    r"(?:\"|“|reading|watching|playing|listening to|"
    r"the (?:book|novel|movie|film|show|series|album|song|game|play|musical)\b)|"
    r"\bi'?m (?:(?:also|currently|now|really) )?(?:reading|playing|watching|listening to|re-?reading|"
    r"binge-?watching) (?:\"|“)|"
    r"\bi'?m (?:(?:also|now|currently) )?(?:trying out|getting into|taking up)\b|"
    r"\bi'?ve (?:(?:recently|just|also|finally) )?(?:taken up|gotten into|got into)\b|"
    r"\bthe (?:spicier|sweeter|cheesier|stronger|hotter|darker|crispier|more) the better\b|"
    r"\b(?:big|huge|heavy|avid|serious|hardcore|die-hard|lifelong) [\w-]+ (?:drinker|"
    r"eater|reader|fan|lover|"
    r"person|gamer|runner|hiker|cyclist|swimmer|watcher|listener|collector|foodie)\b|"
    r"\bi'?m an? (?:\w+ )?(?:morning|"
    r"night|dog|cat|coffee|tea|beach|mountain) person\b",
)
DISLIKE = rx(
    r"不(?:太|怎么|是很|大)?(?:喜欢|爱)|讨厌|受不了|接受不了|忍不了|不吃|不喝|不碰|"
    r"吃不了|喝不了|吃不惯|忌口|反感|不(?:太|怎么|大)?能(?:吃|喝)|"
    r"怕(?:辣|甜|酸|腥|冷|热|吵|油)|戒(?:了|掉)|最烦|不感冒|无感|别给我推荐|一点都不行|闻到就",
    r"\bi " + _ADV + r"(?:hate|dislike|detest|can'?t stand|quit|gave up|cut out|stopped eating|"
    r"stopped drinking|"
    r"can'?t do|can'?t handle|"
    r"can'?t eat|don'?t eat|don'?t drink|won'?t eat|avoid|don'?t (?:really )?like|"
    r"don'?t (?:really )?enjoy|never eat|"
    r"never drink|can'?t stomach)\b|\bnot a (?:big |huge )?fan of\b|\bnot (?:big|"
    r"huge|really|much) (?:on|into)\b|\bnot much of a\b|"
    r"\bi'?m not an? (?:\w+ )?(?:morning|night|dog|cat|coffee|tea) person\b|\bno [\w -]{2,24} (?:please|"
    r"pls|plz)\b|"
    r"\bnothing (?:with|too) \w+|\bi'?m not (?:really )?(?:into|a fan)\b|\bkeep [\w ]{2,20} away\b",
)
LIKE_OBJECT_ZH = re.compile(
    r"(?:喜欢|热爱|偏爱|钟爱|迷上|沉迷|爱上|离不开|讨厌|受不了|爱)(?:上)?(?P<o>[^,，。]{2,16})$|"
    r"对(?P<o2>[^,，。]{2,16}?)(?:很|越来越|特别|非常|比较|挺|也|一直)*(?:感兴趣|有兴趣)"
)
LIKE_OBJECT_FAN = re.compile(
    r"\bi'?m (?:an? |such an? |the biggest )?(?:(?:huge|big|massive|total|complete|"
    r"real|true|die-hard|lifelong) )?"
    r"(?P<o>[\w-]+(?: [\w-]+){0,2}) (?:person|fan|lover|addict|junkie|nerd|geek|enthusiast|fanatic|buff)\b"
)
LIKE_OBJECT_EN = re.compile(
    r"\bi " + _ADV + r"(?:love|like|"
    r"enjoy|adore|hate|prefer|can'?t stand)\s+"
    r"(?P<o>[\w' -]{3,40})|"
    r"\bi'?m (?:really |very |also |quite |more |most |so |pretty )*(?:interested in|passionate about|"
    r"fascinated by|into)\s+(?P<o2>[\w' -]{3,40})"
)
OBJECT_STOP = rx(r"^(?:你|它|这|那|他|她|我)",
                 r"^(?:it|that|this|you|your|yours|them|him|her|when|how|what|the idea|to\b|doing|a lot|"
                 r"lots|many|all sorts|all kinds|everything|anything|things|stuff)\b")
# "I like to <do something>": the activity is the object, unless the verb says nothing about a taste
LIKE_TO_EN = re.compile(r"^to (?P<o>[\w' -]{3,40})")
LIKE_TO_STOP = re.compile(r"^(?:know|think|say|see|hear|ask|keep|make sure|be|get|have|talk|chat|help you|"
                          r"thank|tell|share|let|remind|point|mention|believe|imagine|hope|try|go)\b")

# goals
GOAL_STRONG = rx(
    r"(?:从)?(?:今天|现在|明天|下周|今年|新的一年)(?:起|开始)(?:我)?(?:要|会|打算|决定|争取)|我决定|"
    r"目标|梦想|心愿|愿望|立志|决心|立.{0,3}flag|争取|力争|这辈子|今年要|明年要|长期(?:计划|打算|规划)|"
    r"年底前|年内|计划(?:在|于)?.{0,8}(?:内|前|之前|以前)|"
    r"希望(?:能)?在.{0,8}(?:内|前)|(?:[0-9一二两三四五六七八九十]{1,6}年)内",
    r"\bstarting (?:today|now|tomorrow|next week|this year),? i'?m going to\b|\bi'?ve decided to\b|"
    r"\blong[- ]term (?:plan|goal)\b|\bplan is to\b|\bin the next (?:\d+|few|couple of|two|three|five) "
    r"(?:years|months)\b|\bnext few years\b|\bgoals?\b|\bdream (?:is|of)\b|\bmy dream\b|"
    r"\bresolution\b|\bbucket list\b|"
    r"\bdetermined to\b|\baiming (?:to|for)\b|"
    r"\baim to\b|\bmy target\b|\bworking (?:toward|towards)\b|\bby (?:the )?end of (?:the |"
    r"this |next )?year\b|"
    r"\bwithin (?:\d+|a|two|three|five|ten|the next) (?:years?|months)\b|\bbefore i turn \d+\b|\bsomeday\b|"
    r"\beventually\b",
)
GOAL_WEAK = rx(
    r"打算|准备|计划|希望|想要|在攒|在存|攒钱|存钱|想"
    + _nf("说", "问", "知道", "吃", "喝", "去看", "听", "哭", "笑", "睡")
    + r"|要(?:考|学|"
    r"攒|存|减|瘦|跑|买|转|拿|过|读|练)|在备考|备考|"
    r"正在考|在考|在学|学习|努力|冲刺|考" + _nf("虑", "察") + "|转行|上岸",
    r"\b(?:want|wanna|hope|hoping|plan|planning|trying|intend|intending|going|gonna|"
    r"decided|would like|'d like) to\b|"
    r"\bstudying for\b|\bpreparing for\b|\btraining for\b|\bsaving (?:up )?for\b|"
    r"\bworking on (?:getting|my)\b|"
    r"\bi'?m learning\b|\blearning\b|\bthe goal\b|\bgoal is\b",
)

# projects
PROJECT_VERB = rx(
    r"(?:在|正在|一直在|最近在|业余在|下班(?:后)?(?:都)?在|平时在|自己在|还在|同时在)(?:做|"
    r"搞|写|开发|维护|折腾|运营|经营|打造|筹备|弄|"
    r"设计|创作|画|录|更新|捣鼓|装修|筹建)|我(?:的|自己的)?(?:副业|个人项目|开源项目)|"
    r"项目(?:代号|名字|名称|叫)|"
    r"(?:我|自己|合伙|一起)(?:开了|做了|写了|建了|搭了|运营着|经营着|维护着|开着)(?:一个|个|家|一家)|"
    r"(?:我们|团队|公司|组里)(?:在|正在)(?:做|搞|开发)",
    r"\bi(?:'m| am)? ?(?:currently |also |still )?(?:maintain|maintaining|run|running|"
    r"own|built|build|building|"
    r"develop|developing|work on|working on|started|launched|founded|co-founded|cofounded|co-host|co-run|"
    r"co-own|"
    r"created|write|writing|"
    r"manage|managing|make|making|host|hosting|designing|running)\b|\bmy (?:side project|"
    r"startup|app|store|shop|"
    r"blog|podcast|channel|newsletter|game|novel|thesis|dissertation|repo|library|"
    r"project|business|brand|band)\b|"
    r"\bwe(?:'re| are) (?:building|developing|making|launching)\b|\bour (?:startup|app|product|project)\b",
)
# restoring or rebuilding something is a project whatever the thing ("been restoring a 1972 Triumph
# motorcycle", "我在翻新一辆老式自行车")
RESTORE = rx(r"(?:在|正在|一直在|最近在)(?:修复|翻新|改装|复原)(?:一(?:辆|台|艘|座|套|把)|我的|家里的|老)",
             r"(?:^|\bi'?ve |\bi have |\bi'?m |\bi am |\bwe'?re |\bwe are )(?:been )?(?:slowly |currently )?"
             r"(?:restoring|rebuilding|refurbishing|fixing up|doing up) (?:a|an|my|our|this|an old|old)\b")
# making a thing of one's own over time, whatever the thing ("业余时间在翻译一本冰岛小说",
# "在给我妈做一本菜谱相册", "在跟几个邻居一起弄小区的共享菜园", "i'm putting together a booklet on …",
# "crocheting amigurumi versions of …", "rigging a raspberry pi cam on the bird feeder"): a project candidate
# the classifier still gates (no word list)
PROJECT_MAKING = rx(
    r"(?:在|正在|一直在|最近在|这阵子在|业余(?:时间)?在|周末(?:都)?在|慢慢在|下班(?:后)?在)"
    # how the making goes ("在慢慢刻", "在偷偷给她织") and for whom, then the thing counted by any measure
    # word ("一件毛衣", "一把椅子"; not "一下", "一些", "一点": a moment or an amount, no thing made)
    r"(?:慢慢|偷偷|悄悄|默默|自己|亲手|抽空|一点点)?(?:地)?(?:给[^，,。]{1,8})?"
    r"(?:翻译|写|做|整理|编|拍|画|织|钩|搭|修|录|剪|攒|建|筹备|拼|缝|刻|雕|组装|设计|制作|绘制|记录|汇编)"
    r"(?:一[^下些点会次遍直起样般边\s，,。！!？?]|一系列|本|个|套|部|份|张|幅|系列)|"
    r"(?:在|正在|最近在)(?:跟|和|与)[^，,。]{1,8}一起(?:弄|搞|做|建|办|种|维护|运营|筹备|整理|拍|录|写|编)",
    r"(?:^|\bi'?m |\bi am |\bi'?ve been |\bwe'?re |\bwe are |\bwe'?ve been )(?:been )?"
    r"(?:slowly |currently |still |lowkey |kinda )?"
    r"(?:putting together|compiling|knitting|crocheting|quilting|sewing|carving|whittling|transcribing|"
    r"translating|rigging|assembling|digitising|digitizing|"
    r"hand-drawing|illustrating|building|writing|making|recording|designing|coding|mapping|cataloguing|"
    r"cataloging|documenting|archiving) (?:a|an|my|our|this|some|every|all|the whole)\b",
)
PROJECT_NOUN_ZH = alt(lexicon.PROJECT_NOUNS_ZH)
PROJECT_NOUN_EN = r"\b" + alt(lexicon.PROJECT_NOUNS_EN) + r"s?\b"
PROJECT_NOUN = rx(PROJECT_NOUN_ZH, PROJECT_NOUN_EN)
PROJECT_NAME = [
    re.compile(r"[「『《“\"](?P<n>[^」』》”\"]{1,30})[」』》”\"]"),
    re.compile(r"(?:叫做?|名(?:字)?叫|名为|代号(?:是|叫)?|called|named|brand(?:'s| is) called|"
               r"name is|代号)\s*"
               r"[「『《“\"]?(?P<n>[a-z0-9][\w.\-]{1,30}|[\u4e00-\u9fff]{2,8})"),
]

# constraints
FOLLOWUP_INSTRUCTION = rx(r"就行|就好|就可以|不用太|别太|"
                          r"不要太|改成|换成|都用|用个|"
                          r"只要", r"\bjust use\b|\bis fine\b|\bno need\b|"
                          r"\binstead\b|\bkeep it\b")
