"""The documented error responses of each route, so the OpenAPI spec states every status a
route can answer and the body it answers with (checked by the schemathesis test)."""

from __future__ import annotations

from typing import Any

from cartwise.api.schemas import ErrorPublic, ValidationErrorPublic

_RETRY_AFTER = {"Retry-After": {"description": "Seconds to wait", "schema": {"type": "integer"}}}

DESCRIPTIONS: dict[int, str] = {
    400: "The body cannot be parsed at all (not decodable as its content type)",
    401: "Missing, expired, revoked or invalid bearer token, or wrong username or password",
    404: "Not found for the current user (someone else's looks the same)",
    409: "Conflicts with what exists: a taken username, or a per-account cap reached",
    410: "The account was deleted while the request ran; nothing more was saved",
    413: "Request body over MAX_REQUEST_BYTES",
    422: "The request is malformed or holds invalid values or text",
    429: "A rate limit was reached",
    503: "A backend is unavailable or the server is busy; retry later",
}


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` for a route that may answer the given error statuses."""
    documented: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        model = ValidationErrorPublic if status == 422 else ErrorPublic
        entry: dict[str, Any] = {"model": model, "description": DESCRIPTIONS[status]}
        if status in (429, 503):
            entry["headers"] = _RETRY_AFTER
        documented[status] = entry
    return documented
