"""Whose preference, and whom a purchase is for: the recipient lexicon.

A recipient is someone the shopper buys for or speaks about (妈妈 / mum, 老公 / husband, a
friend by name). Each has one canonical ASCII slug; the shopper is `self`. The memory side
keeps a namespace per recipient, so the slugs here are storage keys: never rename one.

- `canonical_recipient("我妈")` → "mum"; `canonical_recipient("my friend Alice")` →
  "friend-alice"; `canonical_recipient("朋友小林")` → "friend-xiaolin" (a Chinese name is
  transliterated to pinyin); anything that names nobody → None.
- `find_recipients(text)` → every mention with its span, for the planner, which decides
  per clause whose a preference is (a pronoun 他/她/he/she continues the last mention).
- `purchase_recipient(text)` → whom this message's purchase is for (给我妈买, 帮我爸挑,
  送同事, a gift for my husband, shoes for my dad), else None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cartwise.text import HAN
from cartwise.vocabulary.people import pets, recipient_words
from cartwise.vocabulary.slugs import slugify

SELF = "self"

# Surface forms → slug, from the vocabulary (`data/recipients.yml`). Chinese forms match as
# substrings (longest first), English ones on word boundaries, with an optional possessive in
# front ("my", "our", "我", "我的").
RECIPIENT_FORMS: dict[str, tuple[str, ...]] = recipient_words().forms
# English forms too ambiguous without "my"; and those that name someone even bare.
_NEEDS_POSSESSIVE = recipient_words().needs_possessive
_BARE_OK = recipient_words().bare
_BENEFICIARY_BEFORE = re.compile(r"(?:for|to|gift|present)\s+(?:a\s+)?$")
_SELF_FORMS = re.compile(r"我自己|给自己|自己用|for myself|for me\b|for my own")

_FORM_TO_SLUG = {form: slug for slug, forms in RECIPIENT_FORMS.items() for form in forms}
# Pets are recipients of pet products. A one-character Chinese form (猫, 狗) names the pet only
# where a home or a count says so (我家猫, 两只猫, 给狗): alone it is too often part of a word.
_PET_FORMS = {form: pet.slug for pet in pets() for form in pet.forms}
_ZH_PETS = sorted((f for f in _PET_FORMS if not f.isascii() and len(f) > 1), key=len, reverse=True)
_ZH_PET_PATTERN = re.compile(
    "|".join(re.escape(f) for f in _ZH_PETS)
    + "|(?:(?<=家)|(?<=只)|(?<=的)|(?<=给)|(?<=我))(?:"
    + "|".join(re.escape(f) for f in _PET_FORMS if not f.isascii() and len(f) == 1)
    + ")"
)
_EN_PETS = sorted((f for f in _PET_FORMS if f.isascii()), key=len, reverse=True)
# A Chinese "my" before an English name ("我的 golden retriever") is "my".
_ZH_MY = r"(?:我的|我家的?|我们家的?|咱家的?)"
_EN_PET_PATTERN = re.compile(
    rf"(?:(?<![a-z])(?:my|our|the|for (?:my|our|a|the))\s+|{_ZH_MY}\s*)"
    r"(?:\w+\s+)?(?P<form>" + "|".join(re.escape(f) for f in _EN_PETS) + r")(?:'s)?(?![a-z-])"
)
# A purchase verb right before a pet: the animal itself is what is bought ("想买只布偶猫").
_ZH_ANIMAL_BOUGHT = re.compile(
    r"(?:买|领养|养|要)(?:一|两|几)?(?:只|条|个|头)?$|(?:^|[^家的])(?:一|两|几)(?:只|条|头)$"
)
# A child named by age: "my 6 year old", "my 10-year-old".
_EN_AGED_CHILD = re.compile(
    r"(?<![a-z])(?:my|our)\s+(?:\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|"
    r"eleven|twelve)[- ]?(?:years?|yrs?|yo)(?:[- ]old)?(?![a-z])"
)
_ZH_FORMS = sorted((f for f in _FORM_TO_SLUG if not f.isascii()), key=len, reverse=True)
_EN_FORMS = sorted((f for f in _FORM_TO_SLUG if f.isascii()), key=len, reverse=True)
_POSSESSIVE = r"(?:my|our|my own|my little|my older|my younger|my big|my dear)\s+"
_EN_PATTERN = re.compile(
    r"(?<![a-z])(?P<pos>"
    + _POSSESSIVE
    + r")?(?P<form>"
    + "|".join(re.escape(f) for f in _EN_FORMS)
    + r")(?:'s)?(?![a-z-])"
)
_ZH_POSSESSIVE_BEFORE = re.compile(rf"(?:{_ZH_MY}|给我的?)\s*$")
_ZH_PATTERN = re.compile("|".join(re.escape(f) for f in _ZH_FORMS))
# A friend's name right after the word: "朋友小林", "my friend Alice", "my friend, Tom".
_ZH_NAME = re.compile(rf"^(?:叫)?(?P<name>(?:小|老|阿)[{HAN}]|[{HAN}]{{2}}(?=[，,。\s]|$))")
_EN_NAME = re.compile(r"^,?\s+(?P<name>[A-Z][a-z]+)\b")
_ZH_NAME_STOP = set("的是也都很说在和跟要不喜讨对想买给")
_EN_NAME_STOP = {"Is", "And", "Who", "Said", "Says", "Likes", "Loves", "Hates", "The", "Has", "Can"}


@dataclass(frozen=True)
class Mention:
    """One recipient named in a message."""

    start: int
    end: int
    slug: str


def _friend_name(original: str, end: int) -> tuple[str, int] | None:
    rest = original[end:]
    zh = _ZH_NAME.match(rest)
    if zh and not set(zh.group("name")) & _ZH_NAME_STOP:
        return zh.group("name"), end + zh.end()
    en = _EN_NAME.match(rest)
    if en and en.group("name") not in _EN_NAME_STOP:
        return en.group("name"), end + en.end()
    return None


def find_recipients(text: str) -> list[Mention]:
    """Every recipient mention in `text`, in order, non-overlapping."""
    lowered = text.lower()
    mentions: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for hit in _ZH_PATTERN.finditer(lowered):
        mentions.append(Mention(hit.start(), hit.end(), _FORM_TO_SLUG[hit.group(0)]))
        taken.append(hit.span())
    for hit in _EN_PATTERN.finditer(lowered):
        form = hit.group("form")
        owned = bool(hit.group("pos")) or bool(_ZH_POSSESSIVE_BEFORE.search(lowered[: hit.start()]))
        if form in _NEEDS_POSSESSIVE and not owned:
            continue
        # "mother" in "mother of pearl" is no recipient: bare forms need "my" or "for",
        # except the unambiguous family words.
        bare = not owned and not _BENEFICIARY_BEFORE.search(lowered[: hit.start()])
        if bare and form not in _BARE_OK:
            continue
        if any(a < hit.end() and hit.start() < b for a, b in taken):
            continue
        mentions.append(Mention(hit.start(), hit.end(), _FORM_TO_SLUG[form]))
    for hit in _ZH_PET_PATTERN.finditer(lowered):
        if _ZH_ANIMAL_BOUGHT.search(lowered[: hit.start()]):
            continue  # "想买只布偶猫": the animal is what is bought, nobody to buy for
        if not any(a < hit.end() and hit.start() < b for a, b in taken):
            mentions.append(Mention(hit.start(), hit.end(), _PET_FORMS[hit.group(0)]))
            taken.append(hit.span())
    for hit in [*_EN_PET_PATTERN.finditer(lowered), *_EN_AGED_CHILD.finditer(lowered)]:
        if any(a < hit.end() and hit.start() < b for a, b in taken):
            continue
        slug = _PET_FORMS[hit.group("form")] if "form" in hit.groupdict() else "kid"
        mentions.append(Mention(hit.start(), hit.end(), slug))
        taken.append(hit.span())
    named: list[Mention] = []
    for mention in sorted(mentions, key=lambda m: m.start):
        if mention.slug == "friend":
            found = _friend_name(text, mention.end)
            if found is not None:
                slug = slugify(found[0])
                if slug:
                    named.append(Mention(mention.start, found[1], f"friend-{slug}"))
                    continue
        named.append(mention)
    return named


def canonical_recipient(text: str) -> str | None:
    """The canonical slug of the recipient `text` names ("我妈" → mum, "my husband" →
    husband, "my friend Alice" → friend-alice, "我自己" → self), else None."""
    if _SELF_FORMS.search(text.lower()):
        return SELF
    mentions = find_recipients(text)
    return mentions[0].slug if mentions else None


_ZH_PURCHASE = re.compile(r"(?:给|帮|替|为|送)(?:我的?|我家)?\s*$")
_ZH_PURCHASE_AFTER = re.compile(r"^(?:的)?\s*(?:买|挑|选|找|准备|送|订|购|看看|看)")
_EN_PURCHASE = re.compile(
    r"(?:for|to|gift for|present for|buying for|shopping for|get|getting|buy)\s+$"
)
_EN_PURCHASE_BEFORE_POSSESSIVE = re.compile(r"(?:for|to)\s+(?:" + _POSSESSIVE + r")$")


def purchase_recipient(text: str, mentions: list[Mention] | None = None) -> str | None:
    """Whom the purchase in `text` is for: a recipient named as its beneficiary
    (给我妈买, 帮我爸挑, 送同事, 再给宝宝买, a gift for my husband, get my sister ...)."""
    lowered = text.lower()
    if _SELF_FORMS.search(lowered):
        return SELF
    mentions = mentions if mentions is not None else find_recipients(text)
    for mention in mentions:
        before = lowered[max(0, mention.start - 12) : mention.start]
        after = lowered[mention.end : mention.end + 6]
        if mention.start < len(lowered) and not lowered[mention.start].isascii():
            if _ZH_PURCHASE.search(before) or (
                re.search(r"(?:给|帮|替|为|送)", before[-3:]) and _ZH_PURCHASE_AFTER.match(after)
            ):
                return mention.slug
            continue
        if _EN_PURCHASE.search(before) or _EN_PURCHASE_BEFORE_POSSESSIVE.search(before):
            return mention.slug
        if re.search(
            r"(?:get|buy|buying|gift|present|surprise)\s+(?:" + _POSSESSIVE + r")$", before
        ):
            return mention.slug
    # "getting my sister a perfume", "get my dad some socks"
    for mention in mentions:
        if re.search(
            r"(?:getting|get|buying|buy)\s+(?:" + _POSSESSIVE + r")$", lowered[: mention.start]
        ):
            return mention.slug
    pronoun = _PRONOUN_PURCHASE.search(lowered)
    if pronoun is not None:
        earlier = [m for m in mentions if m.start < pronoun.start()]
        if earlier:
            return earlier[-1].slug
    return None


_PRONOUN_PURCHASE = re.compile(
    r"(?:给|帮|替|为|送)(?:他|她)(?:买|挑|选|找|准备|看看|看)|"
    r"\b(?:for|get|buy)\s+(?:him|her|them)\b"
)
_SELF_CONTRAST = re.compile(r"我自己|我本人|我倒|而我|myself|i personally|\bfor me\b|but i\b")
_SELF_SUBJECT = re.compile(r"我|\bi\b|\bi'm\b|\bmy\b|\bme\b")


def clause_holders(
    text: str,
    clauses: list[tuple[int, int]],
    mentions: list[Mention],
    purchase: str | None,
) -> list[str]:
    """Whose preference each clause states. A clause naming someone is theirs; a clause
    without the shopper as subject (a pronoun 他/她/he/she, or no subject) continues the
    last one named; otherwise the purchase's recipient (what the shopper wants for a gift
    is about the gift's receiver), unless the shopper sets themself apart ("我自己", "but
    I"); with no recipient at all, the shopper's own."""
    lowered = text.lower()
    holders: list[str] = []
    last: str | None = None
    for start, end in clauses:
        clause = lowered[start:end]
        inside = [m for m in mentions if start <= m.start < end]
        if inside:
            last = inside[-1].slug
            holders.append(last)
        elif last is not None and not _SELF_SUBJECT.search(clause):
            # A pronoun, or no subject at all (a Chinese topic chain: "我老婆以前不喜欢亚麻，
            # 现在很喜欢"), continues the person last named.
            holders.append(last)
        elif purchase not in (None, SELF) and not _SELF_CONTRAST.search(clause):
            holders.append(purchase)
        else:
            holders.append(SELF)
    return holders


def topic_recipient(mentions: list[Mention], *, about_gift: bool) -> str | None:
    """Whom a message is about when it names no beneficiary but one person or pet is its
    topic: "老公下个月生日……想送个头盔", "my son's begging for a PS5", "my golden retriever
    needs dry food". One recipient only, and for a person only when the message is about a
    gift or a need of theirs (`about_gift`); a pet is the recipient of what is bought for it."""
    slugs = list(dict.fromkeys(m.slug for m in mentions))
    if len(slugs) != 1:
        return None
    slug = slugs[0]
    is_pet = slug in {pet.slug for pet in pets()}
    return slug if is_pet or about_gift else None
