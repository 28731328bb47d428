"""The secret that signs bearer tokens: explicit, or generated once and kept private.

With `AUTH_SECRET` set, that is the secret. Without it a single local server generates a
random one on first start and keeps it in `<CARTWISE_HOME>/auth_secret` (mode 0600, created
atomically so two processes starting together agree on one), reusing it on later starts.
Replicas (`STORE_BACKEND=redis`) and servers reachable from other machines must share or
protect a secret deliberately, so they refuse to start without an explicit one.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

from cartwise.errors import ConfigurationError
from cartwise.settings import Settings

SECRET_FILE = "auth_secret"
MIN_SECRET_BYTES = 32
"""RFC 7518 §3.2: an HS256 key shorter than the hash output weakens the signature."""

LOOPBACK_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def require_explicit_secret(settings: Settings, *, host: str) -> None:
    """`ConfigurationError` when this deployment may not fall back to a generated secret."""
    if settings.auth_secret:
        return
    if settings.store_backend == "redis":
        raise ConfigurationError(
            "AUTH_SECRET must be set when STORE_BACKEND=redis: every replica must sign "
            "and check tokens with the same secret"
        )
    if host not in LOOPBACK_HOSTS:
        raise ConfigurationError(
            f"AUTH_SECRET must be set to listen on {host} (beyond this machine); "
            'generate one with: python -c "import secrets; print(secrets.token_urlsafe(48))"'
        )


def resolve_auth_secret(settings: Settings) -> str:
    """The signing secret: `AUTH_SECRET`, or the generated one under `CARTWISE_HOME` (never
    for replicas: a secret generated per machine would make each refuse the others' tokens)."""
    if not settings.auth_secret and settings.store_backend == "redis":
        require_explicit_secret(settings, host="127.0.0.1")
    secret = settings.auth_secret or load_or_create_secret(settings.home / SECRET_FILE)
    if len(secret.encode()) < MIN_SECRET_BYTES:
        raise ConfigurationError(
            f"AUTH_SECRET must be at least {MIN_SECRET_BYTES} bytes to sign HS256 tokens safely"
        )
    return secret


def load_or_create_secret(path: Path) -> str:
    """The secret in `path`, created (random, mode 0600) when absent.

    The new secret is written to a private temporary file and hard-linked into place, so
    `path` never exists half-written and, of two processes racing, exactly one link wins
    and both read the winner's secret."""
    if not path.exists():
        temporary = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as handle:
                handle.write(secrets.token_urlsafe(48) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
            # FileExistsError: another process created it first; use theirs.
            with contextlib.suppress(FileExistsError):
                os.link(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)
    mode = stat.S_IMODE(path.stat().st_mode)
    if mode & 0o077:
        raise ConfigurationError(
            f"{path} is readable by other users (mode {mode:o}); run: chmod 600 {path}"
        )
    secret = path.read_text(encoding="ascii").strip()
    if not secret:
        raise ConfigurationError(f"{path} is empty; delete it to generate a new secret")
    return secret
