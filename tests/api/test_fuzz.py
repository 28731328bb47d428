"""Whatever a client sends, the answer is a 2xx/4xx with a JSON detail — never a 500."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.conftest import run_input, signup

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    ["threadId", "runId", "messages", "polarity", "category", "domain", "slug", "keywords"]
)
BODIES = (
    JSON.map(json.dumps).map(str.encode)
    | st.binary(max_size=64)
    | st.dictionaries(FIELDS, JSON, max_size=6).map(json.dumps).map(str.encode)
    | st.fixed_dictionaries(
        {
            "polarity": st.sampled_from(["like", "dislike", "", "LIKE"]),
            "category": st.sampled_from(["material", "brand", "vibe"]),
            "slug": st.text(max_size=12),
            "domain": st.text(max_size=8),
            "keywords": st.lists(st.text(max_size=8), max_size=30),
        }
    )
    .map(json.dumps)
    .map(str.encode)
    | st.builds(
        lambda content: json.dumps(run_input("t1", "x") | {"messages": [content]}).encode(),
        st.dictionaries(st.sampled_from(["id", "role", "content"]), JSON, max_size=3),
    )
)
ROUTES = st.sampled_from(
    [
        ("POST", "/api/agent"),
        ("POST", "/api/memory"),
        ("PATCH", "/api/memory/dislike:material::plastic"),
        ("POST", "/api/auth/register"),
        ("POST", "/api/auth/token"),
    ]
)


def test_no_request_body_makes_a_500(client: TestClient) -> None:
    headers = {**signup(client, "alice"), "Content-Type": "application/json"}
    client.post(
        "/api/memory",
        json={"polarity": "dislike", "category": "material", "slug": "plastic"},
        headers=headers,
    )

    @settings(
        max_examples=120,
        deadline=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(route=ROUTES, body=BODIES)
    def check(route: tuple[str, str], body: bytes) -> None:
        method, path = route
        response = client.request(method, path, content=body, headers=headers)
        assert response.status_code < 500, (method, path, body, response.text)
        if response.status_code >= 400:
            detail = response.json()["detail"]
            assert isinstance(detail, str) and detail

    check()
