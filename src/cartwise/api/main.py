"""The FastAPI application: `create_app()` gathers the routers, the error handlers, the
body-size limit and the shared state; the lifespan opens and closes the backends."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from cartwise.agent.deps import AgentDeps, create_deps
from cartwise.agent.run import run_agent
from cartwise.api.auth import AccountStore
from cartwise.api.deps import ApiState, DepsProvider, TurnRunner
from cartwise.api.errors import install_error_handlers
from cartwise.api.limits import BodySizeLimit, RateLimiter
from cartwise.api.metrics import ApiMetrics
from cartwise.api.routes import agent, auth, health, memory, search, threads
from cartwise.errors import ConfigurationError, StoreUnavailable
from cartwise.log import logger
from cartwise.settings import Settings, get_settings
from cartwise.web import mount_web

MIN_SECRET_BYTES = 32
"""RFC 7518 §3.2: an HS256 key shorter than the hash output weakens the signature."""


def _engine_counters(provider: DepsProvider) -> Mapping[str, Any] | None:
    """The llm engine's counters (the rules engine keeps none)."""
    deps = provider.current
    counters = getattr(getattr(deps, "engine", None), "counters", None)
    snapshot = getattr(counters, "snapshot", None)
    return snapshot() if callable(snapshot) else None


def create_app(
    settings: Settings | None = None,
    deps: AgentDeps | None = None,
    *,
    runner: TurnRunner | None = None,
    deps_factory: Callable[[Settings], AgentDeps] | None = None,
) -> FastAPI:
    """The Cartwise HTTP API.

    `deps` are the agent's opened dependencies (the caller keeps ownership); without them
    the app opens its own at start-up with `deps_factory` (default: the agent's
    `create_deps`) and closes them at shutdown. `runner` is the turn entry point (default:
    `cartwise.agent.run.run_agent`)."""
    settings = settings or get_settings()
    if len(settings.auth_secret.encode()) < MIN_SECRET_BYTES:
        raise ConfigurationError(
            f"AUTH_SECRET must be at least {MIN_SECRET_BYTES} bytes to sign HS256 tokens safely"
        )
    provider = DepsProvider(settings, deps_factory or create_deps, deps=deps)
    metrics = ApiMetrics(engine_counters=lambda: _engine_counters(provider))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        metrics.attach()
        try:
            await run_in_threadpool(provider.get)
        except StoreUnavailable as exc:
            # Serve anyway: /healthz answers, /readyz and store routes say 503 until the
            # backend is back (see DepsProvider).
            logger.error("starting without backends: %s", exc)
        try:
            yield
        finally:
            metrics.detach()
            provider.close()
            state.accounts.close()

    app = FastAPI(
        title="Cartwise",
        summary="A bilingual shopping assistant with preference memory (AG-UI over SSE).",
        lifespan=lifespan,
    )
    state = ApiState(
        settings=settings,
        accounts=AccountStore(settings.home / "accounts.db"),
        provider=provider,
        runner=runner or run_agent,
        metrics=metrics,
        limiter=RateLimiter(settings.rate_limit_per_minute),
        login_limiter=RateLimiter(settings.auth_attempts_per_minute),
    )
    app.state.cartwise = state
    install_error_handlers(app)
    app.add_middleware(
        BodySizeLimit,
        max_bytes=settings.max_request_bytes,
        on_reject=lambda: metrics.rejected_requests.labels(reason="too_large").inc(),
    )
    for module in (auth, agent, memory, threads, search, health):
        app.include_router(module.router)
    mount_web(app)
    return app
