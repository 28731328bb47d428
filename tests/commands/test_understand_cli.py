"""`cartwise understand` through the CLI runner, with the real rules engine."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cartwise.commands import understand as understand_command
from cartwise.settings import Settings, get_settings
from tests.doubles import ScriptedAnswer, ScriptedLLMServer

READING_FIELDS = {
    "language", "intent", "domain", "query", "product_type", "followup", "current_intent",
    "slots", "constraints", "stated", "retracted", "brands", "platforms", "answered_questions",
    "recipient", "specs", "acts", "vague", "gift", "vague_budget", "unusable_budget",
    "small_talk", "urls", "compatible", "reference_text", "types",
}  # fmt: skip
LONG_TERM_FIELDS = {"polarity", "category", "domain", "slug", "strength", "keywords", "dedup_key"}
SESSION_PATCH_FIELDS = {
    "current_intent", "slots_patch", "constraints", "new_open_questions",
    "resolved_questions", "decisions_made",
}  # fmt: skip


@pytest.fixture
def app(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[typer.Typer]:
    monkeypatch.setenv("CARTWISE_HOME", str(settings.cartwise_home))
    monkeypatch.setenv("ENGINE", "rules")
    get_settings.cache_clear()
    cli = typer.Typer()
    understand_command.register(cli)
    cli.command("noop")(lambda: None)  # a second command keeps `understand` a named subcommand
    yield cli
    get_settings.cache_clear()


def run(app: typer.Typer, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["understand", *args])
    return result.exit_code, result.stdout, result.stderr


def test_json_output_has_exactly_the_documented_shape(app: typer.Typer) -> None:
    code, out, _ = run(app, "--json", "不要塑料的耳机，预算500以内")

    assert code == 0
    output = json.loads(out)
    assert set(output) == {"reading", "curator"}
    assert set(output["reading"]) == READING_FIELDS
    assert set(output["curator"]) == {"long_term", "supersede", "recipients", "session_patch"}
    assert set(output["curator"]["session_patch"]) == SESSION_PATCH_FIELDS
    (entry,) = output["curator"]["long_term"]
    assert set(entry) == LONG_TERM_FIELDS
    assert (entry["polarity"], entry["slug"]) == ("dislike", "plastic")
    assert entry["dedup_key"] == f"dislike:material:{entry['domain']}:plastic"
    assert output["reading"]["slots"]["budget_max"] == "500"
    assert all(isinstance(v, str) for v in output["reading"]["slots"].values())
    assert output["reading"]["recipient"] == "self"
    assert output["curator"]["recipients"] == []


def test_json_output_puts_someone_elses_taste_in_their_namespace(app: typer.Typer) -> None:
    code, out, _ = run(app, "--json", "帮我妈挑条围巾，她不喜欢羊毛")

    assert code == 0
    output = json.loads(out)
    assert output["reading"]["recipient"] == "mum"
    assert output["curator"]["long_term"] == []
    (group,) = output["curator"]["recipients"]
    assert group["recipient"] == "mum"
    assert [e["dedup_key"] for e in group["long_term"]] == ["dislike:material:clothing:wool"]


def test_allergy_is_a_global_hard_dislike(app: typer.Typer) -> None:
    _, out, _ = run(app, "--json", "我对花生过敏")

    (entry,) = json.loads(out)["curator"]["long_term"]
    assert (entry["polarity"], entry["domain"], entry["strength"]) == ("dislike", "", "hard")


def test_session_budget_is_a_slot_not_a_preference(app: typer.Typer) -> None:
    _, out, _ = run(app, "--json", "这次预算500")

    curator = json.loads(out)["curator"]
    assert curator["long_term"] == []
    assert curator["session_patch"]["slots_patch"]["budget_max"] == "500"


def test_readable_summary_without_json(app: typer.Typer) -> None:
    code, out, _ = run(app, "running shoes, size 42, no leather")

    assert code == 0
    assert "leather" in out and "size = 42" in out
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)


def test_script_prints_one_object_per_line_in_order(app: typer.Typer, tmp_path: Path) -> None:
    script = tmp_path / "turns.jsonl"
    texts = ["我对花生过敏", "这次预算500", "running shoes without leather"]
    script.write_text(
        "\n".join(json.dumps({"text": t}, ensure_ascii=False) for t in texts) + "\n\n",
        encoding="utf-8",
    )

    code, out, _ = run(app, "--script", str(script))

    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == 3
    assert lines[0]["curator"]["long_term"][0]["slug"] == "peanut"
    assert lines[1]["curator"]["session_patch"]["slots_patch"]["budget_max"] == "500"
    assert lines[2]["reading"]["language"] == "en"


def test_script_lines_of_one_thread_share_their_memory(app: typer.Typer, tmp_path: Path) -> None:
    script = tmp_path / "dialogue.jsonl"
    turns = [
        {"thread": "a", "text": "我不喜欢塑料"},
        {"thread": "a", "text": "其实塑料也可以"},
        {"thread": "b", "text": "其实塑料也可以"},
    ]
    script.write_text("\n".join(json.dumps(t, ensure_ascii=False) for t in turns), "utf-8")

    _, out, _ = run(app, "--script", str(script))

    first, retraction, unrelated = (json.loads(line) for line in out.splitlines())
    (stored,) = first["curator"]["long_term"]
    assert stored["dedup_key"] in retraction["curator"]["supersede"]
    assert stored["dedup_key"] not in unrelated["curator"]["supersede"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--json", "   "], "the message is empty"),
        ([], "the message is empty"),
        (["--script", "/nonexistent/turns.jsonl"], "cannot read script"),
        (["hello", "--script", "x.jsonl"], "not both"),
    ],
    ids=["blank", "missing", "missing-file", "both"],
)
def test_bad_input_is_a_clear_error(app: typer.Typer, args: list[str], message: str) -> None:
    code, out, err = run(app, *args)

    assert code == 2
    assert message in err
    assert "Traceback" not in err + out
    assert out == ""


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"text": "ok"}\n{"txt": "no text field"}\n', "line 2: needs a string field `text`"),
        ('{"text": "ok"}\nnot json\n', "line 2: not JSON"),
        ('{"text": ""}\n', "line 1: the message is empty"),
    ],
    ids=["no-text", "not-json", "empty-text"],
)
def test_bad_script_line_fails_before_any_output(
    app: typer.Typer, tmp_path: Path, content: str, message: str
) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text(content, encoding="utf-8")

    code, out, err = run(app, "--script", str(script))

    assert code == 2
    assert message in err
    assert out == "", "nothing is printed when any line is bad"
    assert "Traceback" not in err


def test_llm_engine_without_base_url_is_a_clear_error(
    app: typer.Typer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ENGINE", "llm")
    monkeypatch.setenv("LLM_BASE_URL", "")
    get_settings.cache_clear()

    code, _, err = run(app, "--json", "耳机")

    assert code == 2
    assert "LLM_BASE_URL" in err
    assert "Traceback" not in err


def test_llm_engine_answers_are_guarded_in_the_output(
    app: typer.Typer, monkeypatch: pytest.MonkeyPatch
) -> None:
    mixed_up = {"polarity": "like", "category": "material", "slug": "plastic", "keywords": ["塑料"]}
    planner = {"language": "zh", "intent": "search", "query": "耳机", "stated": [mixed_up]}
    curator = {
        "long_term": [{**mixed_up, "domain": "electronics", "strength": "soft"}],
        "supersede": [],
        "session_patch": {"current_intent": "买耳机"},
    }
    with ScriptedLLMServer([ScriptedAnswer.json(planner), ScriptedAnswer.json(curator)]) as server:
        monkeypatch.setenv("ENGINE", "llm")
        monkeypatch.setenv("LLM_BASE_URL", server.base_url)
        get_settings.cache_clear()

        code, out, err = run(app, "--json", "不要塑料的耳机")

    assert code == 0, err
    output = json.loads(out)
    assert [(s["polarity"], s["slug"]) for s in output["reading"]["stated"]] == [
        ("dislike", "plastic")
    ]
    (entry,) = output["curator"]["long_term"]
    assert entry["dedup_key"] == "dislike:material:electronics:plastic"
    assert output["curator"]["session_patch"]["current_intent"] == "买耳机"
    assert len(server.requests) == 2


def test_summary_tells_when_the_rules_engine_answered_for_the_llm(
    app: typer.Typer, monkeypatch: pytest.MonkeyPatch
) -> None:
    with ScriptedLLMServer([ScriptedAnswer.http_error(500), ScriptedAnswer.text("oops")]) as server:
        monkeypatch.setenv("ENGINE", "llm")
        monkeypatch.setenv("LLM_BASE_URL", server.base_url)
        get_settings.cache_clear()

        code, out, _ = run(app, "不要塑料的耳机")

    assert code == 0
    assert "plastic" in out
    assert "the rules engine answered instead (http_error ×1, malformed_json ×1)" in out
