"""The shopper's web page: plain HTML/CSS/ES modules served by the API (no build step).

`mount_web(app)` serves `static/index.html` at `/`, the modules under `/static/`, and the
product pictograms at `/images/<type>/<color>.svg` (drawn on request, nothing fetched) and the
domains' names at `/i18n/domains.json`.
"""

from __future__ import annotations

import os
from os import PathLike
from pathlib import Path

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope

from cartwise.catalog.images import product_svg
from cartwise.catalog.taxonomy import domains
from cartwise.errors import NotFound

STATIC_DIR = Path(__file__).resolve().parent / "static"

# The page is tiny and changes with every release; revalidating costs one 304 per module and
# saves shoppers from a stale app.js talking to a newer API.
_NO_STALE = {"Cache-Control": "no-cache"}
# A pictogram only changes with a release; a day of caching spares a page of cards 20 requests.
_IMAGE_CACHE = {"Cache-Control": "public, max-age=86400"}


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
    """Serve the web page at `/`, its assets at `/static` and pictograms at `/images`."""
    index = STATIC_DIR / "index.html"

    @app.get("/", include_in_schema=False)
    def web_index() -> FileResponse:
        return FileResponse(index, media_type="text/html", headers=_NO_STALE)

    domain_names = {d.domain.value: [d.zh, d.en] for d in domains()}

    @app.get("/i18n/domains.json", include_in_schema=False)
    def domain_names_route() -> JSONResponse:
        """Each product domain's Chinese and English name, for the page's labels."""
        return JSONResponse(domain_names, headers=_IMAGE_CACHE)

    @app.get("/images/{type_slug}/{color}.svg", include_in_schema=False)
    def product_image(type_slug: str, color: str) -> Response:
        try:
            svg = product_svg(type_slug, color)
        except NotFound as exc:
            raise HTTPException(status_code=404, detail=str(exc)) from None
        return Response(svg, media_type="image/svg+xml", headers=_IMAGE_CACHE)

    app.mount("/static", _RevalidatingStaticFiles(directory=STATIC_DIR), name="static")


__all__ = ["STATIC_DIR", "mount_web"]
