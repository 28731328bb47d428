"""The act model's weights, as shipped: one file beside the training data, written by
`scripts/train_acts.py` and read once per process.

Two models share one n-gram vocabulary: the main one reads the message's sentence vector
(multilingual-e5-small, the project's default embedder) together with its character n-grams;
the surface one reads the n-grams alone and serves a process whose embedder is another
model (its vectors mean nothing to weights learned on e5's). The file records the digest of
the training data it was learned from, so a test can tell when it is stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from cartwise.embedding.base import Vector
from cartwise.understanding.acts.act import ACTS
from cartwise.understanding.acts.features import CharNgrams
from cartwise.understanding.acts.linear import Calibration, LinearModel

WEIGHTS_FILE = "data/acts_{model}.npz"


def weights_path(model: str) -> Path:
    """Where the weights for sentence vectors of `model` (`e5:small`) are shipped."""
    file = WEIGHTS_FILE.format(model=model.replace(":", "_"))
    return Path(str(resources.files("cartwise.understanding.acts").joinpath(file)))


@dataclass(frozen=True)
class ActModel:
    """One fitted linear model over [sentence vector × `sentence_scale`, n-grams] — without
    the sentence vector when `sentence_scale` is 0, without n-grams unless `reads_ngrams` —
    its calibration and its thresholds."""

    sentence_scale: float
    linear: LinearModel
    calibration: Calibration
    thresholds: npt.NDArray[np.float32]
    """Per act, the calibrated probability at which the act is taken."""
    reads_ngrams: bool = True

    @property
    def reads_sentences(self) -> bool:
        return self.sentence_scale > 0

    def probabilities(
        self,
        ngram_columns: npt.NDArray[np.intp],
        ngram_weights: npt.NDArray[np.float32],
        sentence: Vector | None = None,
    ) -> npt.NDArray[np.float64]:
        """Calibrated probability of each act (in `ACTS` order) for one message."""
        weights = self.linear.weights
        offset = 0
        logits = self.linear.bias.astype(np.float64)
        if self.reads_sentences:
            if sentence is None:
                raise ValueError("this act model reads a sentence vector")
            offset = len(sentence)
            logits = logits + self.sentence_scale * (sentence @ weights[:offset])
        if self.reads_ngrams:
            logits = logits + ngram_weights @ weights[offset + ngram_columns]
        return self.calibration.probabilities(logits)


@dataclass(frozen=True)
class ActWeights:
    """Everything the shipped file holds."""

    model: str
    """The embedder whose query vectors `sentence` was trained on (`e5:small`)."""
    digest: str
    """Digest of the training data file the weights were learned from."""
    ngrams: CharNgrams
    sentence: ActModel
    surface: ActModel

    def save(self, path: Path) -> None:
        arrays: dict[str, npt.NDArray[np.generic]] = {
            "model": np.array(self.model),
            "digest": np.array(self.digest),
            "acts": np.array([act.value for act in ACTS]),
            "vocabulary": np.array(self.ngrams.vocabulary),
            "idf": self.ngrams.idf,
        }
        for name, part in (("sentence", self.sentence), ("surface", self.surface)):
            arrays |= {
                f"{name}_scale": np.array(part.sentence_scale, np.float32),
                f"{name}_weights": part.linear.weights,
                f"{name}_bias": part.linear.bias,
                f"{name}_platt_scale": part.calibration.scale,
                f"{name}_platt_shift": part.calibration.shift,
                f"{name}_thresholds": part.thresholds,
                f"{name}_reads_ngrams": np.array(part.reads_ngrams),
            }
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: Path) -> ActWeights:
        with np.load(path, allow_pickle=False) as data:
            acts = [str(name) for name in data["acts"]]
            if acts != [act.value for act in ACTS]:
                raise ValueError(f"{path} was trained for the acts {acts}")

            def part(name: str) -> ActModel:
                return ActModel(
                    sentence_scale=float(data[f"{name}_scale"]),
                    linear=LinearModel(data[f"{name}_weights"], data[f"{name}_bias"]),
                    calibration=Calibration(
                        data[f"{name}_platt_scale"], data[f"{name}_platt_shift"]
                    ),
                    thresholds=data[f"{name}_thresholds"],
                    reads_ngrams=bool(data[f"{name}_reads_ngrams"]),
                )

            return cls(
                model=str(data["model"]),
                digest=str(data["digest"]),
                ngrams=CharNgrams([str(g) for g in data["vocabulary"]], data["idf"]),
                sentence=part("sentence"),
                surface=part("surface"),
            )
