"""`OffloadEngine`: a long message is read by a worker process exactly as the engine reads it
here; a short one, or any read the worker cannot answer, is read here."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest

from cartwise.embedding.hashing import HashingEmbedder
from cartwise.memory.session_state import ChatMessage, SessionPrefState
from cartwise.understanding import offload as offload_module
from cartwise.understanding import worker_rules_engine
from cartwise.understanding.acts.classifier import SENTENCE_MODEL, ActClassifier
from cartwise.understanding.base import CuratorOutput, CuratorTurn, Engine, ReplyFacts
from cartwise.understanding.offload import OffloadEngine, SentenceVectors, sentence_texts
from cartwise.understanding.reading import Conversation, Reading
from cartwise.understanding.rules.engine import RulesEngine
from tests.doubles import CountingEmbedder
from tests.factories import make_preference

LONG = {
    "zh": (
        "我想给我妈买一副降噪耳机，不要塑料的，最好是金属外壳，颜色黑色或者白色，预算五百以内，"
        "她戴眼镜，所以耳罩要软一点，别太重，之前那副索尼的夹头。"
    )
    * 6,
    "en": (
        "I'm looking for running shoes for my dad, size 42, nothing from Nike, no leather, "
        "under $120, he runs on trails at weekends and his old pair was far too stiff. "
    )
    * 5,
}
START_S = 120
"""A spawned worker imports the reader and builds its tables: seconds on a loaded machine."""


class SentenceModelShaped(HashingEmbedder):
    """Hashing vectors under the act classifier's sentence model's name and width, so the
    classifier reads sentence vectors through it."""

    def __init__(self) -> None:
        super().__init__(384)

    @property
    def name(self) -> str:
        return SENTENCE_MODEL


def sentence_rules() -> RulesEngine:
    return RulesEngine(acts=ActClassifier(SentenceModelShaped()))


def conversation() -> Conversation:
    """A conversation with something in every part the reader looks at."""
    session = SessionPrefState(
        thread="t", category="electronics", slots={"budget_max": "800"}, recipient="mum"
    )
    return Conversation(
        session=session,
        history=[
            ChatMessage(role="user", content="耳机"),
            ChatMessage(role="assistant", content="好"),
        ],
        memory=[
            make_preference("plastic"),
            make_preference("sony", polarity="like", category="brand", strength="soft"),
        ],
    )


@pytest.fixture(scope="module")
def offloaded() -> Iterator[tuple[OffloadEngine, CountingEmbedder]]:
    embedder = CountingEmbedder(SentenceModelShaped())
    engine = OffloadEngine(
        RulesEngine(acts=ActClassifier(embedder)),
        partial(worker_rules_engine, []),
        min_chars=300,
        vectors=SentenceVectors(embedder),
    )
    assert engine.wait_ready(START_S), "the worker did not build its reader"
    yield engine, embedder
    engine.close()


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_long_message_is_read_by_the_worker_as_the_engine_reads_it(
    offloaded: tuple[OffloadEngine, CountingEmbedder], language: str
) -> None:
    engine, embedder = offloaded
    message = LONG[language]
    assert len(message) > 300
    before = engine.stats.offloaded
    embedder.queries.clear()

    reading = engine.read(message, conversation())

    assert engine.stats.offloaded == before + 1
    assert engine.stats.failures == 0
    assert reading == sentence_rules().read(message, conversation())
    assert reading.language == language
    # The sentence vector was made here (the worker loads no model) and only that one.
    assert embedder.queries == list(sentence_texts(message))


def test_a_short_message_is_read_in_this_process(
    offloaded: tuple[OffloadEngine, CountingEmbedder],
) -> None:
    engine, _ = offloaded
    before = engine.stats.offloaded, engine.stats.in_process

    reading = engine.read("推荐头戴式耳机，不要塑料的", conversation())

    assert (engine.stats.offloaded, engine.stats.in_process) == before
    assert reading == sentence_rules().read("推荐头戴式耳机，不要塑料的", conversation())


def test_the_worker_reader_takes_its_sentence_vector_from_the_message_only() -> None:
    """In the worker, the act classifier reads the vector sent with the message and has no
    model to make one: a read sent without it fails (and is then read here)."""
    message = LONG["en"]
    offload_module._start_worker(partial(worker_rules_engine, []), (SENTENCE_MODEL, 384))
    try:
        with pytest.raises(LookupError):
            offload_module._read_in_worker(message, conversation(), {})
        model = SentenceModelShaped()
        vectors = {text: model.embed_query(text) for text in sentence_texts(message)}
        reading = offload_module._read_in_worker(message, conversation(), vectors)
    finally:
        offload_module._worker = None
    assert reading == sentence_rules().read(message, conversation())


class WorkerFault:
    """A worker engine whose reads die with the process or never return (its own warm-up
    read passes, so the worker becomes ready)."""

    def __init__(self, fault: str) -> None:
        self._fault = fault

    @property
    def name(self) -> str:
        return "fault"

    def read(self, message: str, conversation: Conversation) -> Reading:
        if message == offload_module.WARM_UP_MESSAGE:
            return Reading()
        if self._fault == "die":
            os._exit(3)
        time.sleep(600)
        raise AssertionError("unreachable")

    def curate(self, turn: CuratorTurn) -> CuratorOutput:
        raise NotImplementedError

    def write_reply(self, facts: ReplyFacts) -> str:
        raise NotImplementedError


def fault_build(fault: str, embedder: object) -> Engine:
    return WorkerFault(fault)


# Slow: each starts worker processes again after a failure and waits out the read timeout.
@pytest.mark.slow
@pytest.mark.parametrize("fault", ["die", "hang"])
def test_a_worker_that_dies_or_hangs_costs_no_turn_and_is_logged_once(
    fault: str, caplog: pytest.LogCaptureFixture
) -> None:
    engine = OffloadEngine(
        sentence_rules(), partial(fault_build, fault), min_chars=300, timeout_s=1.0
    )
    try:
        assert engine.wait_ready(START_S)
        message = LONG["zh"]
        with caplog.at_level(logging.WARNING, logger="cartwise"):
            first = engine.read(message, conversation())
            # The pool is started again in the background; a second read in the meantime, or
            # by the new worker that fails the same way, is read here as well.
            assert engine.wait_ready(START_S)
            second = engine.read(message, conversation())
    finally:
        engine.close()

    expected = sentence_rules().read(message, conversation())
    assert first == expected and second == expected
    assert engine.stats.offloaded == 0
    assert engine.stats.in_process == 2
    assert engine.stats.failures == 2
    assert engine.stats.restarts == 2
    warnings = [r for r in caplog.records if "read in-process" in r.getMessage()]
    assert len(warnings) == 1
    assert "降噪" not in caplog.text


def test_a_long_message_before_the_worker_is_ready_is_read_here() -> None:
    """A turn never waits for the worker to start (this one would hang every read)."""
    engine = OffloadEngine(
        sentence_rules(), partial(fault_build, "hang"), min_chars=300, timeout_s=1.0
    )
    try:
        reading = engine.read(LONG["en"], conversation())
    finally:
        engine.close()
    assert reading == sentence_rules().read(LONG["en"], conversation())
    assert engine.stats.in_process == 1 and engine.stats.offloaded == 0


# Slow: closing waits out a hung read's grace before it stops the worker.
@pytest.mark.slow
def test_long_messages_past_the_workers_queue_are_read_here_and_close_stops_a_hung_read() -> None:
    """A flood of long messages never waits behind a queue longer than the timeout allows
    for: past `QUEUED_PER_WORKER` waiting reads, the next is read here. Closing does not wait
    for a read that never ends."""
    engine = OffloadEngine(
        sentence_rules(), partial(fault_build, "hang"), min_chars=300, timeout_s=60
    )
    queued = offload_module.QUEUED_PER_WORKER
    try:
        assert engine.wait_ready(START_S)
        waiting = ThreadPoolExecutor(max_workers=queued)
        hung = [waiting.submit(engine.read, LONG["zh"], conversation()) for _ in range(queued)]
        deadline = time.monotonic() + 30
        while engine._pending < queued and time.monotonic() < deadline:
            time.sleep(0.01)
        reading = engine.read(LONG["en"], conversation())
        assert engine.stats.queue_full == 1
        assert reading == sentence_rules().read(LONG["en"], conversation())
    finally:
        started = time.monotonic()
        engine.close()
        closing = time.monotonic() - started
    # The hung reads end when their worker is stopped, each read here instead.
    expected = sentence_rules().read(LONG["zh"], conversation())
    assert all(read.result(timeout=30) == expected for read in hung)
    waiting.shutdown()
    assert closing < offload_module.CLOSE_WAIT_S * 2 + 5


SERVER_WITH_A_WORKER = """
import time
from functools import partial
from cartwise.understanding import worker_rules_engine
from cartwise.understanding.offload import OffloadEngine
from cartwise.understanding.rules.engine import RulesEngine

engine = OffloadEngine(RulesEngine(), partial(worker_rules_engine, []), min_chars=300)
assert engine.wait_ready({start_s})
print(*(process.pid for process in engine._pool._processes.values()), flush=True)
time.sleep(600)
"""


def _running(pid: int) -> bool:
    """Whether `pid` is a live process (an exited orphan that nobody reaped yet is not)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


# Slow: a fresh interpreter starts a worker that builds its reader.
@pytest.mark.slow
def test_a_worker_ends_when_the_process_that_started_it_is_killed() -> None:
    """A server killed outright leaves no reader worker behind holding its memory and its
    stderr (whoever reads the server's log would wait for ever for the end of it)."""
    with subprocess.Popen(
        [sys.executable, "-c", SERVER_WITH_A_WORKER.format(start_s=START_S)],
        stdout=subprocess.PIPE,
        text=True,
    ) as server:
        try:
            assert server.stdout is not None
            workers = [int(pid) for pid in server.stdout.readline().split()]
            assert workers and all(_running(pid) for pid in workers)
        finally:
            server.kill()
    deadline = time.monotonic() + 30
    while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_running(pid) for pid in workers)
