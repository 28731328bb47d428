"""Text hygiene: refuse text that cannot be stored or sent back, before anything reads it.

Lone UTF-16 surrogates (`\\ud800`) are legal in a JSON string escape and in Python `str`,
but cannot be encoded as UTF-8: one in a keyword or thread id used to fail deep inside a
store (500), and one in a message cut the SSE stream when its event was encoded. NUL and
the noncharacters U+FFFE/U+FFFF are refused with them. Query strings and paths cannot carry
such text (their percent-decoding replaces invalid UTF-8 with U+FFFD), so JSON bodies
(`TextHygiene`) and form fields (`check_text`) are where it is stopped.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cartwise.errors import InvalidInput
from cartwise.text import invalid_text


def check_text(value: str, *, field: str) -> str:
    """`value`, or `InvalidInput` naming `field` when it holds invalid text."""
    if invalid_text(value):
        raise InvalidInput(f"{field} contains invalid text (a lone surrogate, NUL or noncharacter)")
    return value


def _first_invalid(value: Any, path: tuple[str | int, ...]) -> tuple[str | int, ...] | None:
    """The location of the first invalid string (keys included) in a decoded JSON value."""
    if isinstance(value, str):
        return path if invalid_text(value) else None
    if isinstance(value, list):
        for index, item in enumerate(value):
            found = _first_invalid(item, (*path, index))
            if found is not None:
                return found
    elif isinstance(value, dict):
        for key, item in value.items():
            if invalid_text(key):
                return (*path, key)
            found = _first_invalid(item, (*path, key))
            if found is not None:
                return found
    return None


class TextHygiene:
    """Refuse a JSON request body holding invalid text with 422 (same shape as every other
    validation error); bodies that are not JSON pass on unchanged."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _is_json(scope):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        location = _invalid_location(body)
        if location is not None:
            await _reject(send, location)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _is_json(scope: Scope) -> bool:
    for name, value in scope.get("headers", ()):
        if name == b"content-type":
            return b"json" in value.lower()
    return False


def _invalid_location(body: bytes) -> tuple[str | int, ...] | None:
    try:
        # json.loads decodes bytes with "surrogatepass": UTF-8-encoded surrogates arrive too.
        decoded = json.loads(body)
    except (ValueError, RecursionError):
        return None  # not JSON: the route's own validation answers 422
    return _first_invalid(decoded, ("body",))


async def _reject(send: Send, location: tuple[str | int, ...]) -> None:
    where = ".".join(str(part) for part in location)
    message = "contains invalid text (a lone surrogate, NUL or noncharacter)"
    payload = json.dumps(
        {
            "detail": f"{where}: {message}",
            "errors": [{"loc": list(location), "msg": message, "type": "invalid_text"}],
        },
        ensure_ascii=True,
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 422,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(payload)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": payload})
