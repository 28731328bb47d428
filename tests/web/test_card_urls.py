"""The page's own URL guard (`webUrl` in dom.js), run in node: a `javascript:` URL that got
into a catalog never becomes a card link or image source."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from cartwise.web import STATIC_DIR

CASES = {
    "https://shop.example/item?id=1": "https://shop.example/item?id=1",
    "HTTP://Shop.Example/x": "http://shop.example/x",
    "javascript:alert(document.cookie)": None,
    " JaVaScRiPt:alert(1)": None,
    "java\tscript:alert(1)": None,
    "data:text/html,<script>alert(1)</script>": None,
    "//evil.example/x": None,
    "/relative/path": None,
    "": None,
}


def guard_results(function: str, cases: list[str]) -> list[str | None]:
    """What `function` of dom.js makes of each case, run in node."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    script = (
        f"const {{ {function} }} = await import({json.dumps((STATIC_DIR / 'dom.js').as_uri())});"
        f"const cases = {json.dumps(cases)};"
        f"console.log(JSON.stringify(cases.map((url) => {function}(url))));"
    )
    result = subprocess.run(
        [node, "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    parsed: list[str | None] = json.loads(result.stdout.strip().splitlines()[-1])
    return parsed


def test_only_http_urls_become_links() -> None:
    assert guard_results("webUrl", list(CASES)) == list(CASES.values())


IMAGE_CASES = {
    "/images/bookshelf/brown.svg": "/images/bookshelf/brown.svg",
    "https://cdn.example/a.png": "https://cdn.example/a.png",
    "//evil.example/x.svg": None,
    "/\\evil.example/x.svg": None,
    "javascript:alert(1)": None,
    "/images/x.svg onerror=alert(1)": None,
    "": None,
}


def test_image_sources_are_site_paths_or_http_urls() -> None:
    assert guard_results("imageUrl", list(IMAGE_CASES)) == list(IMAGE_CASES.values())
