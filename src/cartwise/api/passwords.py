"""Password hashing with bounded memory, and the password policy.

Argon2id costs memory on purpose, which makes it a lever for anonymous traffic: every
sign-in hashes, unknown usernames included (against a dummy hash, so both cost the same
and timing does not tell which names exist). `PasswordHasher` therefore runs at most
`concurrency` hashes at a time; a request that cannot get a slot within `queue_seconds`
gets `ServerBusy` (503 + Retry-After) instead of piling up. Peak hashing memory is
`concurrency × memory_kib`. The hashes run on `concurrency` dedicated threads rather than on
whichever request thread asked: glibc keeps a freed argon2 block in the allocating thread's
arena, so hashing on 40 request threads left ~16 arenas × 19 MiB resident (measured: 324 MiB
growth for 120 sign-ins) where two threads keep two.

The default cost is OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane). Hashes made with
other parameters still verify (argon2 stores them in the hash) and are rehashed with the
current ones at the next successful sign-in.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from typing import TypeVar

from argon2 import PasswordHasher as Argon2Hasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from cartwise.errors import CartwiseError, InvalidInput

_T = TypeVar("_T")

COMMON_PASSWORDS_CHECKED = 10_000
"""How many of zxcvbn's most common passwords (its `passwords` frequency list, from leaked
password corpora) a new password may not be."""


class ServerBusy(CartwiseError):
    """Every password-hashing slot stayed taken for the whole queue wait."""

    def __init__(self, retry_after: float) -> None:
        self.retry_after = retry_after
        super().__init__("the server is busy signing other people in; retry in a moment")


class WeakPassword(InvalidInput):
    """A new password the policy refuses."""


class PasswordHasher:
    """argon2id with a bound on concurrent hashes."""

    def __init__(
        self,
        *,
        memory_kib: int,
        time_cost: int,
        concurrency: int,
        queue_seconds: float,
        parallelism: int = 1,
    ) -> None:
        self._argon2 = Argon2Hasher(
            time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism
        )
        self._slots = threading.BoundedSemaphore(concurrency)
        self._workers = ThreadPoolExecutor(concurrency, thread_name_prefix="argon2")
        self._queue_seconds = queue_seconds
        # Verified when a username is unknown, so an unknown name costs one real hash.
        self._dummy_hash = self._argon2.hash("cartwise-dummy-password-for-unknown-users")

    def hash(self, password: str) -> str:
        return self._run(self._argon2.hash, password)

    def verify(self, password_hash: str | None, password: str) -> bool:
        """True when `password` matches; with `password_hash` None the dummy hash is
        checked (same cost) and the answer is False."""
        matched = self._run(self._matches, password_hash or self._dummy_hash, password)
        return matched and password_hash is not None

    def needs_rehash(self, password_hash: str) -> bool:
        return self._argon2.check_needs_rehash(password_hash)

    def close(self) -> None:
        self._workers.shutdown(wait=True)

    def _matches(self, password_hash: str, password: str) -> bool:
        try:
            return self._argon2.verify(password_hash, password)
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def _run(self, work: Callable[..., _T], *args: str) -> _T:
        """Run `work` on a hashing thread once a slot is free; `ServerBusy` when none frees
        up within the queue wait. Holding a slot guarantees an idle worker thread."""
        if not self._slots.acquire(timeout=self._queue_seconds):
            raise ServerBusy(retry_after=1.0)
        try:
            return self._workers.submit(work, *args).result()
        finally:
            self._slots.release()


@cache
def common_passwords() -> frozenset[str]:
    """The most common passwords, lowercased (zxcvbn ships the list; read once)."""
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(p.lower() for p in FREQUENCY_LISTS["passwords"][:COMMON_PASSWORDS_CHECKED])


def check_password_policy(username: str, password: str, *, min_length: int) -> None:
    """`WeakPassword` with the reason when `password` may not be used for `username`."""
    if len(password) < min_length:
        raise WeakPassword(f"the password must be at least {min_length} characters long")
    folded = password.casefold()
    if username.casefold() in folded:
        raise WeakPassword("the password must not contain the username")
    if folded in common_passwords() or len(set(folded)) <= 2:
        raise WeakPassword("this password is too common or too simple; choose another")
