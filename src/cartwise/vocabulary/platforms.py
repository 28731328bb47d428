"""The shopping platforms shoppers name, as data (`data/platforms.yml`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from cartwise.errors import ConfigurationError
from cartwise.vocabulary.files import data_file, words


@dataclass(frozen=True)
class Platform:
    """A platform: its id, the names a reply uses and the forms a shopper types."""

    id: str
    zh: str
    en: str
    forms: tuple[str, ...]

    def name(self, language: str) -> str:
        """The display name in `language` ("zh" or anything else for English)."""
        return self.zh if language == "zh" else self.en


@cache
def platforms() -> dict[str, Platform]:
    """Platform id → platform, in file order."""
    out: dict[str, Platform] = {}
    for pid, row in data_file("platforms").items():
        try:
            out[pid] = Platform(pid, row["zh"], row["en"], words(row["forms"], f"platform {pid}"))
        except (KeyError, TypeError) as exc:
            raise ConfigurationError(f"vocabulary: platform {pid} is malformed: {exc}") from exc
    return out
