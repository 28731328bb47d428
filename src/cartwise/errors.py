"""Cartwise's exceptions. Third-party errors are translated into these at backend boundaries.

CartwiseError
├── InvalidInput              bad user/file input; nothing was written
│   ├── InvalidPreference     a preference field failed validation
│   ├── IngestError           a catalog file cannot be read at all
│   └── UnknownPlatform       a platform name nobody indexed
├── NotFound                  a user's entry, thread or product does not exist
├── QuotaExceeded             a per-account cap (entries, threads) was reached; nothing written
├── AccountErased             the user's data was erased after this work began; nothing written
├── StoreUnavailable          Redis / Milvus / a database cannot be reached
├── EmbeddingError            the embeddings endpoint answered an error or garbage
└── ConfigurationError        settings that cannot work together

Errors that belong to one package live there and derive from CartwiseError too:
`understanding.llm.LLMFailure` (never leaves the engine: the rules engine answers instead),
`memory.backends.common.CorruptRow`, and the API's `RateLimited`, `UsernameTaken`,
`InvalidCredentials`.
"""

from __future__ import annotations


class CartwiseError(Exception):
    """Root of every error Cartwise raises on purpose."""


class InvalidInput(CartwiseError):
    """Input that cannot be accepted; the operation wrote nothing."""


class InvalidPreference(InvalidInput):
    """A preference entry with a field outside its allowed values."""

    def __init__(self, field: str, value: object, reason: str) -> None:
        self.field = field
        self.value = value
        self.reason = reason
        super().__init__(f"invalid preference {field}={value!r}: {reason}")


class IngestError(InvalidInput):
    """A catalog file that cannot be ingested at all."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot ingest {path}: {reason}")


class UnknownPlatform(InvalidInput):
    """A platform that is not in the catalog."""

    def __init__(self, platform: str, known: list[str]) -> None:
        self.platform = platform
        self.known = known
        super().__init__(
            f"unknown platform {platform!r}; known platforms: {', '.join(known) or '(none)'}"
        )


class NotFound(CartwiseError):
    """Something the caller asked for does not exist (for this user)."""

    def __init__(self, kind: str, key: str) -> None:
        self.kind = kind
        self.key = key
        super().__init__(f"{kind} not found: {key}")


class QuotaExceeded(CartwiseError):
    """A per-account cap was reached; the write did not happen."""

    def __init__(self, what: str, cap: int, remedy: str) -> None:
        self.what = what
        self.cap = cap
        super().__init__(f"you already keep {cap} {what}, the most allowed; {remedy}")


class AccountErased(CartwiseError):
    """A write for a user whose data was erased (the account deleted) after the work that
    makes it began: refused, so nothing of a deleted account outlives its deletion."""

    def __init__(self, user: str) -> None:
        self.user = user
        super().__init__("the account was deleted while this was running; nothing was saved")


class StoreUnavailable(CartwiseError):
    """A backing service cannot be reached."""

    def __init__(self, url: str, reason: str = "") -> None:
        self.url = url
        self.reason = reason
        super().__init__(f"store unavailable at {url}" + (f": {reason}" if reason else ""))


class EmbeddingError(CartwiseError):
    """An embeddings endpoint answered with an error or with something that is not embeddings."""

    def __init__(self, url: str, reason: str) -> None:
        self.url = url
        self.reason = reason
        super().__init__(f"embedding endpoint {url} failed: {reason}")


class ConfigurationError(CartwiseError):
    """Settings that cannot work."""
