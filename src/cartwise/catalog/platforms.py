"""The platforms' names as shoppers know them, in Chinese and English."""

from __future__ import annotations

PLATFORM_NAMES: dict[str, tuple[str, str]] = {
    "taobao": ("淘宝", "Taobao"),
    "jd": ("京东", "JD"),
    "pinduoduo": ("拼多多", "Pinduoduo"),
    "amazon": ("亚马逊", "Amazon"),
    "walmart": ("沃尔玛", "Walmart"),
    "shopee": ("Shopee", "Shopee"),
}
"""slug → (Chinese, English); the web page's dom.js holds the same names for the page."""


def platform_name(platform: str, language: str) -> str:
    """The platform's name in `language` ("zh" or "en"); an unknown slug as it is."""
    names = PLATFORM_NAMES.get(platform)
    if names is None:
        return platform
    return names[0] if language == "zh" else names[1]
