"""Ship the default model's vectors for the demo catalog, so a first start needs no embedding.

    .venv/bin/python scripts/export_demo_vectors.py [--home CARTWISE_HOME]

Embedding the 17,000 demo texts with e5:small takes an hour on a busy small machine; with the
shipped vectors `cartwise ingest --demo` (and the first `make run`) seeds the embedding
cache and embeds nothing. Vectors are keyed like the cache (sha256 of model and text), so a
change to the catalog or to `Product.embedding_text` simply misses and is embedded fresh.
Stored as int8 with one scale per row (cosine to the float vectors > 0.999) to stay small.
Run it after `make demo-catalog`; `--home` reuses an existing embedding cache.
"""

from __future__ import annotations

import argparse
import io
from pathlib import Path

import numpy as np

from cartwise.catalog.demo import DEMO_VECTORS_MODEL, demo_catalog_path, demo_vectors_path
from cartwise.catalog.ingest import ReaderOptions, read_catalog
from cartwise.catalog.product import Product
from cartwise.embedding import create_embedder
from cartwise.embedding.cache import CachedEmbedder, cache_path
from cartwise.vocabulary import fx_to_base


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--home", type=Path, default=Path(".cartwise"))
    args = parser.parse_args()
    options = ReaderOptions(fx_to_base=fx_to_base())
    products = [
        p for p in read_catalog(demo_catalog_path(), "jsonl", options) if isinstance(p, Product)
    ]
    texts = list(dict.fromkeys(p.embedding_text() for p in products))
    cached = CachedEmbedder(create_embedder(DEMO_VECTORS_MODEL), cache_path(args.home))
    vectors = cached.embed_documents(texts)
    keys = np.frombuffer(b"".join(bytes.fromhex(cached.key(t)) for t in texts), dtype=np.uint8)
    scale = np.abs(vectors).max(axis=1) / 127.0
    quantized = np.round(vectors / scale[:, None]).astype(np.int8)
    buffer = io.BytesIO()
    np.savez_compressed(
        buffer,
        model=np.array(DEMO_VECTORS_MODEL),
        keys=keys.reshape(len(texts), 32),
        q=quantized,
        scale=scale.astype(np.float32),
    )
    demo_vectors_path().write_bytes(buffer.getvalue())
    print(f"wrote {len(texts)} vectors ({len(buffer.getvalue()) / 1024:.0f} KiB)")


if __name__ == "__main__":
    main()
