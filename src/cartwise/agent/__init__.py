"""The turn: a state graph (planner → profile → per-platform search → picker → reply →
curator) over the memory, recall and understanding floors below it. Each name is imported on
first use: the graph's nodes import the reader, recall and the reply's machinery, and
`cartwise.agent.deps` alone does not."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cartwise.faces import lazy_face

if TYPE_CHECKING:
    from cartwise.agent.deps import AgentDeps, create_deps
    from cartwise.agent.result import TurnResult
    from cartwise.agent.run import run_agent

__all__ = [
    "AgentDeps",
    "TurnResult",
    "create_deps",
    "run_agent",
]

__getattr__ = lazy_face(
    __name__,
    {
        "AgentDeps": "cartwise.agent.deps",
        "TurnResult": "cartwise.agent.result",
        "create_deps": "cartwise.agent.deps",
        "run_agent": "cartwise.agent.run",
    },
)
