"""Accounts: register, sign in (OAuth2 password flow), change the password, sign out,
delete, who am I."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

from fastapi import APIRouter, Depends, Response, status
from fastapi.security import OAuth2PasswordRequestForm
from starlette.concurrency import run_in_threadpool

from cartwise.agent.deps import AgentDeps
from cartwise.api.accounts import InvalidCredentials
from cartwise.api.auth import Authenticator
from cartwise.api.deps import (
    AgentDepsDep,
    ApiState,
    AuthDep,
    ClientAddress,
    CurrentToken,
    CurrentUser,
    StateDep,
)
from cartwise.api.limits import RateLimited
from cartwise.api.openapi import responses
from cartwise.api.schemas import (
    PASSWORD_MAX_CHARS,
    USERNAME_MAX_CHARS,
    AccountDelete,
    PasswordChange,
    TokenPublic,
    UserCreate,
    UserPublic,
)
from cartwise.api.text import check_text
from cartwise.errors import InvalidInput

router = APIRouter(prefix="/api", tags=["auth"])


def check_sign_in_lengths(username: str, password: str) -> None:
    """`InvalidInput` (422) for a username or password longer than any account can have."""
    if len(username) > USERNAME_MAX_CHARS:
        raise InvalidInput(f"username: at most {USERNAME_MAX_CHARS} characters")
    if len(password) > PASSWORD_MAX_CHARS:
        raise InvalidInput(f"password: at most {PASSWORD_MAX_CHARS} characters")


@router.post(
    "/auth/register",
    status_code=status.HTTP_201_CREATED,
    responses=responses(400, 409, 413, 422, 429, 503),
)
def register(body: UserCreate, state: StateDep, address: ClientAddress) -> UserPublic:
    """Create an account; 409 when the username is taken, 422 for a password the policy
    refuses (too short, contains the username, or among the most common), 429 after
    `REGISTER_PER_HOUR` registrations from one address. A name whose deletion was cut short
    (a crash half-way) is erased to the end first: it starts empty."""
    try:
        state.limits.hit(state.register_limit, "register", address)
    except RateLimited:
        state.metrics.rejected_requests.labels(reason="registrations").inc()
        raise
    record = state.auth.store.get(body.username)
    if record is not None and record.deleting:
        erase_account(state.auth, state.provider.get(), body.username)
    state.auth.register(body.username, body.password)
    return UserPublic(username=body.username)


@router.post("/auth/token", responses=responses(400, 401, 413, 422, 429, 503))
def token(
    form: Annotated[OAuth2PasswordRequestForm, Depends()],
    state: StateDep,
    address: ClientAddress,
) -> TokenPublic:
    """Exchange username and password for a bearer token; 401 on bad credentials, 429 after
    too many attempts from this address (or failures for this username from this address),
    503 when every password-hashing slot stays busy."""
    username = check_text(form.username, field="username")
    password = check_text(form.password, field="password")
    # Bounded before anything remembers them: the throttle keys failures by username, and a
    # name no account can have must not cost the server memory for an hour.
    check_sign_in_lengths(username, password)
    with _throttled(state, username, address):
        access_token = state.auth.sign_in(username, password)
    minutes = state.settings.auth_token_minutes
    return TokenPublic(access_token=access_token, expires_in=minutes * 60)


@router.post("/auth/password", responses=responses(400, 401, 413, 422, 429, 503))
def change_password(
    body: PasswordChange, user: CurrentUser, state: StateDep, address: ClientAddress
) -> TokenPublic:
    """Change the password (the current one is required, and its checks are throttled like
    sign-in); every token issued before is revoked, this request's included, and a fresh
    one is returned."""
    current = check_text(body.current_password, field="current_password")
    new = check_text(body.new_password, field="new_password")
    with _throttled(state, user, address):
        access_token = state.auth.change_password(user, current, new)
    minutes = state.settings.auth_token_minutes
    return TokenPublic(access_token=access_token, expires_in=minutes * 60)


@router.post("/auth/logout", status_code=status.HTTP_204_NO_CONTENT, responses=responses(401, 503))
def logout(claims: CurrentToken, auth: AuthDep) -> Response:
    """Revoke the bearer token used for this request (other sessions stay signed in)."""
    auth.sign_out(claims)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete(
    "/auth/account",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=responses(400, 401, 413, 422, 429, 503),
)
async def delete_account(
    body: AccountDelete,
    user: CurrentUser,
    state: StateDep,
    deps: AgentDepsDep,
    address: ClientAddress,
) -> Response:
    """Delete the account, with its password (its checks are throttled like sign-in): every
    long-term preference of every namespace (the shopper's and each recipient's), every
    thread, every price watch and alert and the alerts' webhook, and the account itself,
    which revokes all its tokens. A turn still running for the account cannot write
    afterwards (nor make a watch), and a later account with the same name starts empty (see
    `erase_account`)."""

    def delete() -> None:
        with _throttled(state, user, address):
            state.auth.check_password(user, body.password)
        erase_account(state.auth, deps, user)

    await run_in_threadpool(delete)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


def erase_account(auth: Authenticator, deps: AgentDeps, username: str) -> None:
    """Delete an account and everything stored for it, in an order that leaves nothing:

    1. the account stops working (tokens and sign-ins refused), so nothing new starts;
    2. each store erases the user in one transaction and moves the user to a new
       generation, so writes of work that began earlier (a running turn) are refused;
    3. the account row goes last.

    A failure part-way (503) leaves a name still being deleted: retrying the deletion is
    impossible without sign-in, so registering the name again finishes it first."""
    auth.begin_deletion(username)
    deps.preferences.erase(username)
    deps.sessions.erase(username)
    if deps.watches is not None:
        deps.watches.erase(username)
    auth.store.delete(username)


@contextmanager
def _throttled(state: ApiState, username: str, address: str) -> Iterator[None]:
    """A password check limited like sign-in: per address, and failures per (username,
    address), so a stolen token cannot be used to guess the password without limit."""
    try:
        state.sign_in.before_attempt(username, address)
    except RateLimited:
        state.metrics.rejected_requests.labels(reason="sign_in_attempts").inc()
        raise
    try:
        yield
    except InvalidCredentials:
        state.sign_in.failed(username, address)
        raise


@router.get("/me", responses=responses(401, 503))
def me(user: CurrentUser) -> UserPublic:
    """The account the bearer token belongs to."""
    return UserPublic(username=user)
