"""The rules reply writer: a short, factual reply from ReplyFacts, in the shopper's language."""

from __future__ import annotations

from cartwise.understanding.base import ReplyFacts, ReplyItem

MAX_ITEMS = 5


def _price(item: ReplyItem) -> str:
    return f"{item.price:.2f} {item.currency}"


def write_reply(facts: ReplyFacts) -> str:
    zh = facts.language == "zh"
    lines: list[str] = []
    if facts.items:
        lines.append(
            f"为「{facts.query}」找到这些：" if zh else f'Here is what I found for "{facts.query}":'
        )
        for index, item in enumerate(facts.items[:MAX_ITEMS], start=1):
            why = ("；".join(item.why) if zh else "; ".join(item.why)) if item.why else ""
            reason = (f"（{why}）" if zh else f" ({why})") if why else ""
            lines.append(f"{index}. [{item.platform}] {item.title} — {_price(item)}{reason}")
    elif facts.query:
        lines.append(
            f"没有找到符合「{facts.query}」的商品。"
            if zh
            else f'I found nothing matching "{facts.query}".'
        )
    if facts.applied:
        joined = "、".join(facts.applied) if zh else ", ".join(facts.applied)
        lines.append(f"已按你的要求：{joined}。" if zh else f"Applied: {joined}.")
    if facts.filtered_out:
        parts = [
            f"{reason} {count} 件" if zh else f"{count} for {reason}"
            for reason, count in facts.filtered_out.items()
        ]
        lines.append(
            ("已排除：" + "，".join(parts) + "。")
            if zh
            else ("Filtered out: " + "; ".join(parts) + ".")
        )
    if facts.question:
        lines.append(facts.question)
    if not lines:
        # A turn that only stated a preference: acknowledge instead of "nothing matching ''".
        lines.append("好的，记下了。" if zh else "Got it.")
    return "\n".join(lines)
