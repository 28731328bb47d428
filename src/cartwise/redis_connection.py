"""One Redis client for every Redis-backed store (memory, accounts, limits, catalog version).

A URL `redis://…` (or `rediss://…`) is one server; `redis+cluster://host:port[,host:port]`
(or `rediss+cluster://…`) is a Redis Cluster reached through any of its nodes — the same
notation the `limits` library uses, so one REDIS_URL serves both. Every multi-key operation
of Cartwise names keys of one hash tag (`{user}`, `{catalog}`), so transactions and Lua
scripts stay in one cluster slot.

Redis errors become `StoreUnavailable` at `guard()`. A frozen Redis (accepting connections,
answering nothing) must cost a caller at most about `timeout`: every socket operation times
out, a timeout is not retried (redis-py's default retries three times with backoff), and the
single-server pool is bounded — a thread finding every connection busy waits at most
`timeout` for one instead of opening more. A dropped connection (Redis restarted) is retried
once at once, on a fresh connection.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.exceptions import ClusterDownError, RedisClusterException
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

from cartwise.errors import ConfigurationError, StoreUnavailable

DEFAULT_TIMEOUT_SECONDS = 2.0
DEFAULT_MAX_CONNECTIONS = 32
CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}


def redact_url(url: str) -> str:
    """The URL without its password, safe for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def is_cluster_url(url: str) -> bool:
    return urlsplit(url).scheme in CLUSTER_SCHEMES


def _cluster_client(url: str, *, timeout: float, max_connections: int) -> RedisCluster:
    parts = urlsplit(url)
    # netloc is `[user:password@]host:port[,host:port…]`; every listed node is a start node.
    credentials, _, hosts = parts.netloc.rpartition("@")
    username, _, password = credentials.partition(":")
    nodes = []
    for address in hosts.split(","):
        host, _, port = address.rpartition(":")
        if not host or not port.isdigit():
            raise ConfigurationError(f"REDIS_URL {redact_url(url)}: {address!r} is not host:port")
        nodes.append(ClusterNode(host.strip("[]"), int(port)))  # type: ignore[no-untyped-call]
    return RedisCluster(
        startup_nodes=nodes,
        username=username or None,
        password=password or None,
        ssl=CLUSTER_SCHEMES[parts.scheme] == "rediss",
        socket_connect_timeout=timeout,
        socket_timeout=timeout,
        max_connections=max_connections,
        retry=Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
    )


class RedisConnection:
    """A client (single server or cluster) plus the boundary where redis-py's errors become
    `StoreUnavailable`."""

    def __init__(
        self,
        url: str,
        *,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        max_connections: int = DEFAULT_MAX_CONNECTIONS,
    ) -> None:
        self.url = redact_url(url)
        self.cluster = is_cluster_url(url)
        self._raw_url = url
        self._timeout = timeout
        self._max_connections = max_connections
        self._client: Any = None
        self._client_lock = threading.Lock()
        if not self.cluster:
            pool = redis.BlockingConnectionPool.from_url(
                url,
                max_connections=max_connections,
                timeout=timeout,
                socket_connect_timeout=timeout,
                socket_timeout=timeout,
            )
            self._client = redis.Redis(
                connection_pool=pool,
                retry=Retry(NoBackoff(), 1, supported_errors=(RedisConnectionError,)),
            )

    @property
    def client(self) -> Any:
        """The redis-py client (`Redis` or `RedisCluster`, same command API). A cluster
        client connects at once to learn the slot map, so it is made on first use — inside
        a `guard()` — and a cluster that is down at start-up is a 503, not a crash."""
        with self._client_lock:
            if self._client is None:
                self._client = _cluster_client(
                    self._raw_url, timeout=self._timeout, max_connections=self._max_connections
                )
            return self._client

    @contextmanager
    def guard(self) -> Iterator[None]:
        try:
            yield
        except (
            RedisConnectionError,
            RedisTimeoutError,
            RedisClusterException,
            ClusterDownError,
        ) as exc:
            raise StoreUnavailable(self.url, str(exc) or type(exc).__name__) from exc

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
