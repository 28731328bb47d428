"""The one logger, plus a guard for personal data in log lines."""

from __future__ import annotations

import logging

logger = logging.getLogger("cartwise")


def redact(text: str, *, allowed: bool) -> str:
    """User text in a log line only when explicitly allowed (LOG_PERSONAL_DATA)."""
    return text if allowed else f"<{len(text)} chars>"
