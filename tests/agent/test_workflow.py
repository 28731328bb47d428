"""The state-graph runner the turn runs on: reducers merge what parallel nodes write, other
keys are overwritten once per step, each node runs in its own copy of the context, routers
pick among their named targets, a failure cancels the rest of its step. And the turn graph
is built without importing LangGraph, LangChain or LangSmith."""

from __future__ import annotations

import asyncio
import operator
import subprocess
import sys
from contextvars import ContextVar
from typing import Annotated, TypedDict

import pytest

from cartwise.agent.workflow import END, START, Runtime, Send, StateGraph


class State(TypedDict, total=False):
    seen: Annotated[list[str], operator.add]
    note: str
    steps: int


probe: ContextVar[str] = ContextVar("probe", default="")


def fan_out_graph(reader_delays: list[float]) -> StateGraph[State, str]:
    """start → two `reader`s sent in parallel (each waits its delay) → `after` → END."""

    async def start(state: State, runtime: Runtime[str]) -> State:
        probe.set("set in node")
        return {"note": runtime.context}

    async def reader(delay: float, runtime: Runtime[str]) -> State:
        await asyncio.sleep(delay)
        return {"seen": [f"{delay}:{probe.get()}"]}

    async def after(state: State, runtime: Runtime[str]) -> State:
        return {"steps": len(state.get("seen", []))}

    graph: StateGraph[State, str] = StateGraph(State, str)
    graph.add_node("start", start)
    graph.add_node("reader", reader)
    graph.add_node("after", after)
    graph.add_edge(START, "start")
    graph.add_conditional_edges(
        "start", lambda s: [Send("reader", delay) for delay in reader_delays], ["reader"]
    )
    graph.add_edge("reader", "after")
    graph.add_edge("after", END)
    return graph


async def test_parallel_updates_are_merged_in_send_order_and_the_next_node_runs_once() -> None:
    # The first reader finishes last: the merge follows the sends, not the finishing order.
    final = await fan_out_graph([0.05, 0.0]).compile().ainvoke({}, context="ctx")
    assert final["seen"] == ["0.05:", "0.0:"]
    assert final["steps"] == 2
    assert final["note"] == "ctx"


async def test_a_var_set_in_one_node_does_not_reach_the_next() -> None:
    """Why the turn's profile travels in the Send payload: each node runs in its own copy of
    the context."""
    final = await fan_out_graph([0.0, 0.0]).compile().ainvoke({}, context="")
    assert all(seen.endswith(":") for seen in final["seen"])
    assert probe.get() == ""


async def test_a_reducer_key_starts_empty_and_the_input_passes_through_it() -> None:
    async def noop(state: State, runtime: Runtime[None]) -> None:
        return None

    graph: StateGraph[State, None] = StateGraph(State, type(None))
    graph.add_node("noop", noop)
    graph.add_edge(START, "noop")
    compiled = graph.compile()
    assert await compiled.ainvoke({}, context=None) == {"seen": []}
    assert (await compiled.ainvoke({"seen": ["x"]}, context=None))["seen"] == ["x"]


async def test_two_nodes_of_one_step_writing_a_plain_key_is_an_error() -> None:
    async def writer(value: str, runtime: Runtime[None]) -> State:
        return {"note": value}

    graph: StateGraph[State, None] = StateGraph(State, type(None))
    graph.add_node("writer", writer)
    graph.add_conditional_edges(
        START, lambda s: [Send("writer", "a"), Send("writer", "b")], ["writer"]
    )
    with pytest.raises(ValueError, match="'note'"):
        await graph.compile().ainvoke({}, context=None)


async def test_a_router_may_only_pick_a_target_it_named() -> None:
    async def node(state: State, runtime: Runtime[None]) -> State:
        return {"steps": 1}

    graph: StateGraph[State, None] = StateGraph(State, type(None))
    graph.add_node("a", node)
    graph.add_node("b", node)
    graph.add_edge(START, "a")
    graph.add_conditional_edges("a", lambda s: "b", [END])
    with pytest.raises(ValueError, match="'b'"):
        await graph.compile().ainvoke({}, context=None)


async def test_a_router_to_end_ends_the_run() -> None:
    ran: list[str] = []

    async def node(state: State, runtime: Runtime[None]) -> State:
        ran.append("a")
        return {"steps": state.get("steps", 0) + 1}

    graph: StateGraph[State, None] = StateGraph(State, type(None))
    graph.add_node("a", node)
    graph.add_edge(START, "a")
    graph.add_conditional_edges("a", lambda s: END if s["steps"] >= 3 else "a", ["a", END])
    assert (await graph.compile().ainvoke({}, context=None))["steps"] == 3
    assert ran == ["a", "a", "a"]


async def test_a_failing_node_cancels_the_rest_of_its_step_and_its_error_propagates() -> None:
    cancelled = asyncio.Event()

    async def node(delay: float, runtime: Runtime[None]) -> State:
        if delay == 0:
            raise LookupError("store down")
        try:
            await asyncio.sleep(delay)
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return {"steps": 1}

    graph: StateGraph[State, None] = StateGraph(State, type(None))
    graph.add_node("node", node)
    graph.add_conditional_edges(START, lambda s: [Send("node", 10.0), Send("node", 0)], ["node"])
    with pytest.raises(LookupError, match="store down"):
        await graph.compile().ainvoke({}, context=None)
    assert cancelled.is_set()


def test_a_graph_is_checked_when_compiled() -> None:
    async def node(state: State, runtime: Runtime[None]) -> None:
        return None

    graph: StateGraph[State, None] = StateGraph(State, type(None))
    graph.add_node("a", node)
    with pytest.raises(ValueError, match="already"):
        graph.add_node("a", node)
    graph.add_edge("a", "missing")
    with pytest.raises(ValueError, match="'missing'"):
        graph.compile()


def test_a_node_that_writes_a_key_the_state_lacks_is_an_error() -> None:
    async def node(state: State, runtime: Runtime[None]) -> dict[str, int]:
        return {"typo": 1}

    graph: StateGraph[State, None] = StateGraph(State, type(None))
    graph.add_node("a", node)
    graph.add_edge(START, "a")
    with pytest.raises(ValueError, match="'typo'"):
        asyncio.run(graph.compile().ainvoke({}, context=None))


@pytest.mark.slow  # a fresh interpreter importing the turn: 4 s at load 5
def test_the_turn_graph_imports_no_langgraph_langchain_or_langsmith() -> None:
    """Importing them cost about a second of every one-shot `cartwise ask`."""
    code = (
        "import sys\n"
        "from cartwise.agent.graph import turn_graph\n"
        "import cartwise.agent.run, cartwise.agent.deps\n"
        "turn_graph()\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'langgraph', 'langchain_core', 'langsmith', 'langgraph_sdk'}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
