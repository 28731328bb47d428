"""Accounts: register, sign in (OAuth2 password flow), sign out, delete, who am I."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Response, status
from fastapi.security import OAuth2PasswordRequestForm
from starlette.concurrency import run_in_threadpool

from cartwise.api.accounts import InvalidCredentials
from cartwise.api.deps import (
    AgentDepsDep,
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
    `REGISTER_PER_HOUR` registrations from one address."""
    try:
        state.limits.hit(state.register_limit, "register", address)
    except RateLimited:
        state.metrics.rejected_requests.labels(reason="registrations").inc()
        raise
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
    try:
        state.sign_in.before_attempt(username, address)
    except RateLimited:
        state.metrics.rejected_requests.labels(reason="sign_in_attempts").inc()
        raise
    try:
        access_token = state.auth.sign_in(username, password)
    except InvalidCredentials:
        state.sign_in.failed(username, address)
        raise
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
    responses=responses(400, 401, 413, 422, 503),
)
async def delete_account(
    body: AccountDelete, user: CurrentUser, auth: AuthDep, deps: AgentDepsDep
) -> Response:
    """Delete the account, with its password: every long-term preference, every thread, and
    the account itself, which revokes all its tokens. A later account with the same name
    starts empty. Memory goes first, the account last, so a failure half-way (503) leaves an
    account that can retry the deletion rather than orphaned memory."""

    def delete() -> None:
        auth.check_password(user, body.password)
        deps.preferences.supersede(user, [entry.dedup_key for entry in deps.preferences.list(user)])
        for thread in deps.sessions.threads(user):
            deps.sessions.clear(user, thread)
        auth.store.delete(user)

    await run_in_threadpool(delete)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/me", responses=responses(401, 503))
def me(user: CurrentUser) -> UserPublic:
    """The account the bearer token belongs to."""
    return UserPublic(username=user)
