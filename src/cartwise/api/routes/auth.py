"""Accounts: register, sign in (OAuth2 password flow), who am I."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, status
from fastapi.security import OAuth2PasswordRequestForm

from cartwise.api.auth import issue_token
from cartwise.api.deps import AccountsDep, CurrentUser, StateDep
from cartwise.api.limits import RateLimited
from cartwise.api.schemas import TokenPublic, UserCreate, UserPublic

router = APIRouter(prefix="/api", tags=["auth"])


@router.post("/auth/register", status_code=status.HTTP_201_CREATED)
def register(body: UserCreate, accounts: AccountsDep) -> UserPublic:
    """Create an account; 409 when the username is taken."""
    accounts.register(body.username, body.password)
    return UserPublic(username=body.username)


@router.post("/auth/token")
def token(
    form: Annotated[OAuth2PasswordRequestForm, Depends()],
    accounts: AccountsDep,
    state: StateDep,
) -> TokenPublic:
    """Exchange username and password for a bearer token; 401 on bad credentials, 429 after
    too many attempts for one username in a minute."""
    settings = state.settings
    try:
        state.login_limiter.acquire(form.username)
    except RateLimited:
        state.metrics.rejected_requests.labels(reason="sign_in_attempts").inc()
        raise
    accounts.authenticate(form.username, form.password)
    minutes = settings.auth_token_minutes
    return TokenPublic(
        access_token=issue_token(form.username, secret=settings.auth_secret, minutes=minutes),
        expires_in=minutes * 60,
    )


@router.get("/me")
def me(user: CurrentUser) -> UserPublic:
    """The account the bearer token belongs to."""
    return UserPublic(username=user)
