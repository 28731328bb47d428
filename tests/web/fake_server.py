"""A scripted server that speaks the API contract, for developing the page before (or
without) the real agent: accounts, memory CRUD, thread state and an /api/agent stream with
the same AG-UI event sequence the real agent emits. Run it by hand with
`.venv/bin/python -m tests.web.fake_server 8201`."""

from __future__ import annotations

import asyncio
import sys
import uuid
from collections.abc import AsyncIterator
from typing import Any

from ag_ui.core import (
    BaseEvent,
    CustomEvent,
    RunAgentInput,
    RunFinishedEvent,
    RunStartedEvent,
    StateSnapshotEvent,
    StepFinishedEvent,
    StepStartedEvent,
    TextMessageContentEvent,
    TextMessageEndEvent,
    TextMessageStartEvent,
    ToolCallEndEvent,
    ToolCallStartEvent,
)
from ag_ui.encoder import EventEncoder
from fastapi import FastAPI, Form, Header, HTTPException
from fastapi.responses import StreamingResponse

from cartwise.memory.store import PreferenceEntry
from cartwise.web import mount_web

PLATFORMS = ["taobao", "jd", "pdd", "amazon", "shopee", "ebay"]

CATALOG: list[dict[str, Any]] = [
    {
        "platform": "taobao",
        "item_id": "tb-1",
        "title": "木质头戴式耳机 胡桃木耳罩 无线蓝牙",
        "brand": "Woodsound",
        "price": 459.0,
        "currency": "CNY",
        "rating": 4.7,
        "material": "wood",
    },
    {
        "platform": "taobao",
        "item_id": "tb-2",
        "title": "塑料外壳 入门头戴式耳机",
        "brand": "Basix",
        "price": 129.0,
        "currency": "CNY",
        "rating": 4.1,
        "material": "plastic",
    },
    {
        "platform": "jd",
        "item_id": "jd-1",
        "title": "铝合金头梁 降噪耳机 Pro",
        "brand": "Sonica",
        "price": 899.0,
        "currency": "CNY",
        "rating": 4.8,
        "material": "aluminium",
    },
    {
        "platform": "jd",
        "item_id": "jd-2",
        "title": "皮质耳罩 监听耳机",
        "brand": "Studio M",
        "price": 699.0,
        "currency": "CNY",
        "rating": 4.6,
        "material": "leather",
    },
    {
        "platform": "pdd",
        "item_id": "pdd-1",
        "title": "ABS塑料 儿童耳机 彩色",
        "brand": "Kiddo",
        "price": 59.0,
        "currency": "CNY",
        "rating": 3.9,
        "material": "plastic",
    },
    {
        "platform": "amazon",
        "item_id": "am-1",
        "title": "Walnut Wood Over-Ear Headphones",
        "brand": "Woodsound",
        "price": 64.99,
        "currency": "USD",
        "rating": 4.5,
        "material": "wood",
    },
    {
        "platform": "amazon",
        "item_id": "am-2",
        "title": "Plastic Foldable Headphones",
        "brand": "Basix",
        "price": 19.99,
        "currency": "USD",
        "rating": 4.0,
        "material": "plastic",
    },
    {
        "platform": "shopee",
        "item_id": "sp-1",
        "title": "Metal Frame Wireless Headphones ANC",
        "brand": "Sonica",
        "price": 499.0,
        "currency": "MYR",
        "rating": 4.4,
        "material": "metal",
        "image_url": "/static/does-not-exist.png",
    },
]
FX = {"CNY": 1.0, "USD": 7.12, "MYR": 1.60}


class FakeWorld:
    """Accounts, preferences and thread state held in memory."""

    def __init__(self) -> None:
        self.passwords: dict[str, str] = {}
        self.tokens: dict[str, str] = {}
        self.memory: dict[str, dict[str, PreferenceEntry]] = {}
        self.threads: dict[str, dict[str, Any]] = {}

    def user(self, authorization: str | None) -> str:
        token = (authorization or "").removeprefix("Bearer ").strip()
        if token not in self.tokens:
            raise HTTPException(401, "not authenticated")
        return self.tokens[token]


def _public(entry: PreferenceEntry) -> dict[str, Any]:
    return entry.model_dump(mode="json")


def create_fake_app() -> FastAPI:
    world = FakeWorld()
    app = FastAPI()

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/api/auth/register", status_code=201)
    def register(body: dict[str, str]) -> dict[str, str]:
        if body["username"] in world.passwords:
            raise HTTPException(409, "username already taken")
        world.passwords[body["username"]] = body["password"]
        world.memory[body["username"]] = {}
        return {"username": body["username"]}

    @app.post("/api/auth/token")
    def token(username: str = Form(), password: str = Form()) -> dict[str, Any]:
        if world.passwords.get(username) != password:
            raise HTTPException(401, "wrong username or password")
        issued = uuid.uuid4().hex
        world.tokens[issued] = username
        return {"access_token": issued, "token_type": "bearer", "expires_in": 3600}

    @app.get("/api/memory")
    def list_memory(authorization: str | None = Header(None)) -> list[dict[str, Any]]:
        return [_public(e) for e in world.memory[world.user(authorization)].values()]

    @app.post("/api/memory", status_code=201)
    def add_memory(
        body: dict[str, Any], authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        entry = PreferenceEntry(**body)
        world.memory[world.user(authorization)][entry.dedup_key] = entry
        return _public(entry)

    @app.patch("/api/memory/{key}")
    def patch_memory(
        key: str, body: dict[str, Any], authorization: str | None = Header(None)
    ) -> dict[str, Any]:
        entries = world.memory[world.user(authorization)]
        if key not in entries:
            raise HTTPException(404, f"no preference {key}")
        new = entries.pop(key).model_copy(update=body)
        new = PreferenceEntry(**new.model_dump(exclude={"dedup_key"}))
        entries[new.dedup_key] = new
        return _public(new)

    @app.delete("/api/memory/{key}", status_code=204)
    def delete_memory(key: str, authorization: str | None = Header(None)) -> None:
        if world.memory[world.user(authorization)].pop(key, None) is None:
            raise HTTPException(404, f"no preference {key}")

    @app.get("/api/threads/{thread}")
    def thread(thread: str, authorization: str | None = Header(None)) -> dict[str, Any]:
        world.user(authorization)
        if thread not in world.threads:
            raise HTTPException(404, "no such thread")
        return {"state": world.threads[thread], "messages": []}

    @app.post("/api/agent")
    async def agent(
        run: RunAgentInput, authorization: str | None = Header(None)
    ) -> StreamingResponse:
        user = world.user(authorization)
        message = str(run.messages[-1].content)
        return StreamingResponse(_turn(world, user, run, message), media_type="text/event-stream")

    mount_web(app)
    return app


async def _turn(
    world: FakeWorld, user: str, run: RunAgentInput, message: str
) -> AsyncIterator[str]:
    encoder = EventEncoder()
    chinese = any("\u4e00" <= ch <= "\u9fff" for ch in message)

    def send(event: BaseEvent) -> str:
        return encoder.encode(event)

    yield send(RunStartedEvent(thread_id=run.thread_id, run_id=run.run_id))
    for step in ("understanding", "profile"):
        yield send(StepStartedEvent(step_name=step))
        await asyncio.sleep(0.15)
        yield send(StepFinishedEvent(step_name=step))
    memory = world.memory[user]
    likes = [e.slug for e in memory.values() if e.polarity == "like"]
    yield send(CustomEvent(name="personalization", value={"active": bool(likes), "likes": likes}))
    yield send(StepStartedEvent(step_name="searching"))
    for platform in PLATFORMS:
        yield send(
            ToolCallStartEvent(tool_call_id=platform, tool_call_name=f"item_search:{platform}")
        )
        await asyncio.sleep(0.05)
        yield send(ToolCallEndEvent(tool_call_id=platform))
    yield send(StepFinishedEvent(step_name="searching"))

    added: list[PreferenceEntry] = []
    if "塑料" in message or "plastic" in message.lower():
        entry = PreferenceEntry(
            polarity="dislike",
            category="material",
            domain="electronics",
            slug="plastic",
            strength="hard",
            keywords=["plastic", "塑料"],
        )  # type: ignore[arg-type]
        added.append(entry)
    excluded = {e.slug for e in [*memory.values(), *added] if e.polarity == "dislike"}
    yield send(StepStartedEvent(step_name="picking"))
    products, rejected = [], []
    for item in CATALOG:
        if item["material"] in excluded:
            rejected.append(
                {
                    "platform": item["platform"],
                    "item_id": item["item_id"],
                    "title": item["title"],
                    "reason": f"contains excluded term {item['material']}",
                }
            )
            continue
        why = ["头戴式" if chinese else "over-ear"]
        if item["material"] in likes:
            why.append(f"matches your like for {item['material']}")
        if excluded:
            why.append("无塑料" if chinese else "no plastic")
        products.append(
            {
                **{k: v for k, v in item.items() if k != "material"},
                "url": f"https://example.com/{item['item_id']}",
                "price_base": round(item["price"] * FX[item["currency"]], 2),
                "score": 0.8,
                "score_query": 0.7,
                "score_user": 0.1,
                "why": why,
            }
        )
    yield send(StepFinishedEvent(step_name="picking"))

    yield send(StepStartedEvent(step_name="replying"))
    reply = (
        f"为你找到 {len(products)} 款耳机，已排除 {len(rejected)} 款含塑料的商品。木质耳罩的那款最符合你的要求。"
        if chinese
        else f"I found {len(products)} headphones across {len({p['platform'] for p in products})} platforms and set aside {len(rejected)} with plastic."
    )
    yield send(TextMessageStartEvent(message_id="m1", role="assistant"))
    for start in range(0, len(reply), 8):
        yield send(TextMessageContentEvent(message_id="m1", delta=reply[start : start + 8]))
        await asyncio.sleep(0.03)
    yield send(TextMessageEndEvent(message_id="m1"))
    yield send(StepFinishedEvent(step_name="replying"))

    yield send(StepStartedEvent(step_name="remembering"))
    for entry in added:
        memory[entry.dedup_key] = entry
    session = {
        "thread": run.thread_id,
        "category": "electronics",
        "current_intent": "买一副头戴式耳机" if chinese else "buy over-ear headphones",
        "constraints": [],
        "slots": {"budget_max": "500 CNY"} if "500" in message else {},
        "rejected_options": rejected,
        "open_questions": ["需要无线还是有线？" if chinese else "Wired or wireless?"],
        "resolved_questions": [],
        "decisions_made": [],
    }
    world.threads[run.thread_id] = session
    wood = [p for p in products if "Wood" in p["title"] or "木" in p["title"]]
    compare = [
        {
            "title": "Woodsound walnut headphones",
            "offers": [
                {k: p[k] for k in ("platform", "item_id", "price", "currency", "price_base", "url")}
                for p in wood
            ],
        }
    ]
    snapshot = {
        "language": "zh" if chinese else "en",
        "products": products,
        "price_compare": compare,
        "personalization": {"active": bool(likes), "likes": likes},
        "rejected": rejected,
        "questions": session["open_questions"],
        "memory": {"long_term": [_public(e) for e in memory.values()], "session": session},
        "timings": {},
    }
    yield send(StateSnapshotEvent(snapshot=snapshot))
    yield send(
        CustomEvent(
            name="memory_updated",
            value={"added": [_public(e) for e in added], "superseded": [], "session": session},
        )
    )
    yield send(StepFinishedEvent(step_name="remembering"))
    yield send(RunFinishedEvent(thread_id=run.thread_id, run_id=run.run_id))


if __name__ == "__main__":
    import uvicorn

    uvicorn.run(
        create_fake_app(), host="127.0.0.1", port=int(sys.argv[1]) if len(sys.argv) > 1 else 8201
    )
