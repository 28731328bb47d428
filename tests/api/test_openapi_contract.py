"""The published OpenAPI spec against the running app: schemathesis generates requests
from the spec (valid and invalid ones) and checks every answer — no 5xx, every status and
body as documented. In-process over ASGI, a bounded number of examples per operation."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

from cartwise.agent.deps import AgentDeps
from cartwise.api.main import create_app
from cartwise.settings import Settings
from tests.api.conftest import signup
from tests.doubles import ScriptedAgent

EXAMPLES_PER_OPERATION = 25

SIGNS_OUT = frozenset({"/api/auth/account", "/api/auth/logout"})
"""Deleting the account or revoking the token would sign every later example out (both
have their own tests in test_accounts.py and test_auth.py)."""

STRICTER_THAN_THE_SPEC = [positive_data_acceptance]
"""The server refuses (422) some requests a JSON schema cannot describe as invalid: text with
a lone surrogate or NUL anywhere, an empty or over-long message, a thread id over 128
characters. Everything else is checked: no 5xx, documented statuses, bodies, content types
and headers, and invalid requests refused."""


@pytest.fixture
def contract_app(api_settings: Settings, stores: AgentDeps) -> Iterator[FastAPI]:
    generous = api_settings.model_copy(
        update={
            "auth_attempts_per_minute": 100_000,
            "auth_failures_per_user_address": "100000/minute",
        }
    )
    app = create_app(generous, stores, runner=ScriptedAgent())
    with TestClient(app) as client:  # runs the lifespan for the whole test
        app.state.contract_headers = signup(client, "contract")
        yield app


@pytest.fixture
def auth_headers(contract_app: FastAPI) -> dict[str, str]:
    headers: dict[str, str] = contract_app.state.contract_headers
    return headers


@pytest.mark.slow
@pytest.mark.parametrize("stores", ["sqlite"], indirect=True)  # the contract, not a backend
@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_every_answer_matches_the_published_spec(
    contract_app: FastAPI, auth_headers: dict[str, str], mode: GenerationMode
) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", contract_app)
    failures: dict[str, str] = {}
    for result in schema.get_all_operations():
        operation = result.ok()
        if operation.path in SIGNS_OUT:
            continue

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
        )
        def check(case: schemathesis.Case) -> None:
            case.call_and_validate(
                headers=dict(auth_headers), excluded_checks=STRICTER_THAN_THE_SPEC
            )

        try:
            check()
        except Unsatisfiable:
            continue  # nothing to make invalid: the operation takes no input
        except Exception as exc:  # every operation's failure, not only the first
            failures[operation.label] = str(exc)[:2000]
    assert not failures, "\n\n".join(f"{label}:\n{text}" for label, text in failures.items())
