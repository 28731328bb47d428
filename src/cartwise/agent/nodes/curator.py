"""curator node: decide what to remember (after the reply is out), validate all of it, then
write it.

Order matters for "nothing half-written": the curator's output, every supersede key and the
final session patch are validated first; only then do the writes start. Each long-term entry
is one atomic upsert together with the keys it supersedes; the session patch (curator patch
+ the turn's rejected options + resolved slot questions) is one atomic patch.

Whose and how long: each entry is written into its recipient's namespace (a dislike of
mum's never becomes the shopper's own). Whatever the engine returns, a preference the
planner scoped to this session or this request never reaches long-term memory, and a
this-request one ("anything but Xiaomi") does not even outlive the turn as a session
constraint: it only shaped this turn's picks.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from cartwise.agent.context import rejected_options
from cartwise.agent.deps import AgentDeps
from cartwise.agent.dialogue import dialogue_patch
from cartwise.agent.state import MemoryUpdate, RunContext, TurnState
from cartwise.agent.turn_memory import merged, retracted_slugs, turn_memory
from cartwise.agent.workflow import Runtime
from cartwise.errors import InvalidInput
from cartwise.log import logger, redact
from cartwise.memory.session_state import ChatMessage, SessionPatch
from cartwise.memory.store import SELF, PreferenceEntry, qualify_key
from cartwise.understanding.base import CuratorOutput, CuratorTurn
from cartwise.understanding.budgets import without_unusable_budget
from cartwise.understanding.questions import answered_by_slots
from cartwise.understanding.reading import Reading


@dataclass
class MemoryWrites:
    """Validated writes for one turn, ready to apply."""

    upserts: list[tuple[PreferenceEntry, list[str]]] = field(default_factory=list)
    """Each entry with the existing keys it supersedes (written in one atomic step)."""
    supersede_only: dict[str, list[str]] = field(default_factory=dict)
    """Recipient → keys of that namespace retired without a replacement (a retraction)."""
    session_patch: SessionPatch = field(default_factory=SessionPatch)
    read: list[PreferenceEntry] = field(default_factory=list)
    """The slice of memory the turn read (reported back after the writes)."""


def _check_key(key: str) -> tuple[str, str]:
    """Validate a dedup_key by rebuilding the entry it names; returns (category, slug)."""
    polarity, category, domain, slug = PreferenceEntry.parse_key(key)
    entry = PreferenceEntry.model_validate(
        {"polarity": polarity, "category": category, "domain": domain, "slug": slug}
    )
    return entry.category.value, entry.slug


def _short_lived(plan: Reading) -> tuple[set[tuple[str, str, str]], set[str]]:
    """What this message scoped to less than long-term: (recipient, category, slug) of
    session and request preferences with no long-term statement of the same fact, and the
    `category:slug` keys of the request-only ones."""
    lasting = {
        (s.recipient, s.category.value, s.slug) for s in plan.stated if s.scope == "long_term"
    }
    brief = {(s.recipient, s.category.value, s.slug) for s in plan.stated if s.scope != "long_term"}
    request_only = {
        f"{s.category.value}:{s.slug}"
        for s in plan.stated
        if s.scope == "request" and (s.recipient, s.category.value, s.slug) not in lasting
    }
    return brief - lasting, request_only


def plan_writes(output: CuratorOutput, state: TurnState, question: str) -> MemoryWrites:
    """Validate the curator's output and assemble the turn's writes (pure, no store).
    Raises InvalidInput (InvalidPreference, ValidationError wrapped) when anything is off."""
    try:
        # Re-validate from plain data: an engine may hand back model_construct()ed objects.
        output = CuratorOutput.model_validate(
            output.model_dump(exclude_computed_fields=True, warnings=False)
        )
    except ValueError as exc:
        raise InvalidInput(f"curator output does not validate: {exc}") from exc
    plan = state["plan"]
    short_lived, request_only = _short_lived(plan)
    # The engine's top-level writes are the shopper's own namespace (an entry may still name
    # its recipient); each RecipientMemory is one recipient's namespace, whatever its entries
    # say.
    namespaces = [
        (SELF, list(output.long_term), output.supersede),
        *(
            (
                memory.recipient,
                [e.model_copy(update={"recipient": memory.recipient}) for e in memory.long_term],
                memory.supersede,
            )
            for memory in output.recipients
        ),
    ]
    writes = MemoryWrites()
    for recipient, entries, supersede in namespaces:
        targets = {key: _check_key(key) for key in supersede}
        claimed: set[str] = set()
        for entry in entries:
            if (entry.recipient, entry.category.value, entry.slug) in short_lived:
                logger.info("not storing a session/request-scoped preference long-term")
                continue
            same_fact = [k for k, f in targets.items() if f == (entry.category.value, entry.slug)]
            # Superseding the key being written would delete the very entry this turn stores;
            # keys of another namespace are not this entry's to retire.
            if entry.recipient == recipient:
                claimed.update(same_fact)
                writes.upserts.append((entry, [k for k in same_fact if k != entry.dedup_key]))
            else:
                writes.upserts.append((entry, []))
        unclaimed = [k for k in targets if k not in claimed]
        if unclaimed:
            writes.supersede_only.setdefault(recipient, []).extend(unclaimed)

    session = state["session"]
    patch = output.session_patch
    # A budget that cannot be one (-500, 10^32) is never kept, whoever proposed it.
    slots_patch, _ = without_unusable_budget(patch.slots_patch)
    slots = state.get("slots", {})
    for name, value in slots.items():
        if session.slots.get(name) != value and name not in slots_patch:
            slots_patch[name] = value
    for name in session.slots if "slots" in state else ():
        # Dropped by a new product type (the old search's shoe size).
        if name not in slots and name not in slots_patch:
            slots_patch[name] = ""
    filled = {**session.slots, **{k: v for k, v in slots_patch.items() if v}}
    resolved = [
        *patch.resolved_questions,
        *answered_by_slots(session.open_questions, filled),
        *state.get("answered_questions", []),
    ]
    asked = [*patch.new_open_questions, *([question] if question else [])]
    try:
        writes.session_patch = SessionPatch.model_validate(
            {
                **patch.model_dump(exclude_computed_fields=True),
                "slots_patch": slots_patch,
                "constraints": [
                    c.model_dump(exclude_computed_fields=True)
                    for c in patch.constraints
                    if c.key not in request_only
                ],
                "resolved_questions": list(dict.fromkeys(resolved)),
                # Whom this thread buys for, carried to the next turn (the planner reads it).
                "recipient": state["plan"].recipient,
                "new_open_questions": list(dict.fromkeys(asked)),
                "rejected_options": [
                    r.model_dump()
                    for r in [*patch.rejected_options, *(rejected_options.get() or [])]
                ],
                **dialogue_patch(state),
            }
        )
    except ValueError as exc:
        raise InvalidInput(f"session patch does not validate: {exc}") from exc
    return writes


def apply_writes(deps: AgentDeps, state: TurnState, writes: MemoryWrites) -> MemoryUpdate:
    user, thread = state["user"], state["thread"]
    # What the writes retire, read key by key before they run (not the whole memory).
    retiring = [
        *(
            (e.recipient, k)
            for e, supersede in writes.upserts
            for k in [*supersede, e.opposite_key]
        ),
        *((whose, k) for whose, keys in writes.supersede_only.items() for k in keys),
    ]
    before: dict[str, PreferenceEntry] = {}
    for whose, key in dict.fromkeys(retiring):
        if (found := deps.preferences.get(user, key, recipient=whose)) is not None:
            before[found.qualified_key] = found
    added: list[PreferenceEntry] = []
    retired = [qualify_key(whose, key) for whose, key in retiring]
    for entry, supersede in writes.upserts:
        added.append(deps.preferences.upsert(user, entry, supersede=supersede))
    for whose, keys in writes.supersede_only.items():
        deps.preferences.supersede(user, keys, recipient=whose)
    session = deps.sessions.patch(user, thread, writes.session_patch)
    deps.sessions.append_messages(
        user,
        thread,
        [
            ChatMessage(role="user", content=state["message"]),
            ChatMessage(role="assistant", content=state.get("reply", "")),
        ],
    )
    added_keys = {e.qualified_key for e in added}
    superseded = [before[k] for k in dict.fromkeys(retired) if k in before and k not in added_keys]
    gone = {e.qualified_key for e in superseded}
    return MemoryUpdate(
        added=added,
        superseded=superseded,
        # The turn's slice as it stands after the writes, not every stored entry: the
        # whole memory is GET /api/memory (10,000 entries were 3.5 MB in every snapshot).
        long_term=[e for e in merged(added, writes.read) if e.qualified_key not in gone],
        session=session,
    )


def curate_and_plan(deps: AgentDeps, state: TurnState) -> MemoryWrites:
    question = state.get("question", "")
    plan = state["plan"]
    # The turn's slice of every namespace, with the entries of every slug this turn states
    # or takes back (what a new statement may supersede), from the store's term index.
    stated = [s.slug for s in plan.stated] + retracted_slugs(plan.retracted)
    memory = merged(state["memory"], turn_memory(deps.preferences, state["user"], "", slugs=stated))
    recipients = {s.recipient for s in plan.stated} | {plan.recipient}
    turn = CuratorTurn(
        user_message=state["message"],
        reading=plan,
        session=state["session"],
        memory=[e for e in memory if e.recipient == SELF],
        recipient_memory={
            r: [e for e in memory if e.recipient == r] for r in sorted(recipients - {SELF})
        },
        asked_questions=[question] if question else [],
        source_turn=state["source_turn"],
    )
    try:
        writes = plan_writes(deps.engine.curate(turn), state, question)
    except InvalidInput as exc:
        # Rejected whole: no long-term write from this turn; the mechanical facts (rejected
        # options, the question asked, filled slots) are still kept.
        detail = redact(str(exc), allowed=deps.settings.log_personal_data)
        logger.warning("curator output rejected, long-term memory unchanged: %s", detail)
        writes = plan_writes(CuratorOutput(), state, question)
    writes.read = memory
    return writes


async def curator_node(state: TurnState, runtime: Runtime[RunContext]) -> TurnState:
    deps, sink = runtime.context.deps, runtime.context.sink
    timings: dict[str, float] = {}
    async with sink.step("remembering", timings):
        writes = await asyncio.to_thread(curate_and_plan, deps, state)
        update = await asyncio.to_thread(apply_writes, deps, state, writes)
        await sink.custom(
            "memory_updated",
            {
                "added": [e.model_dump(mode="json") for e in update.added],
                "superseded": [e.model_dump(mode="json") for e in update.superseded],
                "session": update.session.model_dump(mode="json"),
            },
        )
    return {"memory_update": update, "timings": timings}
