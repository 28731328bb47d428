"""Liveness and readiness (no authentication: for probes) and Prometheus metrics (for the
scraper only: METRICS_TOKEN, else loopback connections)."""

from __future__ import annotations

import hmac
import ipaddress

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from cartwise.api.deps import MetricsDep, SettingsDep, StateDep
from cartwise.api.metrics import CONTENT_TYPE_LATEST
from cartwise.api.openapi import responses
from cartwise.api.schemas import HealthPublic
from cartwise.errors import CartwiseError, NotFound
from cartwise.log import logger

router = APIRouter(tags=["health"])

# A key no real user can have (usernames cannot contain ":"), so the probe reads nothing real.
PROBE_USER = "readyz:probe"


@router.get("/healthz")
async def healthz() -> HealthPublic:
    """The process is up and serving. Runs on the event loop and touches no backend, so it
    answers at once even when every worker thread waits on a frozen store."""
    return HealthPublic(status="ok")


@router.get(
    "/readyz",
    response_model=HealthPublic,
    responses={503: {"model": HealthPublic, "description": "A backend does not answer"}},
)
def readyz(state: StateDep) -> JSONResponse:
    """Every backend answers: accounts, preference and session stores, the product index
    (whose product count is reported; an empty catalog serves, it just finds nothing).
    A failing check says only "unavailable": addresses and reasons go to the log."""
    checks: dict[str, str] = {}
    try:
        state.auth.store.ping()
        checks["accounts"] = "ok"
    except CartwiseError as exc:
        checks["accounts"] = _unavailable("accounts", exc)
    try:
        deps = state.provider.get()
        deps.preferences.list(PROBE_USER)
        checks["preferences"] = "ok"
        deps.sessions.exists(PROBE_USER, PROBE_USER)
        checks["sessions"] = "ok"
        checks["index"] = f"ok: {deps.recall.count()} products"
    except CartwiseError as exc:
        reason = _unavailable("stores", exc)
        for name in ("preferences", "sessions", "index"):
            checks.setdefault(name, reason)
    ready = all(value.startswith("ok") for value in checks.values())
    body = HealthPublic(status="ok" if ready else "unavailable", checks=checks)
    return JSONResponse(body.model_dump(), status_code=200 if ready else 503)


@router.get(
    "/metrics",
    response_class=Response,
    responses={
        200: {
            "description": "Prometheus text exposition format",
            "content": {CONTENT_TYPE_LATEST: {"schema": {"type": "string"}}},
        },
        **responses(404),
    },
)
def metrics(metrics: MetricsDep, settings: SettingsDep, request: Request) -> Response:
    """Prometheus text exposition of this instance's metrics, for the scraper only: with
    METRICS_TOKEN set, the request must carry it as a bearer token; without it, only a
    loopback connection is answered. Anyone else gets 404 (counters say how busy the
    service is and how it fails)."""
    if not _may_scrape(request, settings.metrics_token):
        raise NotFound("route", request.url.path)
    return Response(metrics.render(), media_type=CONTENT_TYPE_LATEST)


def _may_scrape(request: Request, token: str) -> bool:
    if token:
        given = request.headers.get("authorization", "")
        return hmac.compare_digest(given.encode(), f"Bearer {token}".encode())
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _unavailable(check: str, error: CartwiseError) -> str:
    logger.warning("readiness check %s failed: %s", check, error)
    return "unavailable"
