"""The embedded backend of the price seams: points and watches in one SQLite file.

`price_latest` mirrors each offer's last point, so deciding which of a batch changed is one
indexed read per batch instead of a scan of the history. `price_summaries` keeps the
`PriceSummary` of each offer of KEPT_FROM_POINTS points or more, made in the transaction
that writes its points, so reading such an offer's facts is one row; a read that finds it
expired makes a new one from the points and keeps it unless a point was written meanwhile.
A watch fires inside the same
`BEGIN IMMEDIATE` transaction that writes its alert: two ingests (processes) offering the
same watch serialize, and the second finds it fired. `user_generations` is the memory
files' own table: an erase moves the user to a new generation, and a watch or webhook
written for an older one (a turn that began before the account was deleted) is refused.
"""

from __future__ import annotations

import builtins
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import groupby
from operator import itemgetter
from pathlib import Path

from cartwise.errors import NotFound, QuotaExceeded, StoreUnavailable
from cartwise.memory.backends.sqlite import (
    _GENERATIONS_SCHEMA,
    _check_generation,
    _generation,
    _new_generation,
    _SqliteDatabase,
)
from cartwise.memory.price_facts import KEPT_FROM_POINTS, PriceSummary, summarize
from cartwise.memory.prices import (
    Alert,
    PricePoint,
    Trigger,
    Watch,
    alert_for,
    changed_watch,
    watch_met,
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS price_points (
    offer TEXT NOT NULL,
    observed_at REAL NOT NULL,
    price REAL NOT NULL,
    currency TEXT NOT NULL,
    in_stock INTEGER NOT NULL,
    PRIMARY KEY (offer, observed_at)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS price_latest (
    offer TEXT PRIMARY KEY,
    observed_at REAL NOT NULL,
    price REAL NOT NULL,
    currency TEXT NOT NULL,
    in_stock INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS price_summaries (
    offer TEXT PRIMARY KEY,
    computed_at REAL NOT NULL,
    valid_until REAL NOT NULL,
    summary TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS watches (
    id TEXT PRIMARY KEY,
    user TEXT NOT NULL,
    model TEXT NOT NULL,
    status TEXT NOT NULL,
    expires_at REAL NOT NULL,
    payload TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS watches_by_user ON watches (user);
CREATE INDEX IF NOT EXISTS watches_by_model ON watches (model, status);
CREATE TABLE IF NOT EXISTS alerts (
    id TEXT PRIMARY KEY,
    user TEXT NOT NULL,
    created_at REAL NOT NULL,
    seen INTEGER NOT NULL DEFAULT 0,
    payload TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS alerts_by_user ON alerts (user, created_at);
CREATE TABLE IF NOT EXISTS webhooks (
    user TEXT PRIMARY KEY,
    url TEXT NOT NULL
) WITHOUT ROWID;
"""

# SQLite's default limit of host parameters is 32766 since 3.32; stay far below it.
_CHUNK = 500


def _chunks(keys: Sequence[str]) -> Iterator[Sequence[str]]:
    for start in range(0, len(keys), _CHUNK):
        yield keys[start : start + _CHUNK]


_offer_of = itemgetter(0, 1)
"""A point's (platform, item_id)."""
_observed_at = itemgetter(5)


def _runs(points: Sequence[PricePoint]) -> list[tuple[str, list[PricePoint]]]:
    """`points` as (offer key, its consecutive points): they come grouped by offer (a batch,
    or each offer's past in turn), so a key is built once per run, not per point (a demo
    ingest writes 150k points)."""
    return [(f"{p}:{i}", list(run)) for (p, i), run in groupby(points, key=_offer_of)]


def _split(key: str) -> tuple[str, str]:
    platform, _, item_id = key.partition(":")
    return platform, item_id


def _point(offer: str, row: tuple[float, float, str, int]) -> PricePoint:
    platform, item_id = _split(offer)
    return PricePoint(platform, item_id, row[1], row[2], bool(row[3]), row[0])


def _history(offer: str, rows: Iterable[tuple[float, float, str, int]]) -> list[PricePoint]:
    """Rows (observed_at, price, currency, in_stock) of one offer as points. Tuples built
    without the NamedTuple constructor's argument parsing (a third of a 180-point read)."""
    platform, item_id = _split(offer)
    new = tuple.__new__
    return [new(PricePoint, (platform, item_id, p, c, s == 1, t)) for t, p, c, s in rows]


def _whole(run: Sequence[PricePoint]) -> list[PricePoint]:
    """A new offer's backfilled points as `price_points` keeps them: in time order, the first
    of two at one moment (INSERT OR IGNORE)."""
    ordered = sorted(run, key=_observed_at)  # stable: the first written stays first
    return [p for i, p in enumerate(ordered) if i == 0 or p[5] != ordered[i - 1][5]]


class SqlitePriceHistory:
    """`PriceHistory` in `<home>/prices.sqlite3`."""

    def __init__(self, path: Path, *, clock: Callable[[], float] = time.time) -> None:
        self._db = _SqliteDatabase(path, _SCHEMA)
        self._clock = clock

    def append_changed(self, points: Sequence[PricePoint]) -> list[PricePoint]:
        if not points:
            return []
        with self._db.write() as conn:
            last = self._latest(conn, [p.key for p in points])
            appended: list[PricePoint] = []
            for point in points:
                before = last.get(point.key)
                if before is not None and (
                    point.observed_at <= before.observed_at or before.same_offer_state(point)
                ):
                    continue
                appended.append(point)
                last[point.key] = point
            runs = _runs(appended)
            self._write_runs(conn, runs)
            offers = sorted({offer for offer, _ in runs})
            self._keep_summaries(conn, self._points_many(conn, offers, 0.0))
        return appended

    def backfill(self, points: Sequence[PricePoint]) -> int:
        if not points:
            return 0
        runs = _runs(points)
        with self._db.write() as conn:
            known = self._latest(conn, sorted({offer for offer, _ in runs}))
            fresh = [(offer, run) for offer, run in runs if offer not in known]
            self._write_runs(conn, fresh)
            # The offers are new: their points are all in hand, no need to read them back.
            pasts: dict[str, list[PricePoint]] = {}
            for offer, run in fresh:
                pasts.setdefault(offer, []).extend(run)
            self._keep_summaries(
                conn,
                {o: _whole(run) for o, run in pasts.items() if len(run) >= KEPT_FROM_POINTS},
            )
        return sum(len(run) for _, run in fresh)

    def _keep_summaries(
        self, conn: sqlite3.Connection, histories: Mapping[str, Sequence[PricePoint]]
    ) -> None:
        """Each long history's summary as of now (or its last point, when a test's clock is
        behind)."""
        clock = self._clock()
        rows = []
        for offer, points in histories.items():
            if len(points) < KEPT_FROM_POINTS:
                continue
            summary = summarize(points, now=max(clock, points[-1].observed_at))
            if summary is not None:
                rows.append((offer, summary.computed_at, summary.valid_until, summary.dumps()))
        conn.executemany(
            "INSERT OR REPLACE INTO price_summaries (offer, computed_at, valid_until, summary)"
            " VALUES (?, ?, ?, ?)",
            rows,
        )

    @staticmethod
    def _write_runs(
        conn: sqlite3.Connection, runs: Sequence[tuple[str, Sequence[PricePoint]]]
    ) -> None:
        rows = [
            (offer, at, price, currency, int(stock))
            for offer, run in runs
            for _, _, price, currency, stock, at in run
        ]
        conn.executemany(
            "INSERT OR IGNORE INTO price_points (offer, observed_at, price, currency, in_stock)"
            " VALUES (?, ?, ?, ?, ?)",
            rows,
        )
        newest: dict[str, tuple[str, float, float, str, int]] = {}
        for offer, run in runs:
            _, _, price, currency, stock, at = max(run, key=_observed_at)
            if offer not in newest or at > newest[offer][1]:
                newest[offer] = (offer, at, price, currency, int(stock))
        conn.executemany(
            "INSERT INTO price_latest (offer, observed_at, price, currency, in_stock)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (offer) DO UPDATE SET"
            " observed_at = excluded.observed_at, price = excluded.price,"
            " currency = excluded.currency, in_stock = excluded.in_stock"
            " WHERE excluded.observed_at > price_latest.observed_at",
            list(newest.values()),
        )

    @staticmethod
    def _latest(conn: sqlite3.Connection, keys: Sequence[str]) -> dict[str, PricePoint]:
        found: dict[str, PricePoint] = {}
        for chunk in _chunks(keys):
            marks = ",".join("?" * len(chunk))
            for offer, *row in conn.execute(
                "SELECT offer, observed_at, price, currency, in_stock FROM price_latest"
                f" WHERE offer IN ({marks})",
                list(chunk),
            ):
                found[offer] = _point(offer, tuple(row))
        return found

    def points(self, key: str, *, since: float = 0.0) -> list[PricePoint]:
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT observed_at, price, currency, in_stock FROM price_points"
                " WHERE offer = ? AND observed_at >= ? ORDER BY observed_at",
                (key, since),
            ).fetchall()
        return _history(key, rows)

    def points_many(
        self, keys: Iterable[str], *, since: float = 0.0
    ) -> dict[str, list[PricePoint]]:
        with self._db.read() as conn:
            return self._points_many(conn, sorted(set(keys)), since)

    @staticmethod
    def _points_many(
        conn: sqlite3.Connection, offers: Sequence[str], since: float
    ) -> dict[str, list[PricePoint]]:
        found: dict[str, list[PricePoint]] = {}
        for chunk in _chunks(offers):
            marks = ",".join("?" * len(chunk))
            rows = conn.execute(
                "SELECT offer, observed_at, price, currency, in_stock FROM price_points"
                f" WHERE offer IN ({marks}) AND observed_at >= ? ORDER BY offer, observed_at",
                [*chunk, since],
            )
            for offer, run in groupby(rows, key=itemgetter(0)):
                found[offer] = _history(offer, (row[1:] for row in run))
        return found

    def latest(self, keys: Iterable[str]) -> dict[str, PricePoint]:
        with self._db.read() as conn:
            return self._latest(conn, sorted(set(keys)))

    def summaries(self, keys: Iterable[str], *, now: float) -> dict[str, PriceSummary]:
        wanted = sorted(set(keys))
        found: dict[str, PriceSummary] = {}
        with self._db.read() as conn:
            for chunk in _chunks(wanted):
                marks = ",".join("?" * len(chunk))
                for offer, text in conn.execute(
                    "SELECT offer, summary FROM price_summaries WHERE offer IN"
                    f" ({marks}) AND computed_at <= ? AND valid_until > ?",
                    [*chunk, now, now],
                ):
                    found[offer] = PriceSummary.loads(text)
            stale = [offer for offer in wanted if offer not in found]
            histories = self._points_many(conn, stale, 0.0) if stale else {}
        if not histories:
            return found
        made = {}
        for offer, points in histories.items():
            if (summary := summarize(points, now=now)) is not None:
                found[offer] = summary
                if len(points) >= KEPT_FROM_POINTS:
                    made[offer] = summary
        if not made:
            return found
        try:
            with self._db.write() as conn:
                # Kept only when no point came meanwhile: its ingest made a newer summary.
                latest = self._latest(conn, sorted(made))
                conn.executemany(
                    "INSERT OR REPLACE INTO price_summaries"
                    " (offer, computed_at, valid_until, summary) VALUES (?, ?, ?, ?)",
                    [
                        (offer, summary.computed_at, summary.valid_until, summary.dumps())
                        for offer, summary in made.items()
                        if offer in latest
                        and latest[offer].observed_at == histories[offer][-1].observed_at
                    ],
                )
        except StoreUnavailable:
            pass  # busy with an ingest: the summaries are right, the next read keeps them
        return found

    def close(self) -> None:
        self._db.close()


class SqliteWatchStore:
    """`WatchStore` in the same file as the history."""

    def __init__(self, path: Path, *, max_watches: int = 100) -> None:
        self._db = _SqliteDatabase(path, _SCHEMA + _GENERATIONS_SCHEMA)
        self.max_watches = max_watches

    def add(self, watch: Watch, *, generation: str | None = None) -> Watch:
        with self._db.write() as conn:
            _check_generation(conn, watch.user, generation)
            (live,) = conn.execute(
                "SELECT count(*) FROM watches WHERE user = ? AND status = 'active'"
                " AND expires_at > ?",
                (watch.user, time.time()),
            ).fetchone()
            if live >= self.max_watches:
                raise QuotaExceeded("watches", self.max_watches, "cancel one first")
            # Closed watches beyond the cap's number are forgotten, oldest first: made and
            # cancelled over and over, they would pile up without end.
            conn.execute(
                "DELETE FROM watches WHERE id IN (SELECT id FROM watches WHERE user = ?"
                " AND NOT (status = 'active' AND expires_at > ?)"
                " ORDER BY json_extract(payload, '$.created_at') DESC LIMIT -1 OFFSET ?)",
                (watch.user, time.time(), self.max_watches),
            )
            self._put(conn, watch)
        return watch

    @staticmethod
    def _put(conn: sqlite3.Connection, watch: Watch) -> None:
        conn.execute(
            "INSERT OR REPLACE INTO watches (id, user, model, status, expires_at, payload)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (watch.id, watch.user, watch.model, watch.status, watch.expires_at,
             watch.model_dump_json()),
        )  # fmt: skip

    def list(self, user: str, *, include_closed: bool = False) -> builtins.list[Watch]:
        with self._db.read() as conn:
            rows = conn.execute("SELECT payload FROM watches WHERE user = ?", (user,)).fetchall()
        now = time.time()
        watches = [Watch.model_validate_json(row[0]) for row in rows]
        if not include_closed:
            watches = [w for w in watches if w.is_live(now)]
        return sorted(watches, key=lambda w: w.created_at, reverse=True)

    def get(self, user: str, watch_id: str) -> Watch:
        with self._db.read() as conn:
            return self._get(conn, user, watch_id)

    @staticmethod
    def _get(conn: sqlite3.Connection, user: str, watch_id: str) -> Watch:
        row = conn.execute(
            "SELECT payload FROM watches WHERE id = ? AND user = ?", (watch_id, user)
        ).fetchone()
        if row is None:
            raise NotFound("watch", watch_id)
        return Watch.model_validate_json(row[0])

    def update(
        self,
        user: str,
        watch_id: str,
        *,
        target: float | None = None,
        days: float | None = None,
        rearm: bool = False,
        now: float | None = None,
    ) -> Watch:
        with self._db.write() as conn:
            watch = changed_watch(
                self._get(conn, user, watch_id), target=target, days=days, rearm=rearm, now=now
            )
            self._put(conn, watch)
        return watch

    def cancel(self, user: str, watch_id: str) -> Watch:
        with self._db.write() as conn:
            watch = self._get(conn, user, watch_id).model_copy(update={"status": "cancelled"})
            self._put(conn, watch)
        return watch

    def fire(
        self, triggers: Sequence[Trigger], fx_to_base: Mapping[str, float], *, now: float
    ) -> builtins.list[Alert]:
        models = sorted({t.model for t in triggers})
        if not models:
            return []
        raised: builtins.list[Alert] = []
        with self._db.write() as conn:
            watches: dict[str, builtins.list[Watch]] = {}
            for chunk in _chunks(models):
                marks = ",".join("?" * len(chunk))
                for (payload,) in conn.execute(
                    f"SELECT payload FROM watches WHERE model IN ({marks})"
                    " AND status = 'active' AND expires_at > ?",
                    [*chunk, now],
                ):
                    watch = Watch.model_validate_json(payload)
                    watches.setdefault(watch.model, []).append(watch)
            fired: set[str] = set()
            for trigger in triggers:
                for watch in watches.get(trigger.model, ()):
                    if watch.id in fired or not watch_met(watch, trigger, fx_to_base):
                        continue
                    fired.add(watch.id)
                    alert = alert_for(watch, trigger, now=now)
                    self._put(conn, watch.model_copy(update={"status": "fired", "fired_at": now}))
                    conn.execute(
                        "INSERT INTO alerts (id, user, created_at, payload) VALUES (?, ?, ?, ?)",
                        (alert.id, alert.user, alert.created_at, alert.model_dump_json()),
                    )
                    raised.append(alert)
        return raised

    def alerts(self, user: str, *, unseen_only: bool = False) -> builtins.list[Alert]:
        with self._db.read() as conn:
            rows = conn.execute(
                "SELECT payload, seen FROM alerts WHERE user = ?"
                + (" AND seen = 0" if unseen_only else "")
                + " ORDER BY created_at DESC",
                (user,),
            ).fetchall()
        return [Alert.model_validate_json(p).model_copy(update={"seen": bool(s)}) for p, s in rows]

    def mark_seen(self, user: str, alert_ids: Sequence[str]) -> int:
        with self._db.write() as conn:
            return sum(
                conn.execute(
                    "UPDATE alerts SET seen = 1 WHERE user = ? AND id = ? AND seen = 0",
                    (user, alert_id),
                ).rowcount
                for alert_id in alert_ids
            )

    def set_webhook(self, user: str, url: str, *, generation: str | None = None) -> None:
        with self._db.write() as conn:
            _check_generation(conn, user, generation)
            if url:
                conn.execute(
                    "INSERT OR REPLACE INTO webhooks (user, url) VALUES (?, ?)", (user, url)
                )
            else:
                conn.execute("DELETE FROM webhooks WHERE user = ?", (user,))

    def webhook(self, user: str) -> str:
        with self._db.read() as conn:
            row = conn.execute("SELECT url FROM webhooks WHERE user = ?", (user,)).fetchone()
        return str(row[0]) if row else ""

    def generation(self, user: str) -> str:
        with self._db.read() as conn:
            return _generation(conn, user)

    def erase(self, user: str) -> None:
        with self._db.write() as conn:
            for table in ("watches", "alerts", "webhooks"):
                conn.execute(f"DELETE FROM {table} WHERE user = ?", (user,))
            _new_generation(conn, user)

    def close(self) -> None:
        self._db.close()
