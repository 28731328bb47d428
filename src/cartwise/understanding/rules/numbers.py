"""Numbers as shoppers write them: 500, 1.5万, 1k, 两百, 三千五, 一万二, 两三百."""

from __future__ import annotations

import math
import re

ZH_DIGITS = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "俩": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
ZH_SMALL_UNITS = {"十": 10, "百": 100, "千": 1000}
MULTIPLIERS = {"k": 1000.0, "千": 1000.0, "w": 10000.0, "万": 10000.0, "百": 100.0}

ZH_NUMERAL_CHARS = "零〇一二两俩三四五六七八九十百千万"
# An amount: arabic digits with an optional exponent (2.5e2, 1E308, 10^32, 10**32) or
# multiplier (1.5万, 2k, 3千), or a Chinese numeral. The multiplier must not start a unit
# word ("1kg" is a weight, not 1000). An exponent is read with its digits, so "1e308" is
# that amount (which no budget can be), never the 1 before it or the 308 after it.
_EXPONENT = r"(?:[eE][+-]?\d+|\s?(?:\^|\*\*)\s?\d+)"
NUMBER_PATTERN = (
    rf"(?:\d+(?:,\d{{3}})*(?:\.\d+)?(?:{_EXPONENT}|\s?[kw万千百](?![a-z]))?"
    rf"|[{ZH_NUMERAL_CHARS}]+)"
)
# "两三百" / "三四千": an approximate range written with two adjacent digits.
ZH_APPROX_RANGE = re.compile(r"([一二两三四五六七八九])([二两三四五六七八九])([十百千万])")


def parse_zh_numeral(text: str) -> float | None:
    """三千五 → 3500, 一万二 → 12000, 两百 → 200, 十五 → 15; None when not a numeral."""
    if not text or any(ch not in ZH_NUMERAL_CHARS for ch in text):
        return None
    total = 0
    section = 0
    digit: int | None = None
    last_unit = 1
    after_zero = False
    for ch in text:
        if ch in ZH_DIGITS:
            value = ZH_DIGITS[ch]
            after_zero = value == 0 or after_zero
            digit = value
        elif ch in ZH_SMALL_UNITS:
            unit = ZH_SMALL_UNITS[ch]
            section += (1 if digit is None else digit) * unit
            digit = None
            last_unit = unit
            after_zero = False
        else:  # 万
            section += digit or 0
            total += (section or 1) * 10000
            section = 0
            digit = None
            last_unit = 10000
            after_zero = False
    if digit is not None:
        # Shorthand: the trailing digit counts in the next smaller unit (三千五 = 3500),
        # unless a zero came first (三千零五 = 3005).
        scale = 1 if after_zero or last_unit == 1 else last_unit // 10
        section += digit * scale
    return float(total + section)


def parse_amount(text: str) -> float | None:
    """One amount (see NUMBER_PATTERN) as a float, or None."""
    raw = text.strip().lower().replace(",", "").replace(" ", "")
    if not raw:
        return None
    if raw[0].isdigit():
        power = re.fullmatch(r"([\d.]+)(?:\^|\*\*)(\d+)", raw)
        if power is not None:
            try:
                return float(power.group(1)) ** int(power.group(2))
            except OverflowError:
                return math.inf
            except ValueError:
                return None
        multiplier = 1.0
        if raw[-1] in MULTIPLIERS:
            multiplier = MULTIPLIERS[raw[-1]]
            raw = raw[:-1]
        try:
            return float(raw) * multiplier
        except ValueError:
            return None
    return parse_zh_numeral(raw)


EXACT_DIGITS = 1e15
"""Past this a float no longer holds every digit: written in exponent form, not as digits
it never had."""


def format_amount(value: float) -> str:
    """Slot format: integers without decimals (40.00 → "40"), otherwise at most 2 decimals.
    Whatever was written is read as written ("-500", "1e+32", "inf"): whether it can be a
    budget is for the agent to judge, not for the reader to crash on."""
    if not math.isfinite(value) or abs(value) >= EXACT_DIGITS:
        return f"{value:.6g}"
    rounded = round(value, 2)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.2f}".rstrip("0").rstrip(".")


_EN_UNITS = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_EN_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_UNIT = "|".join(_EN_UNITS)
_TENS = "|".join(_EN_TENS)
_EN_NUMBER = re.compile(
    rf"\b(?:(?P<h>{_UNIT})\s+hundred(?:\s+(?:and\s+)?)?)?"
    rf"(?:(?P<t>{_TENS})(?:[\s-](?P<tu>{_UNIT}))?|(?P<u>{_UNIT}))?"
    rf"(?(h)|(?(t)|(?(u)|(?!))))\b(?=\s*(?:dollars?|bucks|euros?|pounds sterling|yuan|usd)\b)"
)


def english_number_words(text: str) -> str:
    """ "under twenty dollars" → "under     20 dollars": number words before a currency word
    become digits, right-aligned in the same width so character offsets stay valid."""

    def digits(hit: re.Match[str]) -> str:
        value = _EN_UNITS.get(hit.group("h") or "", 0) * 100
        value += _EN_TENS.get(hit.group("t") or "", 0) + _EN_UNITS.get(hit.group("tu") or "", 0)
        value += _EN_UNITS.get(hit.group("u") or "", 0)
        raw = hit.group(0).rstrip()
        return str(value).rjust(len(raw)) + hit.group(0)[len(raw) :]

    return _EN_NUMBER.sub(digits, text)
