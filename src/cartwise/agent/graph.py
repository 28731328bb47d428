"""One turn as a state graph (`cartwise.agent.workflow`; node bodies in `cartwise.agent.nodes`).

    planner ─► profile ─┬─► search(platform 1) ─┬─► picker ─► scope ─► reply ─► curator
       │                ├─► search(platform 2) ─┤                    ▲
       │                └─► ...  (Send, parallel)┘                    │
       └─ small talk ───────────────────────────────────────────────┘ (then END: no memory)

Small talk (a greeting, thanks, "that's all", a goodbye) goes straight to the reply and
ends there: nothing is searched and nothing is remembered. The profile is computed once; each parallel search gets it in its `Send` payload and sets
the `user_profile` ContextVar for its own item_search call. The reply streams before the
curator decides what to remember.
"""

from __future__ import annotations

from functools import lru_cache

from cartwise.agent.nodes.curator import curator_node
from cartwise.agent.nodes.picker import picker_node
from cartwise.agent.nodes.planner import planner_node
from cartwise.agent.nodes.profile import profile_node
from cartwise.agent.nodes.reply import reply_node
from cartwise.agent.nodes.scope import scope_node
from cartwise.agent.nodes.search import PICKER_NODE, SEARCH_NODE, fan_out, search_node
from cartwise.agent.state import RunContext, TurnState
from cartwise.agent.workflow import END, START, CompiledGraph, StateGraph

TurnGraph = CompiledGraph[TurnState, RunContext]


def after_planner(state: TurnState) -> str:
    return "reply" if state["plan"].intent == "chitchat" else "profile"


def after_reply(state: TurnState) -> str:
    return END if state["plan"].intent == "chitchat" else "curator"


def build_graph() -> TurnGraph:
    graph = StateGraph(TurnState, RunContext)
    graph.add_node("planner", planner_node)
    graph.add_node("profile", profile_node)
    # Its input is a `SearchTask` sent by `fan_out`, one per platform, not the turn state.
    graph.add_node(SEARCH_NODE, search_node)
    graph.add_node(PICKER_NODE, picker_node)
    graph.add_node("scope", scope_node)
    graph.add_node("reply", reply_node)
    graph.add_node("curator", curator_node)

    graph.add_edge(START, "planner")
    graph.add_conditional_edges("planner", after_planner, ["profile", "reply"])
    graph.add_conditional_edges("profile", fan_out, [SEARCH_NODE, PICKER_NODE])
    graph.add_edge(SEARCH_NODE, PICKER_NODE)
    graph.add_edge(PICKER_NODE, "scope")
    graph.add_edge("scope", "reply")
    graph.add_conditional_edges("reply", after_reply, ["curator", END])
    graph.add_edge("curator", END)
    return graph.compile()


@lru_cache(maxsize=1)
def turn_graph() -> TurnGraph:
    """The compiled graph, shared by every run (it holds no per-run state)."""
    return build_graph()
