"""Train the dialogue-act classifier from its data file and write the shipped weights.

Run after editing `src/cartwise/understanding/acts/data/acts_train.jsonl`:
`python scripts/train_acts.py`. The weights record the data file's digest; a test fails
while they are stale. Embeds every example with the default model (about a minute), then
fits the models (a few minutes on a busy two-core machine).
"""

from __future__ import annotations

import os

# Small matrix products on a loaded two-core machine ran 6 times slower with OpenBLAS's
# threads than without (measured); the setting is read when numpy loads.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from rich.console import Console
from rich.progress import Progress

from cartwise.embedding import create_embedder
from cartwise.understanding.acts.classifier import SENTENCE_MODEL
from cartwise.understanding.acts.model import weights_path
from cartwise.understanding.acts.training import (
    FOLDS,
    data_digest,
    load_examples,
    train_weights,
    training_data_path,
)


def main() -> None:
    path = training_data_path()
    examples = load_examples(path)
    embedder = create_embedder(SENTENCE_MODEL)
    with Progress(console=Console(stderr=True)) as bar:
        task = bar.add_task("embedding examples", total=len(examples))
        vectors = []
        for example in examples:
            vectors.append(embedder.embed_query(example.text))
            bar.advance(task)
        fits = bar.add_task("fitting", total=2 * (FOLDS + 1))
        weights = train_weights(
            examples,
            np.stack(vectors),
            model=embedder.name,
            digest=data_digest(path),
            progress=lambda: bar.advance(fits),
        )
    target = weights_path(embedder.name)
    weights.save(target)
    print(f"wrote act weights for {len(examples)} examples to {target}")


if __name__ == "__main__":
    main()
