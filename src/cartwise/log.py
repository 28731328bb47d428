"""The one logger, its one-line JSON output, and a guard for personal data in log lines."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import TextIO

logger = logging.getLogger("cartwise")

SERVER_LOGGERS = ("cartwise", "uvicorn")
"""Loggers `cartwise serve` writes: ours and the server's (its errors included)."""


def redact(text: str, *, allowed: bool) -> str:
    """User text in a log line only when explicitly allowed (LOG_PERSONAL_DATA)."""
    return text if allowed else f"<{len(text)} chars>"


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, logger, message, and the traceback (as one
    string field, so a crash stays one line a log shipper can parse)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def configure_logging(level: int = logging.INFO, *, stream: TextIO | None = None) -> None:
    """Send the server's logs to `stream` (stderr) as JSON lines.

    Without this, the only handler on the `cartwise` logger is the metrics' warning counter,
    and its presence switches off Python's last-resort output: errors reached no log."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    for name in SERVER_LOGGERS:
        target = logging.getLogger(name)
        for old in [h for h in target.handlers if isinstance(h.formatter, JsonFormatter)]:
            target.removeHandler(old)
        target.addHandler(handler)
        target.setLevel(level)
        target.propagate = False
