"""FastAPI dependencies as `Annotated` aliases; routes declare what they need by type.

`CurrentUser` turns a bearer token into a username. `OwnedThread` is one of the user's live
threads, else a 404; thread ids are namespaced by user, so another shopper's ids are
neither visible nor in the way.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Annotated, Any, Protocol

from ag_ui.core import BaseEvent
from fastapi import Depends, Path, Request
from fastapi.security import OAuth2PasswordBearer
from limits import RateLimitItem
from pydantic import BaseModel

from cartwise.agent.deps import AgentDeps
from cartwise.api.auth import Authenticator, TokenClaims
from cartwise.api.limits import RateLimits, SignInThrottle
from cartwise.api.metrics import ApiMetrics
from cartwise.errors import NotFound, StoreUnavailable
from cartwise.memory.pinned import PinnedPreferences, PinnedSessions, PinnedWatches
from cartwise.memory.prices import WatchStore
from cartwise.memory.session_state import THREAD_ID_PATTERN, SessionStore
from cartwise.memory.store import PreferenceStore
from cartwise.settings import Settings
from cartwise.understanding.reading import Language

Emit = Callable[[BaseEvent], Awaitable[None]]


class TurnRunner(Protocol):
    """`cartwise.agent.run.run_agent`'s signature."""

    def __call__(
        self,
        deps: AgentDeps,
        *,
        user: str,
        thread: str,
        message: str,
        emit: Emit | None = None,
        language: Language | None = None,
    ) -> Coroutine[Any, Any, BaseModel]: ...


class DepsProvider:
    """Opens the agent's dependencies once, and again after a failure.

    A dead Redis at start must not stop the server from starting: `/healthz` answers,
    `/readyz` and every store-backed route answer 503 naming the URL, and the first request
    after Redis is back opens the stores. Retries are spaced so a dead backend is not
    hammered by every request."""

    def __init__(
        self,
        settings: Settings,
        factory: Callable[[Settings], AgentDeps],
        *,
        deps: AgentDeps | None = None,
        retry_seconds: float = 5.0,
    ) -> None:
        self._settings = settings
        self._factory = factory
        self._deps = deps
        self._owned = deps is None
        self.retry_seconds = retry_seconds
        self._last_error: StoreUnavailable | None = None
        self._failed_at = 0.0
        self._lock = threading.Lock()

    @property
    def current(self) -> AgentDeps | None:
        """The open dependencies, without trying to open them."""
        return self._deps

    def get(self) -> AgentDeps:
        if self._deps is not None:
            return self._deps
        with self._lock:
            if self._deps is not None:
                return self._deps
            now = time.monotonic()
            if self._last_error is not None and now - self._failed_at < self.retry_seconds:
                raise self._last_error
            try:
                self._deps = self._factory(self._settings)
            except StoreUnavailable as exc:
                self._last_error, self._failed_at = exc, now
                raise
            self._last_error = None
            return self._deps

    def close(self) -> None:
        deps, self._deps = self._deps, None
        if deps is not None and self._owned:
            deps.close()


class ShutdownNotice:
    """When the server was told to stop, and by when its open streams must have ended."""

    MARGIN_SHARE = 0.25
    MAX_MARGIN_SECONDS = 1.0

    def __init__(self) -> None:
        self._deadline: float | None = None

    def begin(self, grace_seconds: float) -> None:
        """The stop has begun: streams end a little before `grace_seconds` from now, while
        the server still lets them finish."""
        margin = min(self.MAX_MARGIN_SECONDS, grace_seconds * self.MARGIN_SHARE)
        self._deadline = time.monotonic() + grace_seconds - margin

    def remaining(self) -> float | None:
        """Seconds a stream has left (0 once due), None when no stop was asked for."""
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - time.monotonic())


@dataclass
class ApiState:
    """Everything the routes share, kept on `app.state.cartwise`."""

    settings: Settings
    auth: Authenticator
    provider: DepsProvider
    runner: TurnRunner
    metrics: ApiMetrics
    limits: RateLimits
    turn_limit: RateLimitItem
    """Agent turns per user."""
    register_limit: RateLimitItem
    """Registrations per client address."""
    sign_in: SignInThrottle
    shutdown: ShutdownNotice = dataclasses.field(default_factory=ShutdownNotice)


oauth2_scheme = OAuth2PasswordBearer(tokenUrl="/api/auth/token")


def get_state(request: Request) -> ApiState:
    state: ApiState = request.app.state.cartwise
    return state


StateDep = Annotated[ApiState, Depends(get_state)]


def get_settings(state: StateDep) -> Settings:
    return state.settings


SettingsDep = Annotated[Settings, Depends(get_settings)]


def get_auth(state: StateDep) -> Authenticator:
    return state.auth


AuthDep = Annotated[Authenticator, Depends(get_auth)]


def client_address(request: Request) -> str:
    """The peer address rate limits are keyed by (behind a reverse proxy, run uvicorn with
    its proxy-headers options so this is the client, not the proxy)."""
    return request.client.host if request.client else "unknown"


ClientAddress = Annotated[str, Depends(client_address)]


def get_metrics(state: StateDep) -> ApiMetrics:
    return state.metrics


MetricsDep = Annotated[ApiMetrics, Depends(get_metrics)]


def get_current_token(auth: AuthDep, token: Annotated[str, Depends(oauth2_scheme)]) -> TokenClaims:
    """The verified claims of the bearer token (signature, age, account, revocation)."""
    return auth.verify(token)


CurrentToken = Annotated[TokenClaims, Depends(get_current_token)]


def get_current_user(claims: CurrentToken) -> str:
    return claims.username


CurrentUser = Annotated[str, Depends(get_current_user)]


def get_agent_deps(state: StateDep) -> AgentDeps:
    return state.provider.get()


AgentDepsDep = Annotated[AgentDeps, Depends(get_agent_deps)]


def pinned_deps(deps: AgentDeps, auth: Authenticator, claims: TokenClaims) -> AgentDeps:
    """`deps` with its stores (preferences, sessions, watches) pinned to the user's current
    generation (`memory.pinned`). The account is confirmed after the generations are read: if its deletion began in
    between, this is refused; if it begins later, the erase outdates the generations and
    every further write of this request fails instead of landing after the deletion."""
    user = claims.username
    preferences = PinnedPreferences(deps.preferences, user, deps.preferences.generation(user))
    sessions = PinnedSessions(deps.sessions, user, deps.sessions.generation(user))
    watches = (
        PinnedWatches(deps.watches, user, deps.watches.generation(user))
        if deps.watches is not None
        else None
    )
    auth.confirm(claims)
    return dataclasses.replace(deps, preferences=preferences, sessions=sessions, watches=watches)


def get_pinned_deps(deps: AgentDepsDep, auth: AuthDep, claims: CurrentToken) -> AgentDeps:
    return pinned_deps(deps, auth, claims)


PinnedDepsDep = Annotated[AgentDeps, Depends(get_pinned_deps)]


def get_preferences(deps: PinnedDepsDep) -> PreferenceStore:
    """The preference store (capped per account inside each write), pinned to the user."""
    return deps.preferences


PreferencesDep = Annotated[PreferenceStore, Depends(get_preferences)]


def get_watches(deps: PinnedDepsDep) -> WatchStore:
    """The watch store; 404 when price history is off (there are no watches to reach)."""
    if deps.watches is None:
        raise NotFound("watches", "price history is off on this server")
    return deps.watches


WatchesDep = Annotated[WatchStore, Depends(get_watches)]


def get_sessions(deps: PinnedDepsDep) -> SessionStore:
    return deps.sessions


SessionsDep = Annotated[SessionStore, Depends(get_sessions)]


def require_thread_access(
    sessions: SessionStore, user: str, thread: str, *, may_create: bool
) -> str:
    """The thread id when `user` may use it: one of their live threads, or any id when the
    caller is about to start it. Ids are per user, so another user's id says nothing."""
    if may_create or sessions.exists(user, thread):
        return thread
    raise NotFound("thread", thread)


def get_owned_thread(
    user: CurrentUser,
    sessions: SessionsDep,
    thread: Annotated[str, Path(pattern=THREAD_ID_PATTERN)],
) -> str:
    return require_thread_access(sessions, user, thread, may_create=False)


OwnedThread = Annotated[str, Depends(get_owned_thread)]
