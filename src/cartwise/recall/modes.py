"""How a search ranks: dense vectors, BM25, or their fusion (`RecallService.search`)."""

from __future__ import annotations

from typing import Literal

SearchMode = Literal["hybrid", "dense", "lexical"]
