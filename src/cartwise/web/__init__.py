"""The shopper's web page: plain HTML/CSS/ES modules served by the API (no build step).

`mount_web(app)` serves `static/index.html` at `/` and the modules under `/static/`.
"""

from __future__ import annotations

import os
from os import PathLike
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope

STATIC_DIR = Path(__file__).resolve().parent / "static"

# The page is tiny and changes with every release; revalidating costs one 304 per module and
# saves shoppers from a stale app.js talking to a newer API.
_NO_STALE = {"Cache-Control": "no-cache"}


class _RevalidatingStaticFiles(StaticFiles):
    """StaticFiles that asks browsers to revalidate instead of trusting a cached copy."""

    def file_response(
        self,
        full_path: PathLike[str] | str,
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers.update(_NO_STALE)
        return response


def mount_web(app: FastAPI) -> None:
    """Serve the web page at `/` and its assets at `/static`."""
    index = STATIC_DIR / "index.html"

    @app.get("/", include_in_schema=False)
    def web_index() -> FileResponse:
        return FileResponse(index, media_type="text/html", headers=_NO_STALE)

    app.mount("/static", _RevalidatingStaticFiles(directory=STATIC_DIR), name="static")


__all__ = ["STATIC_DIR", "mount_web"]
