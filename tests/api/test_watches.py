"""Watches and alerts over HTTP: create on a listed offer, list, edit, cancel; alerts
listed and marked seen; an alert as the CUSTOM event that opens the next run; another
account's watch does not exist; bad input is 4xx."""

from __future__ import annotations

import time
from typing import Any

from ag_ui.core import EventType
from fastapi.testclient import TestClient

from cartwise.agent.deps import AgentDeps
from cartwise.api.main import create_app
from cartwise.memory.prices import Trigger
from cartwise.settings import Settings
from tests.api.conftest import PASSWORD, run_input, signup
from tests.api.sse import check_legal_order, of_type, parse_sse
from tests.factories import make_product


def index_offer(stores: AgentDeps) -> None:
    product = make_product("A1", platform="jd", title="Sony WH-1000XM5 headphones",
                           brand="Sony", price=2299.0)  # fmt: skip
    stores.recall.upsert([product], stores.embedder.embed_documents([product.embedding_text()]))


def test_a_watch_is_made_edited_fired_and_cancelled(client: TestClient, stores: AgentDeps) -> None:
    index_offer(stores)
    ann, bob = signup(client, "ann"), signup(client, "bob")
    made = client.post("/api/watches", headers=ann,
                       json={"platform": "jd", "item_id": "A1", "target": 1999, "currency": "cny"})  # fmt: skip
    assert made.status_code == 201, made.text
    watch = made.json()
    assert (watch["model"], watch["target"], watch["currency"]) == (
        "sony|model:wh1000xm5",
        1999,
        "CNY",
    )
    assert [w["id"] for w in client.get("/api/watches", headers=ann).json()] == [watch["id"]]
    assert client.get("/api/watches", headers=bob).json() == []
    assert (
        client.patch(f"/api/watches/{watch['id']}", headers=bob, json={"target": 1}).status_code
        == 404
    )
    assert client.delete(f"/api/watches/{watch['id']}", headers=bob).status_code == 404

    edited = client.patch(f"/api/watches/{watch['id']}", headers=ann, json={"target": 2099})
    assert edited.status_code == 200 and edited.json()["target"] == 2099
    assert stores.watches is not None
    stores.watches.fire([Trigger("sony|model:wh1000xm5", "taobao", "T9", 2050, "CNY", 2050, True)],
                        stores.settings.fx_to_base, now=time.time())  # fmt: skip
    alerts = client.get("/api/alerts?unseen=true", headers=ann).json()
    assert [(a["platform"], a["price"]) for a in alerts] == [("taobao", 2050)]
    assert client.get("/api/alerts", headers=bob).json() == []
    seen = client.post("/api/alerts/seen", headers=ann, json={"ids": [alerts[0]["id"]]})
    assert seen.json() == {"marked": 1}
    assert client.get("/api/alerts?unseen=true", headers=ann).json() == []
    assert client.get("/api/watches", headers=ann).json() == []  # fired: no longer live
    rearmed = client.patch(f"/api/watches/{watch['id']}", headers=ann, json={"rearm": True})
    assert rearmed.json()["status"] == "active"
    assert client.delete(f"/api/watches/{watch['id']}", headers=ann).status_code == 204
    closed = client.get("/api/watches?closed=true", headers=ann).json()
    assert [w["status"] for w in closed] == ["cancelled"]


def test_bad_watch_requests_are_4xx(client: TestClient, stores: AgentDeps) -> None:
    index_offer(stores)
    ann = signup(client, "ann")
    cases = [
        ({"platform": "jd", "item_id": "nope", "target": 10}, 404),
        ({"platform": "jd", "item_id": "A1"}, 422),  # a price watch without a target
        ({"platform": "jd", "item_id": "A1", "target": -5}, 422),
        ({"platform": "jd", "item_id": "A1", "target": 5, "currency": "XYZ"}, 422),
        ({"platform": "jd", "item_id": "A1", "kind": "soon"}, 422),
    ]
    for body, expected in cases:
        assert client.post("/api/watches", headers=ann, json=body).status_code == expected, body
    assert client.post("/api/watches", headers=ann,
                       json={"platform": "jd", "item_id": "A1", "kind": "stock"}).status_code == 201  # fmt: skip
    assert (
        client.patch("/api/watches/0123abc", headers=ann, json={"rearm": True}).status_code == 404
    )
    assert (
        client.put(
            "/api/watches-webhook", headers=ann, json={"url": "javascript:alert(1)"}
        ).status_code
        == 422
    )
    assert (
        client.put(
            "/api/watches-webhook", headers=ann, json={"url": "https://h.example/x"}
        ).status_code
        == 204
    )
    assert client.get("/api/watches").status_code == 401


def test_deleting_the_account_deletes_its_watches_alerts_and_webhook(
    client: TestClient, stores: AgentDeps
) -> None:
    index_offer(stores)
    ann, bob = signup(client, "ann"), signup(client, "bob")
    for headers in (ann, bob):
        made = client.post("/api/watches", headers=headers,
                           json={"platform": "jd", "item_id": "A1", "target": 2099})  # fmt: skip
        assert made.status_code == 201
    assert client.put("/api/watches-webhook", headers=ann,
                      json={"url": "https://h.example/ann"}).status_code == 204  # fmt: skip
    assert stores.watches is not None
    stores.watches.fire([Trigger("sony|model:wh1000xm5", "jd", "A1", 1999, "CNY", 1999, True)],
                        stores.settings.fx_to_base, now=time.time())  # fmt: skip
    gone = client.request("DELETE", "/api/auth/account", json={"password": PASSWORD}, headers=ann)
    assert gone.status_code == 204
    assert stores.watches.list("ann", include_closed=True) == []
    assert stores.watches.alerts("ann") == [] and stores.watches.webhook("ann") == ""
    assert len(stores.watches.alerts("bob")) == 1
    again = signup(client, "ann")
    assert client.get("/api/watches?closed=true", headers=again).json() == []
    assert client.get("/api/alerts", headers=again).json() == []


def test_an_alert_is_a_custom_event_at_the_start_of_the_next_run(api_settings: Settings) -> None:
    """Over the AG-UI stream, with the real turn: a watch made over the API, an ingest that
    meets it on another platform, then the shopper's next run carries the alert as a CUSTOM
    event straight after RUN_STARTED — and the run after it does not."""
    from tests.agent.test_price_turns import catalog, open_deps, reingest

    deps = open_deps(api_settings)
    try:
        with TestClient(create_app(api_settings, deps), client=("127.0.0.1", 50000)) as client:
            ann = signup(client, "ann")
            made = client.post("/api/watches", headers=ann,
                               json={"platform": "jd", "item_id": "J1", "target": 2000})  # fmt: skip
            assert made.status_code == 201, made.text
            cheaper = [p.model_copy(update={"price": 279.0, "price_base": 1986.48})
                       for p in catalog() if p.platform == "amazon"]  # fmt: skip
            assert reingest(deps, cheaper) == (1, 1)

            def run(message: str) -> list[Any]:
                response = client.post("/api/agent", json=run_input("t1", message), headers=ann)
                assert response.status_code == 200
                events = parse_sse(response.text)
                check_legal_order(events)
                assert events[-1].type == EventType.RUN_FINISHED
                return events

            first = run("谢谢")
            assert [e.type for e in first[:2]] == [EventType.RUN_STARTED, EventType.CUSTOM]
            custom = first[1]
            assert custom.name == "price_alerts"  # type: ignore[attr-defined]
            ((alert,),) = [custom.value]  # type: ignore[attr-defined]
            assert (alert["watch_id"], alert["platform"], alert["price"]) == (
                made.json()["id"],
                "amazon",
                279.0,
            )
            assert not [e for e in of_type(run("谢谢"), EventType.CUSTOM)
                        if e.name == "price_alerts"]  # type: ignore[attr-defined]  # fmt: skip
    finally:
        deps.close()
