"""A state graph of async nodes, run step by step: what the turn needs of LangGraph, and no more.

The turn ran on LangGraph's `StateGraph` before. Importing it cost about a second of every
one-shot `cartwise ask` (LangGraph's runner is a langchain-core `Runnable`, whose module
imports its tracers, which import LangSmith's run trees; `langgraph.runtime` imports the
LangGraph SDK's HTTP client), for seven nodes with one fan-out and no checkpoints,
interrupts or streamed state. This keeps the part of LangGraph's model the turn uses, with
LangGraph's semantics for it:

- The state is a `TypedDict`. A node is an async function of (a copy of the state, or its
  `Send` payload; a `Runtime` holding the run's read-only context) returning a partial update.
- A key annotated `Annotated[T, reducer]` is merged with `reducer(old, new)`, starting from
  `T()`; any other key is overwritten, and two nodes of one step writing it is an error.
- The nodes of one step run concurrently, each in its own copy of the caller's context
  variables (a variable a node sets does not reach the next). A step's updates are applied,
  in task order, once all of its nodes have finished; a node that fails cancels the rest
  of its step and its exception propagates as it is.
- After a step, each node that ran names the next step's nodes: fixed edges (`add_edge`) or
  a router (`add_conditional_edges`) called with the updated state, returning a node name,
  `END`, or a list of `Send`. A node named by several nodes of a step runs once; each
  `Send` runs its node once with its own payload.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Generic, TypeVar, cast, get_args, get_origin, get_type_hints

START = "__start__"
END = "__end__"

StateT = TypeVar("StateT", bound=Mapping[str, Any])
ContextT = TypeVar("ContextT")


@dataclass(frozen=True)
class Runtime(Generic[ContextT]):
    """What every node of a run gets besides its input: the run's read-only context."""

    context: ContextT


@dataclass(frozen=True)
class Send:
    """Run `node` in the next step with `arg` as its input instead of the state."""

    node: str
    arg: Any


Node = Callable[[Any, Runtime[Any]], Awaitable[Mapping[str, Any] | None]]
Router = Callable[[Any], str | Sequence[str | Send]]
Reducer = Callable[[Any, Any], Any]


@dataclass(frozen=True)
class _Channel:
    reducer: Reducer | None
    fresh: Callable[[], Any] | None
    """The empty value a reducer starts from (None: the first update is taken as it is)."""


def _channels(schema: type) -> dict[str, _Channel]:
    channels = {}
    for key, hint in get_type_hints(schema, include_extras=True).items():
        reducer = fresh = None
        if get_origin(hint) is Annotated:
            base, *metadata = get_args(hint)
            reducer = next((m for m in metadata if callable(m)), None)
            maker = get_origin(base) or base
            try:
                maker()
                fresh = maker
            except TypeError:
                fresh = None
        channels[key] = _Channel(reducer, fresh)
    return channels


class CompiledGraph(Generic[StateT, ContextT]):
    """A graph ready to run; it holds no per-run state, so one serves every run."""

    def __init__(
        self,
        channels: dict[str, _Channel],
        nodes: dict[str, Node],
        edges: dict[str, list[str]],
        routers: dict[str, tuple[Router, frozenset[str]]],
    ) -> None:
        self._channels = channels
        self._nodes = nodes
        self._edges = edges
        self._routers = routers

    async def ainvoke(self, state: StateT, *, context: ContextT) -> StateT:
        """Run from START until no node is left to run; the final state."""
        values: dict[str, Any] = {
            key: channel.fresh() for key, channel in self._channels.items() if channel.fresh
        }
        self._apply(values, [state])
        runtime = Runtime(context)
        tasks = self._next([START], values)
        while tasks:
            updates = await _run_step(
                [
                    self._nodes[node](dict(values) if arg is None else arg, runtime)
                    for node, arg in tasks
                ]
            )
            self._apply(values, updates)
            tasks = self._next(dict.fromkeys(node for node, _ in tasks), values)
        return cast(StateT, values)

    def _apply(self, values: dict[str, Any], updates: Iterable[Mapping[str, Any] | None]) -> None:
        written: set[str] = set()
        for update in updates:
            for key, value in (update or {}).items():
                channel = self._channels.get(key)
                if channel is None:
                    raise ValueError(f"a node wrote {key!r}, which the state does not have")
                if channel.reducer is not None:
                    values[key] = channel.reducer(values[key], value) if key in values else value
                    continue
                if key in written:
                    raise ValueError(
                        f"two nodes of one step wrote {key!r}; give it a reducer to merge them"
                    )
                written.add(key)
                values[key] = value

    def _next(self, ran: Iterable[str], values: dict[str, Any]) -> list[tuple[str, Any]]:
        """The next step's tasks: (node, its Send payload or None for the state)."""
        named: dict[str, None] = {}
        sent: list[tuple[str, Any]] = []
        for node in ran:
            for target in self._edges.get(node, []):
                named[target] = None
            if node in self._routers:
                router, targets = self._routers[node]
                routed = router(dict(values))
                for choice in [routed] if isinstance(routed, str) else routed:
                    target = choice.node if isinstance(choice, Send) else choice
                    if target not in targets:
                        raise ValueError(
                            f"{node!r} routed to {target!r}, not one of {sorted(targets)}"
                        )
                    if isinstance(choice, Send):
                        sent.append((choice.node, choice.arg))
                    else:
                        named[choice] = None
        named.pop(END, None)
        return [(node, None) for node in named] + sent


async def _run_step(
    calls: list[Awaitable[Mapping[str, Any] | None]],
) -> list[Mapping[str, Any] | None]:
    """Every call of a step at once, each a task (so in its own copy of the context); the
    first failure cancels the others and is raised as it is."""
    tasks = [asyncio.ensure_future(call) for call in calls]
    try:
        _, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
    except BaseException:
        for task in tasks:
            task.cancel()
        raise
    if pending:
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
    for task in tasks:
        if task.done() and not task.cancelled() and task.exception() is not None:
            raise cast(BaseException, task.exception())
    return [task.result() for task in tasks]


class StateGraph(Generic[StateT, ContextT]):
    """The topology: nodes and the edges between them, checked when compiled."""

    def __init__(self, state_schema: type[StateT], context_schema: type[ContextT]) -> None:
        self._channels = _channels(state_schema)
        self._nodes: dict[str, Node] = {}
        self._edges: dict[str, list[str]] = {}
        self._routers: dict[str, tuple[Router, frozenset[str]]] = {}

    def add_node(self, name: str, node: Node) -> None:
        if name in self._nodes or name in (START, END):
            raise ValueError(f"node {name!r} is already in the graph")
        if not inspect.iscoroutinefunction(node):
            raise ValueError(f"node {name!r} must be an async function")
        self._nodes[name] = node

    def add_edge(self, source: str, target: str) -> None:
        self._edges.setdefault(source, []).append(target)

    def add_conditional_edges(self, source: str, router: Router, targets: Sequence[str]) -> None:
        """`router` picks among `targets` (node names or END) after `source` ran."""
        if source in self._routers:
            raise ValueError(f"{source!r} already has a router")
        self._routers[source] = (router, frozenset(targets))

    def compile(self) -> CompiledGraph[StateT, ContextT]:
        known = {*self._nodes, START, END}
        for source, targets in [
            *self._edges.items(),
            *((source, list(targets)) for source, (_, targets) in self._routers.items()),
        ]:
            for name in (source, *targets):
                if name not in known:
                    raise ValueError(f"an edge names {name!r}, which is not a node of the graph")
        return CompiledGraph(
            self._channels,
            dict(self._nodes),
            {k: list(v) for k, v in self._edges.items()},
            dict(self._routers),
        )
