"""Embedders and the one registry function that turns a `kind:name` setting into one."""

from __future__ import annotations

from cartwise.embedding.base import Embedder
from cartwise.errors import ConfigurationError
from cartwise.settings import Settings

__all__ = ["Embedder", "create_embedder"]


def create_embedder(spec: str, settings: Settings | None = None) -> Embedder:
    """Resolve `e5:small`, `use:multilingual`, `openai:<model>` or `hashing:<dim>`."""
    kind, _, name = spec.partition(":")
    if kind == "e5":
        from cartwise.embedding.e5 import E5Embedder

        if settings is None:
            return E5Embedder()
        return E5Embedder(engines=settings.embedder_engines)
    if kind == "use":
        from cartwise.embedding.use import USEEmbedder

        return USEEmbedder()
    if kind == "hashing":
        from cartwise.embedding.hashing import HashingEmbedder

        return HashingEmbedder(int(name or 256))
    if kind == "openai":
        from cartwise.embedding.openai import OpenAIEmbedder

        if settings is None or not settings.embedding_base_url:
            raise ConfigurationError("openai embedder needs EMBEDDING_BASE_URL")
        return OpenAIEmbedder(
            name,
            base_url=settings.embedding_base_url,
            api_key=settings.embedding_api_key,
            input_type=settings.embedding_input_type,
        )
    raise ConfigurationError(
        f"unknown embedder {spec!r}; use e5:small, use:multilingual, openai:<model> or hashing:<dim>"
    )
