"""The fleet backend of the price seams.

History: one sorted set per offer, `cw:price:{<platform:item_id>}`, scored by the observation
time, members `time|price|currency|stock`; a Lua script appends a point only when the last
member differs, so concurrent ingests of one offer cannot write a point without a change.
A batch is one pipeline of those calls.

Watches: `cw:{user}:watches` (id → watch JSON), `cw:{user}:alerts` (id → alert JSON),
`cw:{user}:webhook` and `cw:{user}:watchgen` (the generation `erase` moves the user to; a
write for an older one is refused), all under the user's hash tag; `cw:watchidx:{<model hash>}` lists the
`user\\x1fid` of every watch of a model, which is how an ingest finds them. A watch fires by a
compare-and-set script on its user's keys: the watch is marked fired and its alert written
only if the watch still holds what was read, so two ingests cannot both fire it.
"""

from __future__ import annotations

import builtins
import hashlib
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from cartwise.errors import AccountErased, NotFound, QuotaExceeded
from cartwise.memory.backends.common import NamespaceVersion
from cartwise.memory.prices import (
    Alert,
    PricePoint,
    Trigger,
    Watch,
    alert_for,
    changed_watch,
    watch_met,
)
from cartwise.redis_connection import (
    DEFAULT_MAX_CONNECTIONS,
    DEFAULT_TIMEOUT_SECONDS,
    RedisConnection,
)

# KEYS[1] the offer's set; ARGV: time, state ("price|currency|stock"). Appends when the set is
# empty or its last point is older with another state; returns 1 when it appended.
_APPEND_LUA = """
local last = redis.call('ZRANGE', KEYS[1], -1, -1, 'WITHSCORES')
if last[1] then
  if tonumber(last[2]) >= tonumber(ARGV[1]) then return 0 end
  local state = string.match(last[1], '^[^|]*|(.*)$')
  if state == ARGV[2] then return 0 end
end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[1] .. '|' .. ARGV[2])
return 1
"""

# KEYS[1] the offer's set; ARGV: time, member, time, member... Writes only into an empty set.
_BACKFILL_LUA = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for i = 1, #ARGV, 2 do redis.call('ZADD', KEYS[1], ARGV[i], ARGV[i + 1]) end
return #ARGV / 2
"""

# KEYS: watches hash, alerts hash; ARGV: watch id, watch JSON as read, fired JSON, alert id,
# alert JSON. 1 when fired, 0 when the watch changed since it was read.
_FIRE_LUA = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[4], ARGV[5])
return 1
"""

# KEYS: watches hash, generation; ARGV: generation ('*': any), id, JSON. 1 when written, 0
# when the user was erased since the generation was read.
_ADD_LUA = """
if ARGV[1] ~= '*' and (redis.call('GET', KEYS[2]) or '') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
return 1
"""

# KEYS: webhook, generation; ARGV: generation ('*': any), url ('' deletes). As _ADD_LUA.
_WEBHOOK_LUA = """
if ARGV[1] ~= '*' and (redis.call('GET', KEYS[2]) or '') ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2]) end
return 1
"""

# KEYS: watches, alerts, webhook, generation; ARGV: the new generation. Deletes the user's
# keys and moves the generation in one step; returns the watches deleted (their index
# entries are removed after, from them).
_ERASE_LUA = """
local watches = redis.call('HVALS', KEYS[1])
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
redis.call('SET', KEYS[4], ARGV[1])
return watches
"""

# KEYS: watches hash; ARGV: id, JSON as read, new JSON. 1 when written.
_SWAP_LUA = """
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1
"""

_SEPARATOR = "\x1f"
_MAX_ATTEMPTS = 100


def _offer_key(offer: str) -> str:
    return f"cw:price:{{{offer}}}"


def _state(point: PricePoint) -> str:
    return f"{point.price:.2f}|{point.currency}|{int(point.in_stock)}"


def _parse(offer: str, member: bytes | str) -> PricePoint:
    return _parse_all(offer, [member])[0]


def _parse_all(offer: str, members: Sequence[bytes | str]) -> list[PricePoint]:
    """An offer's members as points; the offer's key is split once, not per point."""
    platform, _, item_id = offer.partition(":")
    points = []
    for member in members:
        text = member.decode() if isinstance(member, bytes) else member
        observed, price, currency, stock = text.split("|")
        points.append(
            PricePoint(platform, item_id, float(price), currency, stock == "1", float(observed))
        )
    return points


class RedisPriceHistory:
    """`PriceHistory` in Redis."""

    def __init__(
        self,
        url: str,
        *,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
    ) -> None:
        self._redis = RedisConnection(url, timeout=timeout, max_connections=max_connections)
        self._scripts: dict[str, Any] = {}

    def _run_each(self, script: str, calls: Sequence[tuple[str, Sequence[str]]]) -> list[Any]:
        """`script` once per (key, args): one pipeline on a single server; on a cluster, whose
        pipelines take no scripts, one call each (every key is its own slot)."""
        with self._redis.guard():
            client = self._redis.client
            if not self._redis.cluster:
                pipe = client.pipeline(transaction=False)
                for key, args in calls:
                    pipe.eval(script, 1, key, *args)
                return list(pipe.execute())
            if script not in self._scripts:
                self._scripts[script] = client.register_script(script)
            run = self._scripts[script]
            return [run(keys=[key], args=list(args)) for key, args in calls]

    def append_changed(self, points: Sequence[PricePoint]) -> list[PricePoint]:
        if not points:
            return []
        calls = [(_offer_key(p.key), (repr(p.observed_at), _state(p))) for p in points]
        results = self._run_each(_APPEND_LUA, calls)
        return [p for p, added in zip(points, results, strict=True) if added]

    def backfill(self, points: Sequence[PricePoint]) -> int:
        by_offer: dict[str, list[PricePoint]] = {}
        for point in points:
            by_offer.setdefault(point.key, []).append(point)
        if not by_offer:
            return 0
        calls = []
        for offer, offer_points in by_offer.items():
            args: list[str] = []
            for p in offer_points:
                args += [repr(p.observed_at), f"{p.observed_at!r}|{_state(p)}"]
            calls.append((_offer_key(offer), args))
        return int(sum(self._run_each(_BACKFILL_LUA, calls)))

    def points(self, key: str, *, since: float = 0.0) -> list[PricePoint]:
        return self.points_many([key], since=since).get(key, [])

    def points_many(
        self, keys: Iterable[str], *, since: float = 0.0
    ) -> dict[str, list[PricePoint]]:
        wanted = sorted(set(keys))
        if not wanted:
            return {}
        with self._redis.guard():
            pipe = self._redis.client.pipeline(transaction=False)
            for offer in wanted:
                pipe.zrangebyscore(_offer_key(offer), since, "+inf")
            results = pipe.execute()
        return {
            offer: _parse_all(offer, members)
            for offer, members in zip(wanted, results, strict=True)
            if members
        }

    def latest(self, keys: Iterable[str]) -> dict[str, PricePoint]:
        wanted = sorted(set(keys))
        if not wanted:
            return {}
        with self._redis.guard():
            pipe = self._redis.client.pipeline(transaction=False)
            for offer in wanted:
                pipe.zrange(_offer_key(offer), -1, -1)
            results = pipe.execute()
        return {o: _parse(o, m[0]) for o, m in zip(wanted, results, strict=True) if m}

    def close(self) -> None:
        self._redis.close()


def _index_key(model: str) -> str:
    return f"cw:watchidx:{{{hashlib.sha1(model.encode()).hexdigest()[:16]}}}"


def _user_keys(user: str) -> tuple[str, str, str]:
    prefix = f"cw:{{{user}}}"
    return f"{prefix}:watches", f"{prefix}:alerts", f"{prefix}:webhook"


def _generation_key(user: str) -> str:
    return f"cw:{{{user}}}:watchgen"


class RedisWatchStore:
    """`WatchStore` in Redis."""

    def __init__(
        self,
        url: str,
        *,
        max_watches: int = 100,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
    ) -> None:
        self._redis = RedisConnection(url, timeout=timeout, max_connections=max_connections)
        self.max_watches = max_watches
        with self._redis.guard():
            client = self._redis.client
            self._fire = client.register_script(_FIRE_LUA)
            self._swap = client.register_script(_SWAP_LUA)
            self._add = client.register_script(_ADD_LUA)
            self._set_webhook = client.register_script(_WEBHOOK_LUA)
            self._erase = client.register_script(_ERASE_LUA)

    def _raw(self, user: str) -> dict[str, str]:
        with self._redis.guard():
            found: dict[Any, Any] = self._redis.client.hgetall(_user_keys(user)[0])
        return {_text(k): _text(v) for k, v in found.items()}

    def add(self, watch: Watch, *, generation: str | None = None) -> Watch:
        now = time.time()
        live = [w for w in self._parsed(self._raw(watch.user)) if w.is_live(now)]
        if len(live) >= self.max_watches:
            raise QuotaExceeded("watches", self.max_watches, "cancel one first")
        index, member = _index_key(watch.model), f"{watch.user}{_SEPARATOR}{watch.id}"
        with self._redis.guard():
            # Indexed first: an erase that lands in between finds the watch (and unindexes
            # it) or outdates the generation (and the watch is unindexed here).
            self._redis.client.sadd(index, member)
            keys = [_user_keys(watch.user)[0], _generation_key(watch.user)]
            args = ["*" if generation is None else generation, watch.id, watch.model_dump_json()]
            if not self._add(keys=keys, args=args):
                self._redis.client.srem(index, member)
                raise AccountErased(watch.user)
        return watch

    @staticmethod
    def _parsed(raw: Mapping[str, str]) -> builtins.list[Watch]:
        return [Watch.model_validate_json(v) for v in raw.values()]

    def list(self, user: str, *, include_closed: bool = False) -> builtins.list[Watch]:
        now = time.time()
        watches = self._parsed(self._raw(user))
        if not include_closed:
            watches = [w for w in watches if w.is_live(now)]
        return sorted(watches, key=lambda w: w.created_at, reverse=True)

    def _read(self, user: str, watch_id: str) -> str:
        with self._redis.guard():
            raw = self._redis.client.hget(_user_keys(user)[0], watch_id)
        if raw is None:
            raise NotFound("watch", watch_id)
        return _text(raw)

    def get(self, user: str, watch_id: str) -> Watch:
        return Watch.model_validate_json(self._read(user, watch_id))

    def _change(self, user: str, watch_id: str, change: Any) -> Watch:
        for _ in range(_MAX_ATTEMPTS):
            raw = self._read(user, watch_id)
            watch = change(Watch.model_validate_json(raw))
            with self._redis.guard():
                if self._swap(keys=[_user_keys(user)[0]],
                              args=[watch_id, raw, watch.model_dump_json()]):  # fmt: skip
                    return watch  # type: ignore[no-any-return]
        raise RuntimeError(f"watch {watch_id} kept changing under {_MAX_ATTEMPTS} updates")

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
        return self._change(
            user,
            watch_id,
            lambda w: changed_watch(w, target=target, days=days, rearm=rearm, now=now),
        )

    def cancel(self, user: str, watch_id: str) -> Watch:
        watch = self._change(user, watch_id, lambda w: w.model_copy(update={"status": "cancelled"}))
        with self._redis.guard():
            self._redis.client.srem(_index_key(watch.model), f"{user}{_SEPARATOR}{watch_id}")
        return watch

    def fire(
        self, triggers: Sequence[Trigger], fx_to_base: Mapping[str, float], *, now: float
    ) -> builtins.list[Alert]:
        by_model: dict[str, builtins.list[Trigger]] = {}
        for trigger in triggers:
            by_model.setdefault(trigger.model, []).append(trigger)
        if not by_model:
            return []
        models = sorted(by_model)
        with self._redis.guard():
            pipe = self._redis.client.pipeline(transaction=False)
            for model in models:
                pipe.smembers(_index_key(model))
            members = pipe.execute()
        raised: builtins.list[Alert] = []
        for model, found in zip(models, members, strict=True):
            for member in sorted(_text(m) for m in found):
                user, _, watch_id = member.partition(_SEPARATOR)
                alert = self._fire_one(user, watch_id, by_model[model], fx_to_base, now)
                if alert is not None:
                    raised.append(alert)
        return raised

    def _fire_one(
        self,
        user: str,
        watch_id: str,
        triggers: Sequence[Trigger],
        fx_to_base: Mapping[str, float],
        now: float,
    ) -> Alert | None:
        watches_key, alerts_key, _ = _user_keys(user)
        for _ in range(_MAX_ATTEMPTS):
            try:
                raw = self._read(user, watch_id)
            except NotFound:
                return None
            watch = Watch.model_validate_json(raw)
            if not watch.is_live(now):
                return None
            trigger = next((t for t in triggers if watch_met(watch, t, fx_to_base)), None)
            if trigger is None:
                return None
            alert = alert_for(watch, trigger, now=now)
            fired = watch.model_copy(update={"status": "fired", "fired_at": now})
            with self._redis.guard():
                done = self._fire(
                    keys=[watches_key, alerts_key],
                    args=[watch_id, raw, fired.model_dump_json(), alert.id,
                          alert.model_dump_json()],
                )  # fmt: skip
            if done:
                return alert
        return None

    def alerts(self, user: str, *, unseen_only: bool = False) -> builtins.list[Alert]:
        with self._redis.guard():
            found: dict[Any, Any] = self._redis.client.hgetall(_user_keys(user)[1])
        alerts = [Alert.model_validate_json(_text(v)) for v in found.values()]
        if unseen_only:
            alerts = [a for a in alerts if not a.seen]
        return sorted(alerts, key=lambda a: a.created_at, reverse=True)

    def mark_seen(self, user: str, alert_ids: Sequence[str]) -> int:
        key = _user_keys(user)[1]
        marked = 0
        for alert_id in alert_ids:
            with self._redis.guard():
                raw = self._redis.client.hget(key, alert_id)
                if raw is None:
                    continue
                alert = Alert.model_validate_json(_text(raw))
                if alert.seen:
                    continue
                seen = alert.model_copy(update={"seen": True}).model_dump_json()
                # Marking seen twice is harmless; the swap only keeps it from undoing nothing.
                self._swap(keys=[key], args=[alert_id, _text(raw), seen])
            marked += 1
        return marked

    def set_webhook(self, user: str, url: str, *, generation: str | None = None) -> None:
        keys = [_user_keys(user)[2], _generation_key(user)]
        with self._redis.guard():
            done = self._set_webhook(
                keys=keys, args=["*" if generation is None else generation, url]
            )
        if not done:
            raise AccountErased(user)

    def webhook(self, user: str) -> str:
        with self._redis.guard():
            raw = self._redis.client.get(_user_keys(user)[2])
        return _text(raw) if raw is not None else ""

    def generation(self, user: str) -> str:
        with self._redis.guard():
            value = self._redis.client.get(_generation_key(user))
        return _text(value) if value else ""

    def erase(self, user: str) -> None:
        keys = [*_user_keys(user), _generation_key(user)]
        with self._redis.guard():
            erased = self._erase(keys=keys, args=[NamespaceVersion.fresh_epoch()])
            for raw in erased:
                watch = Watch.model_validate_json(_text(raw))
                self._redis.client.srem(_index_key(watch.model), f"{user}{_SEPARATOR}{watch.id}")

    def close(self) -> None:
        self._redis.close()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
