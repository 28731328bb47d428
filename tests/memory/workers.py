"""Functions run in spawned processes by the concurrency and crash tests (importable by
module path, so `spawn` can find them)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Barrier, Event
from pathlib import Path

from cartwise.embedding.hashing import HashingEmbedder
from cartwise.memory import create_preference_store
from cartwise.memory.store import MAX_KEYWORD_CHARS, PreferenceEntry, PreferenceStore
from cartwise.settings import Settings

USER = "shopper-1"
CONTENDED_KEYS = 80
BULK_ENTRIES = 200


@dataclass(frozen=True)
class StoreSpec:
    """Picklable: enough to open the test's store in another process."""

    backend: str
    home: str
    redis_url: str

    @classmethod
    def from_settings(cls, settings: Settings) -> StoreSpec:
        return cls(settings.store_backend, str(settings.cartwise_home), settings.redis_url)

    def settings(self) -> Settings:
        return Settings(  # type: ignore[call-arg]
            _env_file=None,
            cartwise_home=Path(self.home),
            store_backend=self.backend,
            redis_url=self.redis_url,
            embedder="hashing:256",
        )

    def open(self) -> PreferenceStore:
        return create_preference_store(self.settings(), HashingEmbedder())


def contended_entry(worker: int, index: int) -> PreferenceEntry:
    """Upsert `index` of `worker`: 80 keys shared by every worker, one unique keyword each,
    so a lost update shows up as a missing keyword (at most 24 per key: under the cap)."""
    return PreferenceEntry.model_validate(
        {
            "polarity": "like",
            "category": "style",
            "slug": f"style-{index % CONTENDED_KEYS}",
            "keywords": [f"w{worker}-{index}"],
        }
    )


def upsert_many(spec: StoreSpec, worker: int, count: int, start: Event) -> None:
    store = spec.open()
    start.wait()
    for index in range(count):
        store.upsert(USER, contended_entry(worker, index))
    store.close()


def bulk_generation(generation: int) -> list[PreferenceEntry]:
    """200 entries that all carry one generation tag: a half-applied replace would mix tags."""
    return [
        PreferenceEntry.model_validate(
            {
                "polarity": "dislike",
                "category": "material",
                "slug": f"material-{n}",
                "strength": "hard",
                "keywords": [f"gen-{generation}", "x" * MAX_KEYWORD_CHARS],
            }
        )
        for n in range(BULK_ENTRIES)
    ]


class TrappedEntries(list[PreferenceEntry]):
    """Entries whose second walk (the one inside the backend's write: SQLite has already
    deleted the old rows by then) stops halfway, tells the test, and waits to be killed."""

    def __init__(self, entries: list[PreferenceEntry], trapped: Event) -> None:
        super().__init__(entries)
        self._trapped = trapped
        self._walks = 0

    def __iter__(self) -> Iterator[PreferenceEntry]:
        self._walks += 1
        for index, entry in enumerate(super().__iter__()):
            if self._walks == 2 and index == len(self) // 2:
                self._trapped.set()
                time.sleep(3600)
            yield entry


def write_until_killed(spec: StoreSpec, trapped: Event) -> None:
    """Write generation 1 whole, then get SIGKILLed in the middle of writing generation 2."""
    store = spec.open()
    store.replace_all(USER, bulk_generation(1))  # type: ignore[attr-defined]
    store.upsert(
        USER,
        PreferenceEntry.model_validate(
            {"polarity": "like", "category": "color", "slug": "teal", "keywords": ["gen-1"]}
        ),
    )
    store.replace_all(USER, TrappedEntries(bulk_generation(2), trapped))  # type: ignore[attr-defined]


def fire_watches(spec: StoreSpec, platform: str, models: list[str], start: Barrier,
                 raised: Queue[list[str]]) -> None:  # fmt: skip
    """As one platform's ingest would: offer each model's new price (under every target) to
    the watches, once every worker is ready; puts the ids of the watches it fired."""
    from cartwise.memory import create_watch_store
    from cartwise.memory.prices import Trigger

    settings = spec.settings()
    store = create_watch_store(settings)
    triggers = [Trigger(model, platform, f"{platform}-{n}", 100.0, "CNY", 100.0, True)
                for n, model in enumerate(models)]  # fmt: skip
    start.wait()
    alerts = [a for t in triggers for a in store.fire([t], settings.fx_to_base, now=time.time())]
    store.close()
    raised.put([a.watch_id for a in alerts])


def open_capped(spec: StoreSpec, cap: int) -> Settings:
    """The spec's settings with every per-user cap at `cap`."""
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        cartwise_home=Path(spec.home),
        store_backend=spec.backend,
        redis_url=spec.redis_url,
        embedder="hashing:256",
        max_threads_per_user=cap,
        max_preferences_per_user=cap,
        max_watches_per_user=cap,
    )


def add_under_cap(spec: StoreSpec, kind: str, worker: int, cap: int, start: Event) -> None:
    """One new thread, entry or watch of USER, written the moment `start` is set; a refusal
    at the cap is an outcome, not a failure (the test counts what was kept)."""
    from cartwise.errors import QuotaExceeded
    from cartwise.memory import create_session_store, create_watch_store
    from cartwise.memory.prices import new_watch

    settings = open_capped(spec, cap)
    if kind == "threads":
        sessions = create_session_store(settings)
        write = lambda: sessions.start(USER, f"race-{worker}")  # noqa: E731
        close = sessions.close
    elif kind == "entries":
        store = create_preference_store(settings, HashingEmbedder())
        entry = PreferenceEntry.model_validate(
            {"polarity": "like", "category": "style", "slug": f"race-{worker}"}
        )
        write = lambda: store.upsert(USER, entry)  # noqa: E731
        close = store.close
    else:
        watches = create_watch_store(settings)
        watch = new_watch(USER, model=f"m{worker}", title="x", kind="stock", target=None,
                          currency="CNY")  # fmt: skip
        write = lambda: watches.add(watch)  # noqa: E731
        close = watches.close
    start.wait()
    try:
        write()
    except QuotaExceeded:
        pass
    finally:
        close()
