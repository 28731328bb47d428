"""Export the domain classifier's anchor vectors for the default model (shipped in the
package so the first turn of a process does not embed 1,469 product-type names).

Run after the catalog taxonomy changes: `python scripts/export_domain_anchors.py`. A stale file
gives no wrong answer (its digest no longer matches), but the anchors are then embedded at a
process's first preference read: 36-38 s of one shopper's turn at load 4-6
(`tests/catalog/test_domain_classifier.py` fails until the file is re-exported)."""

from __future__ import annotations

import numpy as np

from cartwise.catalog.demo import DEMO_VECTORS_MODEL
from cartwise.catalog.domain_classifier import anchor_digest, anchor_names, shipped_vectors_path
from cartwise.embedding import create_embedder


def main() -> None:
    embedder = create_embedder(DEMO_VECTORS_MODEL)
    names, _ = anchor_names()
    vectors = embedder.embed_documents(names)
    scale = np.abs(vectors).max(axis=1) / 127.0
    quantized = np.round(vectors / scale[:, None]).astype(np.int8)
    path = shipped_vectors_path(embedder.name)
    np.savez_compressed(
        path, model=embedder.name, digest=anchor_digest(names), q=quantized, scale=scale
    )
    print(f"wrote {len(names)} anchor vectors to {path}")


if __name__ == "__main__":
    main()
