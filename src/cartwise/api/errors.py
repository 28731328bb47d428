"""The one place where errors become HTTP responses.

Every known failure maps to a 4xx or 503 with `{"detail": "<clear message>"}`; only a
genuine bug reaches the generic 500. `HTTPException` is raised only inside `cartwise.api`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from cartwise.api.accounts import InvalidCredentials, UsernameTaken
from cartwise.api.limits import RateLimited
from cartwise.api.passwords import ServerBusy
from cartwise.errors import (
    AccountErased,
    CartwiseError,
    ConfigurationError,
    InvalidInput,
    NotFound,
    QuotaExceeded,
    StoreUnavailable,
)
from cartwise.log import logger


def status_for(error: CartwiseError) -> int:
    """The HTTP status of a domain error (most specific class first)."""
    if isinstance(error, InvalidCredentials):
        return 401
    if isinstance(error, UsernameTaken | QuotaExceeded):
        return 409
    if isinstance(error, AccountErased):
        return 410
    if isinstance(error, RateLimited):
        return 429
    if isinstance(error, InvalidInput):
        return 422
    if isinstance(error, NotFound):
        return 404
    if isinstance(error, StoreUnavailable | ConfigurationError | ServerBusy):
        # The request was fine; something behind the server is not. 503 tells the client
        # to retry later instead of changing the request.
        return 503
    return 400


def describe_validation_errors(errors: Sequence[Any]) -> str:
    """Pydantic's error list as one readable sentence: `body.username: too short; ...`."""
    parts: list[str] = []
    for error in errors:
        location = ".".join(str(part) for part in error.get("loc", ()))
        message = str(error.get("msg", "invalid value"))
        if error.get("type") == "json_invalid":
            message = "request body is not valid JSON"
        parts.append(f"{location}: {message}" if location else message)
    return "; ".join(parts) or "invalid request"


def public_message(error: CartwiseError) -> str:
    """What a client may read about `error`: backend addresses, paths and the driver's own
    words stay in the log."""
    if isinstance(error, StoreUnavailable):
        return "a data store is unavailable; retry shortly"
    if isinstance(error, ConfigurationError):
        return "the server is misconfigured; the operator has been told in the log"
    return str(error)


async def _cartwise_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, CartwiseError)
    status = status_for(exc)
    if status >= 500:
        logger.warning("%s %s -> %d: %s", request.method, request.url.path, status, exc)
    headers: dict[str, str] = {}
    if status == 401:
        # RFC 6750: a 401 names the scheme the client should authenticate with.
        headers["WWW-Authenticate"] = "Bearer"
    if isinstance(exc, RateLimited | ServerBusy):
        headers["Retry-After"] = str(math.ceil(exc.retry_after))
    return JSONResponse({"detail": public_message(exc)}, status_code=status, headers=headers)


async def _unexpected_error(request: Request, exc: Exception) -> JSONResponse:
    """A bug: logged with its traceback, answered with a body that reveals nothing."""
    logger.error("%s %s -> 500", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"detail": "internal server error"}, status_code=500)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": e.get("type", "")}
        for e in exc.errors()
    ]
    return JSONResponse(
        {"detail": describe_validation_errors(errors), "errors": errors}, status_code=422
    )


def install_error_handlers(app: FastAPI) -> None:
    """Register the domain-error and request-validation handlers on `app`."""
    app.add_exception_handler(CartwiseError, _cartwise_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(Exception, _unexpected_error)
