"""The FastAPI application: `create_app()` gathers the routers, the error handlers, the
body-size limit and the shared state; the lifespan opens and closes the backends."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from limits import RateLimitItemPerHour, RateLimitItemPerMinute, parse_many
from starlette.concurrency import run_in_threadpool

from cartwise.agent.deps import AgentDeps, create_deps
from cartwise.agent.run import run_agent
from cartwise.api.accounts import create_account_store
from cartwise.api.auth import Authenticator
from cartwise.api.deps import ApiState, DepsProvider, TurnRunner
from cartwise.api.errors import install_error_handlers
from cartwise.api.fair import FairExecutor
from cartwise.api.limits import BodySizeLimit, RateLimits, SignInThrottle
from cartwise.api.metrics import ApiMetrics
from cartwise.api.passwords import PasswordHasher
from cartwise.api.routes import agent, auth, health, memory, search, threads, watches
from cartwise.api.secret import resolve_auth_secret
from cartwise.api.security import SecurityHeaders
from cartwise.api.text import TextHygiene
from cartwise.errors import StoreUnavailable
from cartwise.log import logger
from cartwise.settings import Settings, get_settings
from cartwise.understanding.offload import OffloadEngine
from cartwise.web import mount_web


def _engine_counters(provider: DepsProvider) -> Mapping[str, Any] | None:
    """The llm engine's counters (the rules engine keeps none)."""
    deps = provider.current
    counters = getattr(getattr(deps, "engine", None), "counters", None)
    snapshot = getattr(counters, "snapshot", None)
    return snapshot() if callable(snapshot) else None


def _long_reads(provider: DepsProvider) -> Mapping[str, int] | None:
    """Where the server read long messages (None: every message is read in-process)."""
    engine = getattr(provider.current, "engine", None)
    return dataclasses.asdict(engine.stats) if isinstance(engine, OffloadEngine) else None


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
    secret = resolve_auth_secret(settings)
    provider = DepsProvider(settings, deps_factory or create_deps, deps=deps)
    metrics = ApiMetrics(
        engine_counters=lambda: _engine_counters(provider),
        long_reads=lambda: _long_reads(provider),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The loop shuts its default executor down when it ends (asyncio.run does).
        asyncio.get_running_loop().set_default_executor(
            FairExecutor(
                settings.turn_threads,
                per_shopper=min(settings.turn_threads_per_shopper, settings.turn_threads),
                busy_share=settings.turn_busy_share,
            )
        )
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
            state.auth.close()

    app = FastAPI(
        title="Cartwise",
        summary="A bilingual shopping assistant with preference memory (AG-UI over SSE).",
        lifespan=lifespan,
    )
    limits = RateLimits.for_settings(settings)
    state = ApiState(
        settings=settings,
        auth=_authenticator(settings, secret),
        provider=provider,
        runner=runner or run_agent,
        metrics=metrics,
        limits=limits,
        turn_limit=RateLimitItemPerMinute(settings.rate_limit_per_minute),
        register_limit=RateLimitItemPerHour(settings.register_per_hour),
        sign_in=SignInThrottle(
            limits,
            per_address=RateLimitItemPerMinute(settings.auth_attempts_per_minute),
            failures=parse_many(settings.auth_failures_per_user_address),
        ),
    )
    app.state.cartwise = state
    install_error_handlers(app)
    # Added innermost first: security headers wrap everything (413s included), the size
    # limit runs before the text check buffers a body.
    app.add_middleware(TextHygiene)
    app.add_middleware(
        BodySizeLimit,
        max_bytes=settings.max_request_bytes,
        per_path={"/api/agent": settings.max_agent_request_bytes},
        on_reject=lambda: metrics.rejected_requests.labels(reason="too_large").inc(),
    )
    app.add_middleware(SecurityHeaders)
    for module in (auth, agent, memory, watches, threads, search, health):
        app.include_router(module.router)
    mount_web(app)
    return app


def _authenticator(settings: Settings, secret: str) -> Authenticator:
    hasher = PasswordHasher(
        memory_kib=settings.password_hash_memory_kib,
        time_cost=settings.password_hash_time_cost,
        concurrency=settings.password_hash_concurrency,
        queue_seconds=settings.password_hash_queue_seconds,
    )
    return Authenticator(
        create_account_store(settings),
        hasher,
        secret=secret,
        token_minutes=settings.auth_token_minutes,
        password_min_length=settings.password_min_length,
    )
