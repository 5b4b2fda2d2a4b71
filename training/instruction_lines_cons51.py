"""Hand-written chat lines for the standing-instruction model (issue 24, session 32, helper cons51).

A question to the assistant about what it usually does ("do you usually … or is that optional?", "你一般会…
吗？还是看情况") read 0.64-0.71 on the shipped model and was rescued as an asked rule at ``STANDING_RESCUE``
(0.60); a request scoped to this one answer ("for this reply only, skip …") read as a rule too. These lines
are negatives of those kinds in new wording (questions about the assistant's habits with "usually /
normally / always / or is that … / 一般 / 平时 / 通常 / 还是看情况", one-off requests for this answer only,
requests for code that removes or filters something), with a few rules in strangers' wording beside them (a
reason first, a Chinese back-reference "这类的 / 这种的", a rule asked as a polite question with "always").
Label 1: a rule the assistant follows from now on. ``group`` names the family (the trainer holds whole
families out). Written apart from the sentences of the case halves, the dev sets (``dev_cons51`` included)
and the training rows.
"""

from __future__ import annotations

from typing import Any

from training.template_rows import written_rows

POSITIVE: dict[str, list[str]] = {
    "reasonfirsten": [
        "my son chokes easily so anything with whole grapes in the snack ideas you give me, cut it",
        "i'm on blood thinners, so in meal plans for me leave out anything heavy on leafy greens",
        "our building has paper-thin walls, so when you suggest workouts nothing with jumping please",
        "the office blocks youtube so when you send me tutorials stick to written ones",
    ],
    "backrefzh": [
        "那种配音很浮夸的视频我看不下去，以后给我推的这类的都跳过",
        "带滤镜的网红店我去过几次都踩雷了，推荐吃饭的地方这种的就别推了",
        "我对猫毛过敏，帮我找民宿的时候养宠物的那种都排除掉",
        "广告软文看多了很烦，给我整理资讯这类的一律去掉",
    ],
    "politealways": [
        "could you always put the cooking time first when you give me a recipe?",
        "can you make sure every plan you write me has a rest day in it from here on?",
        "你以后给我写的总结能不能都先写结论？",
        "以后回复我能都用简体吗？",
    ],
}

NEGATIVE: dict[str, list[str]] = {
    "habitqen": [
        "do you normally number the steps in your instructions or is that random?",
        "is the citation thing something you always do or just when it's academic?",
        "do you typically use british spelling or american?",
        "do your answers usually come with a table or only when i ask?",
        "do you usually leave salt out of baking recipes or is that on purpose?",
        "is it normal for you to add a disclaimer at the end, or was that a one-off?",
        "do you ever write in the second person or is it always neutral?",
        "do you generally put headings in long answers?",
    ],
    "habitqzh": [
        "你一般写邮件会加称呼吗？还是看情况",
        "你平时推荐电影会剧透吗",
        "你通常会把代码和解释分开写吗？",
        "你回答的时候一般用几个小标题啊",
        "你给的菜谱是不是默认两人份的？",
        "你写东西一般会带 emoji 吗，还是我说了才加",
        "你做行程一般会留空闲时间吗",
        "你们推荐的书一般是中文版吗？",
    ],
    "oneoffreply": [
        "for this answer only, no headers, just plain text",
        "just this once, give me the long version",
        "skip the examples this time, i only need the definition",
        "this one time make it formal, it's going to my boss",
        "这次回答别用表格了，手机上看不清",
        "就这一条，帮我写得正式一点",
        "这回先不要例子，直接给结论",
        "this reply only: leave out the intro",
    ],
    "coderequest": [
        "write a function that strips html tags from a string",
        "give me a regex that removes trailing whitespace",
        "帮我写个脚本，把文件夹里的空文件都删掉",
        "写一段 js 把数组里的 null 都过滤掉",
        "can you write a bash one-liner to delete all .tmp files",
        "帮我写个 pandas 代码，把重复的行去掉",
    ],
}


def rows() -> list[dict[str, Any]]:
    """The lines as trainer rows (``text``, ``label``, ``group``: ``cons51-<family>``), no duplicates."""
    return written_rows(POSITIVE, NEGATIVE, "cons51")
