"""The turn: a LangGraph workflow (planner → profile → per-platform search → picker → reply →
curator) over the memory, recall and understanding floors below it."""

from cartwise.agent.deps import AgentDeps, create_deps
from cartwise.agent.result import TurnResult
from cartwise.agent.run import run_agent

__all__ = ["AgentDeps", "TurnResult", "create_deps", "run_agent"]
