"""`mount_web`: the page at `/`, its modules under `/static/`, always revalidated."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient

from cartwise.web import STATIC_DIR, mount_web

MODULES = ["app.js", "api.js", "sse.js", "chat.js", "cards.js", "memory.js", "i18n.js", "dom.js"]


def client() -> TestClient:
    app = FastAPI()
    mount_web(app)
    return TestClient(app)


def test_index_is_served_at_root_and_loads_the_app_module() -> None:
    response = client().get("/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in response.text
    assert response.headers["cache-control"] == "no-cache"


def test_every_module_and_the_stylesheet_are_served_with_revalidation() -> None:
    web = client()
    for name in [*MODULES, "app.css"]:
        assert (STATIC_DIR / name).is_file(), name
        response = web.get(f"/static/{name}")
        assert response.status_code == 200, name
        assert response.headers["cache-control"] == "no-cache", name
    assert "javascript" in web.get("/static/app.js").headers["content-type"]


def test_a_missing_asset_is_a_404_not_the_page() -> None:
    assert client().get("/static/nope.js").status_code == 404


def test_product_pictograms_are_drawn_on_request() -> None:
    import xml.etree.ElementTree as ElementTree

    response = client().get("/images/bookshelf/brown.svg")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    root = ElementTree.fromstring(response.text)
    assert root.tag.endswith("svg")
    assert "Bookshelf" in response.text and "#8b5a3c" in response.text  # label and brown fill
    assert client().get("/images/raincoat/yellow.svg").text != response.text


def test_an_unknown_type_or_colour_is_a_404() -> None:
    assert client().get("/images/spaceship/brown.svg").status_code == 404
    assert client().get("/images/bookshelf/ultraviolet.svg").status_code == 404
