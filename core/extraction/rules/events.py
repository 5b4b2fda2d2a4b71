"""Life events of the user: the told events that change who the user is or what they have, dated.

Precision over volume (issue 24): what belongs to the day (a walk, a meal, a film tonight, a class
attended, a trip, a concert, a mood) is not a memory; it stays findable as an episode (the user's
messages). A told event becomes a memory only when it is a *life change* (``life_change``):

- a change of home, status or family: moved / relocated, married, engaged, divorced, a baby born,
  pregnant, lost a parent or a partner, retired, graduated;
- a change of work or study: a new job, hired, promoted, started at a company or a school, got into
  a university, earned a degree, a licence or a certification;
- something the user now has that lasts: a pet adopted or got, a house, a flat, a car bought;
- a diagnosis ("I was diagnosed with diabetes", "查出了高血压");
- an activity the user is doing these days (not a day's: "I'm taking a ceramics class", "I've been
  volunteering at a shelter", "我报了一个油画班"); a pastime taken up ("开始学射击", "学会了街舞", "took up
  pottery") is a preference under its topic's key (``preference-hobby`` without one), undated: the user's
  hobby now, not a dated fact (one dish or one song learned is of the day, no memory at all).

The grammar of an event told by the user (the subject must be "I"/"we"/"my X and I"/"我"/"我们";
not a plan, request, question, hypothetical or negated; not routine, "went to bed", "昨天加班到两点")
is matched first, then ``life_change`` decides. The memory is a ``fact`` under ``fact-event-<slug>``
(the event's salient words: ``fact-event-got_married_lisbon``) whose content keeps the user's words
and names (the sentence that tells the event, and the next one when it is detail of it rather than a
question or a turn to the other person) and ends with the date resolved from the message's
timestamp ("yesterday" on 2023-05-08 -> "(2023-05-07)", "last week" -> "(the week before
2023-05-08)", "去年" -> "(2022年)"; no marker -> "(by 2023-05-08)"), so temporal questions can be
answered later. Without a timestamp there is no date suffix.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from core.extraction.candidates import CandidateOp
from core.extraction.rules import patterns
from core.extraction.rules.detectors import Hit
from core.extraction.rules.keys import content_slug
from core.extraction.rules.questions import is_question
from core.extraction.rules.segment import Clause, has_cjk, normalise
from core.extraction.rules.topics import topic_of
from core.filters import normalise_key
from core.text import regex as re  # linear time (RE2), never the backtracking stdlib re

EVENT_PREFIX = "fact-event-"
CONFIDENCE = 0.8


@dataclass
class EventHit(Hit):
    """A ``Hit`` for a life event: the extractor appends ``date`` to the group's content."""

    date: str = ""


DETAIL_MAX_CHARS = 200
# a clause that only greets ("你好，朋友", "hi there"): not part of what the user tells
_GREETING = re.compile(r"^(?:(?:你好|您好|嗨|哈喽|嗯|hi|hello|hey|well|oh)[,， ]*)+"
                       r"(?:朋友|啊|呀|there|friend)?[!！.。]*$|"
                       r"^(?:朋友|亲爱的|friend|buddy)[!！.。]*$")
# a sentence that turns to the other person or away from the event
_TURNS_AWAY = re.compile(r"^(?:how|what|and you|you|your|anyway|btw|by the way|hope|thanks|thank|"
                         r"你|您|那你|对了|话说)")


def is_event_key(key: str) -> bool:
    return key.startswith(EVENT_PREFIX)


def dated(hit: Hit, when: str) -> Hit:
    """``hit`` carrying the date of the life event its clause tells ("we adopted a puppy last month"
    stays ``fact-pets``, dated), when it is a fact whose content is the user's words."""
    if not when or hit.op is not CandidateOp.UPSERT or hit.content is not None \
            or not hit.key.startswith("fact-"):
        return hit
    return EventHit(hit.key, hit.confidence, hit.content, hit.op, hit.absorbs, hit.force_merge, hit.span,
                    hit.weak, date=when)


# --- English ------------------------------------------------------------------------------------
# where the user's own account may start: the clause start, after a dash or colon ("great news - I
# joined a gym"), or after an announcement ("I'm so excited to tell you I started a yoga class")
_EN_START = r"(?:^|[-–—:;] *|\b(?:tell you|share|say|guess what|news|heads up|know|and|but|then|so)" \
            r"[!,:]? (?:that )?)"
_EN_LEAD = _EN_START + r"(?:(?:so|and|but|well|oh|yeah|yes|wow|actually|also|anyway|guess what|btw|" \
           r"by the way|hey|" \
           r"hi|omg|finally|recently|lately|yesterday|today|last (?:week|weekend|month|year|night)|" \
           r"this (?:morning|week|weekend|month|year)|a (?:few|couple of) (?:days|weeks|months) ago)[,!. ]+)*"
_EN_SUBJECT = r"(?P<s>i|we|my (?:\w+ )?(?:wife|husband|partner|family|kids|son|daughter|boyfriend|" \
              r"girlfriend|fiance|fiancee|mom|dad|friends?) and i|me and my \w+)"
_EN_ADV = r"(?: (?:just|finally|recently|actually|also|even|already|both|officially|really|once|"\
          r"have|'ve|had|'d))*"
_EN_GOODS = r"(?:house|home|apartment|flat|condo|place|car|truck|bike|motorcycle|boat|guitar|piano|violin|" \
            r"drum kit|drums|ukulele|camera|laptop|computer|telescope|puppy|dog|kitten|cat|horse|tattoo|" \
            r"painting|sculpture|instrument|kayak|tent|rv|van|cottage|cabin|farm|garden|studio|shop|" \
            r"business|degree|certificate|certification|license|licence|diploma|award|trophy|medal|job|" \
            r"promotion|scholarship|internship|position|role|pet|bunny|rabbit|hamster|parrot|tortoise|" \
            r"turtle|snake|fish tank|aquarium|console|phone|watch|ring|necklace|book deal)"
_EN_VERB = (
    r"(?:went|go|gone) (?:to|on|camping|hiking|skiing|surfing|fishing|kayaking|rock climbing|climbing|"
    r"backpacking|snorkeling|scuba diving|sailing|horseback riding|road[- ]tripping)|"
    r"(?:attended|joined|volunteered|participated|enrolled|competed|performed|graduated|retired|"
    r"adopted|visited|traveled|travelled|toured|hiked|camped|celebrated|hosted|organized|organised|"
    r"launched|published|released|recorded|founded|opened|painted|sculpted|exhibited|won|earned|"
    r"received|completed|finished|started|began|learned|learnt|taught|signed up|moved|relocated|"
    r"married|got married|got engaged|got divorced|divorced|got promoted|got hired|got accepted|"
    r"got into|was promoted|was accepted|was hired|became|gave birth|welcomed|had (?:a|our|my) "
    r"(?:baby|son|daughter|first)|ran (?:a|my|the|our|in)|raced|passed|met|took (?:a|an|up|part|my|our)|"
    r"bought|purchased|got (?:a|an|my|our)(?: new| first| own)? " + _EN_GOODS + r"|"
    r"built|created|designed|developed|composed|choreographed|directed|filmed|produced|wrapped up|"
    r"made (?:this|these) [a-z]+ [a-z]+|made (?:a|an|my|our) (?:own |first )?(?:painting|sculpture|"
    r"quilt|album|film|movie|documentary|game|app|website|podcast|book|pottery|bowl|vase)|"
    r"wrote (?:a|an|my|our)|"
    r"lost (?:my|our) (?:mom|dad|mother|father|grandma|grandmother|grandpa|grandfather|brother|"
    r"sister|husband|wife|friend|dog|cat|job)|"
    r"gave (?:a|my|our) (?:talk|speech|presentation|lecture|concert|performance)|"
    r"(?:'ve|have) been (?:to|[a-z]{3,}ing))"
)
# the user may tell it anywhere in the clause ("one special memory was this parade I went to")
_EN_EVENT = re.compile(r"\b" + _EN_SUBJECT + r"(?:'ve|'d)?" + _EN_ADV + r" (?P<v>" + _EN_VERB
                       + r")(?P<rest>(?:[^\w'].*)?)$")
# an activity the user is doing these days ("I'm running for office again", "I'm taking a pottery class")
_EN_ONGOING = re.compile(
    _EN_LEAD + r"(?P<s>i'm|i am|we're|we are)(?: (?:now|currently|still|also|really|finally|even))* "
    r"(?P<v>running for|training for|studying|"
    r"taking (?:a|an|some) [a-z ]{0,20}(?:class|classes|course|lessons)|"
    r"volunteering|mentoring|coaching|teaching|learning to|learning (?:how|the|a|an)|writing (?:a|my|an)|"
    r"building (?:a|my|an|our)|renovating|restoring|fostering|raising|researching|competing|"
    r"performing|recording|organizing|organising|hosting|doing (?:kickboxing|yoga|pilates|karate|"
    r"taekwondo|judo|boxing|ballet|crossfit|martial arts|therapy|counseling))"
    r"(?P<rest>(?:[^\w'].*)?)$")
# a stay somewhere the user names ("I was in Chicago, it was awesome"): matched on the original text,
# a place is capitalised
_EN_TRIP = re.compile(
    r"(?:^|[-–—:;] *)(?:(?:[Ss]o|[Ww]ell|[Oo]h|[Yy]eah|[Yy]es|[Ww]ow|[Aa]ctually|[Aa]lso|[Bb]tw|"
    r"[Hh]ey)[,!. ]+)*"
    r"(?P<s>I|We|we)(?: (?:just|recently|finally|also|even|once))? "
    r"(?P<v>was in|were in|spent (?:a|two|three|some|the|last) [a-z]+ in|went back to|visited|moved to) "
    r"(?P<rest>(?:the )?[A-Z][a-z]+.*)$")
# any other past-tense action of the user counts when the sentence dates it ("last week", "yesterday")
_EN_PAST_ACTION = re.compile(
    _EN_LEAD + _EN_SUBJECT + _EN_ADV + r" (?P<v>(?:[a-z]{3,}ed|went|got|took|made|had|ran|won|met|saw|"
    r"bought|began|wrote|gave|found|built|drew|sang|flew|drove|rode|swam|caught|taught|brought|held|"
    r"sold|spent|did|heard|chose|became|grew|fell|threw|shot|beat|hit|set up|put on|retook|redid|"
    r"remade|rewrote|wrapped up))"
    r"(?P<rest>(?:[^\w'].*)?)$")
# ... also told without a subject at the start of a clause ("Dyed my hair last week!", "had an
# audition yesterday")
_EN_PAST_BARE = re.compile(
    r"(?:^|[-–—:;] *)(?:(?:so|well|oh|yeah|yes|wow|actually|also|anyway|btw|hey|omg|just|finally|"
    r"recently)[,!. ]+)*(?P<s>)(?P<v>(?:[a-z]{2,}ed|went|got|took|made|had|ran|won|met|saw|bought|"
    r"began|wrote|gave|found|built|drew|sang|flew|drove|rode|swam|caught|taught|held|sold|spent|became))(?P<rest>(?:[^\w'].*)?)$")
# a verb that is the whole event ("..., and I won!")
_EN_BARE_OK = re.compile(r"^(?:won|graduated|retired|moved|got married|got engaged|got promoted|got hired|"
                         r"passed|finished|qualified)$")
_EN_PAST_NOT_ACTION = re.compile(
    r"^(?:wanted|needed|loved|liked|hated|felt|seemed|hoped|wished|missed|worried|realized|realised|"
    r"excited|interested|surprised|amazed|blessed|impressed|inspired|motivated|stressed|tired|bored|"
    r"scared|pleased|thrilled|stoked|obsessed|touched|moved by|glad|minded|talented|"
    r"had (?:so much |a ton of |lots of |a lot of )?fun|had a (?:blast|great time|good time|nice time)|"
    r"dropped|stopped|abandoned|cancell?ed|scrapped|ditched|postponed|"
    r"[a-z]+ed (?:it|that|this|them|him|her)$|"
    r"got (?:your|you)|(?:spent|paid|saved|earned|made|lost|owed|wasted) [^ ]*(?:[0-9$€£¥]|bucks|dollars|"
    r"money|cash|euros|pounds)|spent (?:a lot|too much|so much|way too)|"
    r"noticed|wondered|figured|guessed|talked|mentioned|asked|texted|called|replied|answered|used|"
    r"tried to|thought|believed|supposed|expected|imagined|assumed|pretended|preferred|ignored|"
    r"needed|agreed|appreciated|deserved|owed|meant|did not|got (?:to|it|that|this|home|back|up|"
    r"sick|tired|bored|lost|stuck|caught|mad|upset|worried|scared|nervous|excited|a chance|an? idea|"
    r"some (?:sleep|rest))|had (?:to|a (?:feeling|thought|dream|cold|headache|bad day|good day|"
    r"rough day|long day|busy day|lot))|made (?:it|sure|me|a (?:mistake|decision|point))|"
    r"saw (?:that|this|it|your|you)|did (?:it|that|this|not|nothing))\b")
_EN_DATED = re.compile(r"\b(?:yesterday|last (?:night|week|weekend|month|year|summer|winter|spring|fall|"
                       r"autumn|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
                       r"(?:\d+|a|an|one|two|three|few|couple of) (?:days?|weeks?|months?|years?) ago|"
                       r"on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|"
                       r"recently|lately|just|finally)\b")
# routine, momentary or consumable: not an event worth keeping
_EN_TRIVIAL = re.compile(
    r"^(?:went|go|gone) (?:to|on) (?:bed|sleep|work|the office|school|class|the store|the shop|"
    r"the supermarket|the grocery|the mall|the bathroom|the toilet|the gym|lunch|dinner|breakfast|"
    r"a walk|a run|a date|the doctor|the dentist|church|my room|the kitchen|town|get|see|grab|buy|"
    r"pick|check)\b|"
    r"^(?:bought|purchased) (?:some |a |an |the )?(?:coffee|lunch|dinner|breakfast|food|groceries|"
    r"snacks?|drinks?|pizza|tickets?|gas|milk|bread|beer|wine|ice cream|a sandwich|stuff|things)\b|"
    r"^started (?:to|feeling|crying|laughing|thinking|getting|raining|working on it)\b|"
    r"^finished (?:work|my (?:lunch|dinner|breakfast|homework|shift|coffee)|eating|the (?:episode|show))\b|"
    r"^met (?:you|up)\b|^took (?:a (?:nap|shower|bath|break|breath|look|walk|picture|photo|sec|moment|"
    r"minute|day off|sip|bite)|an? (?:hour|uber|taxi|cab|bus|train)|my (?:time|meds|medicine|dog out))\b|"
    r"^passed (?:out|away|by|on)\b|^received (?:your|a (?:message|text|call|reply|email))\b|"
    r"^(?:'ve|have) been (?:thinking|wondering|feeling|meaning|waiting|looking|hoping|wanting|trying|"
    r"going|getting|doing (?:ok|okay|good|great|well|fine|alright)|having|dealing|busy|so|really|"
    r"missing|worrying|reflecting|considering|telling)\b|"
    r"^learn(?:ed|t) (?:that|a lot|so much|how much|from)\b|^became (?:tired|sick|ill|angry|sad|upset)\b"
)
_EN_NOT_PAST = re.compile(r"\b(?:will|gonna|going to|plan(?:ning)? to|want(?:ed)? to|hope to|"
                          r"would|should|could|might|if|when i|tomorrow|next (?:week|month|year|weekend))\b")
_EN_UNREAL_BEFORE = re.compile(r"\b(?:if|unless|would|will|whether|wish|hope|imagine|pretend|"
                               r"suppose|before|until|once|you|he|she|they)\s*$")
_EN_NEGATION = re.compile(r"\b(?:not|never|didn't|didnt|haven't|havent|hadn't|wasn't|weren't|no)\b")

# --- Chinese ------------------------------------------------------------------------------------
_ZH_TIME = r"(?:昨天|昨晚|前天|上周末?|上个?星期|上礼拜|上个月|去年|前年|今年|最近|前段时间|前阵子|" \
           r"前几天|前些天|之前|刚|刚刚|终于|[0-9一二两三四五六七八九十几]+(?:天|周|个星期|个月|年)前|" \
           r"今天|今早|这周|这个月|(?:[0-9一二两三四五六七八九十]+|上个?|这个?)月(?:[0-9一二三四五六七八九十]+(?:号|日))?)"
_ZH_SUBJECT = r"(?:我们家|我们|咱们|咱家|我和[^，,。我]{1,4}|我跟[^，,。我]{1,4}|我)"
_ZH_VERB = (
    r"(?:去参加|参加|报名参加|报名|报了|加入|入职|搬到|搬进|搬去|搬家|搬了家|结婚|领证|订婚|离婚|"
    r"生了|生下|怀孕|领养|收养|养了|买了|入手了|毕业|考上|考过|考下|拿到|拿了|获得|得了|赢了|完成了|"
    r"跑完|去了|做了[^，,。]{0,6}志愿者|当了|去[^，,。]{1,8}(?:旅游|旅行|度假|玩|参观|看展|看演出|听音乐会|徒步|露营|爬山|滑雪)|"
    r"学会|开了|升职|升了职|转正|退休|认识了|发表了|出版了|举办了|办了|举行了|开始学|开始练|报了|"
    r"第一次|做了(?:一次|一场|一个)|完成|通过了|画了|写了|装修好|开业|创办|创立|成立了|当上|成为了)"
)
_ZH_EVENT = re.compile(r"^(?:" + _ZH_TIME + r")?" + _ZH_SUBJECT + r"(?:" + _ZH_TIME + r")?"
                       r"(?:也|还|终于|已经|正式|一起|又|都|刚刚|刚|总算|顺利)*"
                       r"(?P<loc>(?:在|去|到|跟|和)[^，,。]{1,8}?(?:一起)?)?"
                       r"(?P<v>" + _ZH_VERB + r")(?P<rest>.*)$")
_ZH_PAST = re.compile(r"了|过|完|好|" + _ZH_TIME)
_ZH_TRIVIAL = re.compile(
    r"^(?:买了|拿了|得了|去了|开了|办了|写了)(?:一?[杯份个瓶袋盒张顿碗块]?)(?:咖啡|奶茶|饭|菜|水果|零食|外卖|"
    r"早餐|午饭|晚饭|面包|票|药|感冒|病|超市|公司|医院|银行|菜市场|便利店|厕所|食堂|家|会|单|空调|"
    r"灯|门|窗|作业|报告|周报|日报|代码|邮件)|^得了(?:感冒|流感|病)|^去了(?:趟|一趟)?(?:超市|公司|"
    r"医院|银行|菜市场|便利店|厕所|食堂|单位|学校)|^开了(?:个|一个|一下午的?)?会"
)
_ZH_NOT_PAST = re.compile(r"要|想|打算|准备|计划|将|会去|明天|下周|下个月|明年|后天|如果|要是|还没|没有|没")
_ZH_BANNED = re.compile(r"加班|吃了|喝了|睡了|感冒|发烧")
# what is bought must last (a home, a car, an instrument, a pet), not groceries
_ZH_BOUGHT = re.compile(r"^(?:买了|入手了)")
_ZH_GOODS = re.compile(r"房|车|钢琴|吉他|琴|相机|电脑|猫|狗|船|公寓|别墅|乐器|手表|戒指|望远镜|店|铺")

# --- life changes: what of the told events is a memory (the rest is the day's, an episode) ------
_EN_LASTING = r"(?:house|home|apartment|flat|condo|car|truck|motorcycle|boat|piano|guitar|violin|cello|" \
              r"drums|drum kit|ukulele|puppy|dog|kitten|cat|horse|pony|pet|bunny|rabbit|hamster|parrot|" \
              r"tortoise|turtle|snake|farm|cottage|cabin|business|shop|store|studio|rv|van)"
_EN_LIFE_CHANGE = re.compile(
    r"^(?:moved|relocated|(?:got |gotten )?(?:married|engaged|divorced)|graduated|retired|gave birth|"
    r"welcomed (?:a|our|my) (?:baby|son|daughter|little|first)|had (?:a|our|my) (?:baby|son|daughter)|"
    r"lost (?:my|our) (?:mom|dad|mother|father|grandma|grandmother|grandpa|grandfather|brother|sister|"
    r"husband|wife|partner|job)|(?:got|was|were) (?:promoted|hired|accepted|diagnosed|laid off|fired)|"
    r"got into|became (?:a|an|the)\b|adopted|went (?:back )?to (?:college|university|grad school|law school|"
    r"med(?:ical)? school|art school|culinary school|nursing school|boarding school)|fostered|rescued|joined|"
    r"started dating|took up|"
    r"(?:started|began) (?:(?:a|my|our|the) )?(?:new )?(?:job|position|role|career|business|company|degree|"
    r"phd|masters?|college|university|school|grad school|internship|residency)|"
    r"(?:started|began) (?:working|learning|playing|practicing|practising|taking|studying|training|"
    r"teaching|volunteering|dating)|"
    r"(?:bought|purchased|got) (?:(?:a|an|my|our|the) )?(?:new |first |own |(?:[a-z]+ )?)?" + _EN_LASTING
    + r"\b|"
    r"(?:earned|received|got|passed|completed|finished) (?:(?:my|a|an|the|our) )?[a-z' ]{0,30}?(?:degree|"
    r"diploma|licen[cs]e|certificate|certification|phd|masters?|bar exam|driving test|board exam)|"
    r"(?:opened|founded|launched|started) (?:(?:a|an|my|our) )?(?:own )?(?:[a-z]+ )?(?:shop|store|"
    r"business|restaurant|bakery|studio|company|cafe|startup|practice)|"
    r"signed up for (?:a|an) [a-z ]{0,20}(?:class|classes|course|program)|enrolled|"
    # an activity the user is doing these days, not a day's
    r"(?:(?:'ve|have) been |(?:i'm|i am|we're|we are)? ?)?(?:studying|training for|volunteering|mentoring|"
    r"coaching|teaching|fostering|raising|renovating|restoring|running for|"
    r"taking (?:a|an|some) [a-z ]{0,20}(?:class|classes|course|lessons)|learning (?:to|how|the|a|an)|"
    r"writing (?:a|my|an) (?:book|novel|memoir|thesis|dissertation)|building (?:a|my|an|our) (?:house|"
    r"home|cabin|boat|business|company)|working (?:at|for|as)))\b")
_ZH_LIFE_CHANGE = re.compile(
    r"^(?:搬到|搬进|搬去|搬家|搬了家|结婚|领证|订婚|离婚|生了|生下|怀孕|领养|收养|养了|毕业|考上|入职|"
    r"升职|升了职|转正|退休|当上|成为了|确诊|查出|学会|开始学|开始练|加入|创办|创立|成立了|开业)|"
    r"^(?:买了|入手了)[^，,。]{0,8}(?:房|车|公寓|别墅|钢琴|吉他|琴|猫|狗|马|店|铺)|"
    r"^(?:拿到|拿了|获得|考下|考过|通过了|考到)了?[^，,。]{0,10}(?:证|学位|文凭|执照|驾照|offer|录取)|"
    r"^(?:报名参加|报名|报了)[^，,。]{0,12}(?:班|课|课程|学校|大学)|"
    r"^开了[^，,。]{0,6}(?:店|公司|工作室)|^认识了[^，,。]{0,6}(?:男朋友|女朋友|对象|老公|老婆)")


# one dish, one song, one trick learned is the day's ("学会了做一道糖醋鱼", "learned a new recipe")
_ONE_ITEM = re.compile(r"^(?:学会|开始学|开始练)了?(?:做|唱|弹|画|写|跳|包|烤)?(?:一|两|几)"
                       r"(?:道|首|个|种|招|幅|支)|"
                       r"^learn(?:ed|t|ing) (?:how )?(?:to (?:make|cook|bake|play|sing) )?"
                       r"(?:a|one|two|a couple of) "
                       r"(?:new )?(?:dish|recipe|song|trick|cake|meal)")


# taking up an activity ("开始学射击", "学会了街舞", "took up pottery", "started learning the cello"): a
# pastime the user has now, a preference (the hobby list) rather than a dated fact, unless it is a
# licence, a school or a job
_TAKES_UP = re.compile(r"^(?:学会|开始学|开始练|迷上)|"
                       r"^(?:took up|(?:started|began) (?:learning|playing|practicing|practising|doing)|"
                       r"(?:'ve|have) been (?:learning|practicing|practising) |learning (?:to|how))\b")
_NOT_A_PASTIME = re.compile(r"开车|驾驶|驾照|学位|学校|大学|课程|工作|"
                            r"\b(?:drive|driving|degree|school|college|"
                            r"university|course|job|english|spanish|french|german|japanese|chinese|language)\b")


def life_change(told: str, zh: bool) -> bool:
    """``told`` (the event's verb and what follows, normalised) changes who the user is or what
    they have: a move, a marriage, a new job, a pet, a diagnosis, a degree, a lasting activity; one
    dish or one song learned is not."""
    told = told.strip()
    return bool((_ZH_LIFE_CHANGE if zh else _EN_LIFE_CHANGE).search(told)) and not _ONE_ITEM.search(told)


# --- dates --------------------------------------------------------------------------------------
_EN_NUM = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "few": 3,
           "couple of": 2, "several": 3}
_ZH_NUM = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
           "十": 10, "几": 3}
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_EN_AGO = re.compile(r"\b(?P<n>\d+|a|an|one|two|three|four|five|six|few|couple of|several) "
                     r"(?P<u>day|week|month|year)s? ago\b")
_ZH_AGO = re.compile(r"(?P<n>[0-9]+|[一两二三四五六七八九十几])(?P<u>天|周|个星期|个月|年)前")
_EXPLICIT_YEAR = re.compile(r"(?:19|20)[0-9]{2}")


def _month(d: date, back: int) -> str:
    y, m = d.year, d.month - back
    while m <= 0:
        y, m = y - 1, m + 12
    return f"{y:04d}-{m:02d}"


def _ago(d: date, n: int, unit: str, zh: bool) -> str:
    if unit in ("day", "天"):
        return (d - timedelta(days=n)).isoformat()
    if unit in ("week", "周", "个星期"):
        around = (d - timedelta(days=7 * n)).isoformat()
        return f"{around}前后" if zh else f"around {around}"
    if unit in ("month", "个月"):
        return _month(d, n)
    return f"{d.year - n}年" if zh else str(d.year - n)


def resolve_date(sentence: str, sent_at: datetime | None) -> str:
    """The date an event in ``sentence`` (normalised text) happened, resolved against ``sent_at``:
    "" without a timestamp or when the sentence names a year itself."""
    if sent_at is None or _EXPLICIT_YEAR.search(sentence):
        return ""
    d = sent_at.date()
    iso = d.isoformat()
    if has_cjk(sentence):
        m = _ZH_AGO.search(sentence)
        if m:
            n = int(m.group("n")) if m.group("n").isdigit() else _ZH_NUM[m.group("n")]
            return _ago(d, n, m.group("u"), True)
        table = (("前天", (d - timedelta(days=2)).isoformat()), ("昨", (d - timedelta(days=1)).isoformat()),
                 ("今天", iso), ("今早", iso), ("刚刚", iso), ("上周末", f"{iso}前的周末"),
                 ("上周", f"{iso}前一周"), ("上个星期", f"{iso}前一周"), ("上礼拜", f"{iso}前一周"),
                 ("这周", f"{iso}当周"), ("上个月", _month(d, 1)), ("这个月", _month(d, 0)),
                 ("前年", f"{d.year - 2}年"), ("去年", f"{d.year - 1}年"), ("今年", f"{d.year}年"))
        for word, value in table:
            if word in sentence:
                return value
        return f"截至{iso}"
    m = _EN_AGO.search(sentence)
    if m:
        return _ago(d, _EN_NUM.get(m.group("n")) or int(m.group("n")), m.group("u"), False)
    season = re.search(r"\blast (?P<s>spring|summer|fall|autumn)\b", sentence)
    if season:
        ends = {"spring": 5, "summer": 8, "fall": 11, "autumn": 11}[season.group("s")]
        return f"{season.group('s')} {d.year if ends < d.month else d.year - 1}"
    for i, day in enumerate(_WEEKDAYS):
        if re.search(rf"\blast {day}\b", sentence):
            back = (d.weekday() - i) % 7 or 7
            return (d - timedelta(days=back)).isoformat()
    table_en = ((r"\bday before yesterday\b", (d - timedelta(days=2)).isoformat()),
                (r"\byesterday\b|\blast night\b", (d - timedelta(days=1)).isoformat()),
                (r"\btoday\b|\bthis (?:morning|afternoon|evening)\b|\btonight\b", iso),
                (r"\blast weekend\b", f"the weekend before {iso}"),
                (r"\blast week\b", f"the week before {iso}"),
                (r"\bthis (?:week|weekend)\b", f"the week of {iso}"),
                (r"\blast month\b", _month(d, 1)), (r"\bthis month\b", _month(d, 0)),
                (r"\blast year\b", str(d.year - 1)), (r"\bthis year\b", str(d.year)))
    for rx, value in table_en:
        if re.search(rx, sentence):
            return value
    return f"by {iso}"


_TIME_WORDS = re.compile(
    r"\b(?:yesterday|today|tonight|last (?:night|week|weekend|month|year|\w+day|spring|summer|fall|autumn|"
    r"winter)|this (?:morning|afternoon|"
    r"evening|week|weekend|month|year)|recently|finally|just|\d+ \w+ ago|a (?:few|couple of) \w+ ago)\b|"
    r"昨天|昨晚|前天|上周末?|上个?星期|上个月|去年|前年|今年|最近|刚刚|刚")


def _match(clauses: list[Clause], pos: int, body: str) -> re.Match[str] | None:
    """The event clause ``pos`` tells (groups ``v``: the verb, ``rest``: what follows), or ``None``."""
    clause = clauses[pos]
    if clause.terminator in {"?", "？"} or is_question(body) or patterns.HYPOTHETICAL.search(body):
        return None
    if patterns.REQUEST.search(body) or patterns.THIRD_PARTY_START.search(body):
        return None
    if has_cjk(body):
        m = _ZH_EVENT.search(body)
        if m is None or _ZH_TRIVIAL.search(m.group("v") + m.group("rest")) or _ZH_BANNED.search(body):
            return None
        if _ZH_NOT_PAST.search(body[: m.start("v")] + m.group("v")) or not _ZH_PAST.search(body):
            return None
        if _ZH_BOUGHT.search(m.group("v")) and not _ZH_GOODS.search(m.group("rest")):
            return None
        if not m.group("rest").strip() and m.group("v") in {"买了", "去了", "开了", "办了", "写了", "画了"}:
            return None
        return m
    m = _EN_EVENT.search(body) or _EN_ONGOING.search(body) or _EN_TRIP.search(clause.text)
    if m is None:  # any past action of the user; told without a subject only when the sentence dates it
        dated_sentence = _EN_DATED.search(" ".join(c.norm for c in clauses))
        m = _EN_PAST_ACTION.search(body) or (_EN_PAST_BARE.search(body) if dated_sentence else None)
        if m is not None and _EN_PAST_NOT_ACTION.search(m.group("v") + m.group("rest")):
            m = None
    if m is None or _EN_TRIVIAL.search(m.group("v") + m.group("rest")):
        return None
    start = m.start("s") if m.group("s") else m.start("v")
    head = body[start: m.start("v")]
    if _EN_NOT_PAST.search(head) or _EN_NEGATION.search(head) or _EN_UNREAL_BEFORE.search(body[:start]):
        return None
    if not m.group("rest").split() and not _EN_BARE_OK.search(m.group("v")):
        return None
    if _EN_NOT_PAST.search(m.group("rest")) and not re.search(r"\bago\b|\blast\b", m.group("rest")):
        return None
    return m


def _told(m: re.Match[str], zh: bool) -> str:
    return m.group("v") + (m.group("rest") if zh else " " + m.group("rest").strip())


def _life_match(clauses: list[Clause], pos: int, body: str) -> re.Match[str] | None:
    """``_match`` when the event it tells is a life change (``life_change``), else ``None``."""
    m = _match(clauses, pos, body)
    return m if m is not None and life_change(_told(m, has_cjk(body)), has_cjk(body)) else None


def _detail(following: list[Clause]) -> list[Clause]:
    """The next sentence when it says more about the event ("It was so powerful"), not when it asks
    something or turns to the other person."""
    if not following or following[-1].terminator in {"?", "？"}:
        return []
    text = " ".join(c.norm for c in following)
    if is_question(text) or _TURNS_AWAY.search(text) or len(text) > DETAIL_MAX_CHARS:
        return []
    return following


def event_hit(clauses: list[Clause], pos: int, body: str, sent_at: datetime | None,
              following: list[Clause] | None = None) -> EventHit | None:
    """A life event the user tells in clause ``pos`` of a sentence (``body``: its normalised text),
    or ``None``. See the module doc for what counts. The memory is the whole sentence ("I was in the
    final last Saturday, and I won"), so only the sentence's first event clause gives one, with the
    next sentence (``following``) when it is detail of the event ("It was so powerful")."""
    m = _life_match(clauses, pos, body)
    if m is None or any(_life_match(clauses, j, clauses[j].norm) for j in range(pos)):
        return None
    zh = has_cjk(body)
    head = (m.group("loc") or "") if zh else ""
    sentence = " ".join(c.norm for c in clauses)
    told = _told(m, zh)
    phrase = _TIME_WORDS.sub(" ", head + told if m.group("rest").strip() else sentence)
    slug = content_slug(phrase)
    sep = "，" if zh else ", "
    content = sep.join(c.text for c in clauses if not _GREETING.match(c.norm)) or \
        sep.join(c.text for c in clauses)
    detail = _detail(following or [])
    if detail:
        content += ("。" if zh else ". ") + sep.join(c.text for c in detail)
    if _TAKES_UP.search(told.strip()) and not _NOT_A_PASTIME.search(told):
        topic = topic_of("preference", normalise(told)) or "hobby"
        return EventHit(normalise_key(f"preference-{topic}"), CONFIDENCE, content=content, absorbs=False)
    return EventHit(normalise_key(EVENT_PREFIX + slug), CONFIDENCE, content=content, absorbs=False,
                    date=resolve_date(sentence, sent_at))
