"""Small talk: greetings, thanks, "that's all" and goodbyes — messages with nothing to search.

A message is small talk when, after removing the phrases below (and punctuation, particles
and a few softeners), nothing is left: "谢谢，就这些" and "ok thanks, bye" are; "thanks, now
show me earbuds" is not. The kind decides the short reply.
"""

from __future__ import annotations

import re
from typing import Literal

SmallTalk = Literal["", "greeting", "thanks", "done", "bye"]

# Checked in this order: "谢谢，再见" is a goodbye, "thanks, that's all" is an ending.
_PHRASES: tuple[tuple[SmallTalk, str], ...] = (
    (
        "bye",
        r"再见|拜拜|回头见|下次见|晚安|goodbye|good bye|bye(?: for now| bye)?|see you(?: later| soon)?|"
        r"take care|good night|later",
    ),
    (
        "done",
        r"就这些|就这样|先这样|不用了|没有了|没别的了|没事了|够了|不需要了|可以了|"
        r"that'?s (?:all|everything|it)|that is (?:all|everything|it)|i'?m (?:done|good|all set)|"
        r"i'?ll (?:take|buy|get|go with|order) (?:it|this|that|this one|that one)|"
        r"就它了|就这个了|就要这个了?|就买这个了?|就选这个了?|决定了|"
        r"i am (?:done|good|all set)|nothing else|no more|all good|that will be all|that'?ll be all",
    ),
    (
        "thanks",
        r"谢谢(?:你|您|啦|了)?|多谢|谢了|感谢|辛苦了|thank you(?: so much| very much)?|thanks(?: a lot)?|"
        r"thx|cheers|much appreciated|appreciate it",
    ),
    (
        "greeting",
        r"你好|您好|嗨|哈喽|哈啰|在吗|在不在|早上好|早安|中午好|下午好|晚上好|早|"
        r"hello|hi|hey|hiya|howdy|good (?:morning|afternoon|evening)|how are you|there",
    ),
)
_SOFTENERS = re.compile(
    r"好的|好滴|好|行|嗯|哦|ok(?:ay)?|great|perfect|cool|nice|alright|fine|awesome|yes|yeah|"
    r"no|nope|so much|very much|again|for now|for (?:your|the) help|for helping|"
    r"啊|呀|了|啦|吧|呢|哈|嘿|哟|喔|oh|well|all|you|much|so"
)
_PATTERNS = [(kind, re.compile(rf"(?<![a-z])(?:{body})(?![a-z])")) for kind, body in _PHRASES]
_LEFTOVER = re.compile(r"[\s\W_]+")


def small_talk_kind(message: str) -> SmallTalk:
    """The kind of small talk this whole message is, or "" when it asks for anything."""
    text = message.casefold().replace("’", "'")
    found: list[SmallTalk] = []
    for kind, pattern in _PATTERNS:
        text, count = pattern.subn(" ", text)
        if count:
            found.append(kind)
    if not found:
        return ""
    rest = _SOFTENERS.sub(" ", text)
    if _LEFTOVER.sub("", rest):
        return ""
    return found[0]
