"""`cartwise eval acts`: the dialogue-act classifier on our labelled dev and test splits and
on MG-ShopDial's shopper utterances (labelled outside the project; skipped when absent).
Writes the Markdown report and a JSON twin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from cartwise.commands.common import clean_errors
from cartwise.commands.eval import eval_app
from cartwise.settings import get_settings

DEFAULT_DATA_DIR = Path("../shared/data")
MG_SHOPDIAL = Path("memory/mg_shopdial/MGShopDial.json")


def register(app: typer.Typer) -> None:
    """The subcommand lives on the shared `eval` group, registered by `commands.eval`."""
    eval_app.command("acts")(eval_acts)


def eval_acts(
    data: Annotated[
        Path, typer.Option(help="The shared data folder (MG-ShopDial skips when absent).")
    ] = DEFAULT_DATA_DIR,
    out: Annotated[Path, typer.Option(help="Markdown report; the JSON goes beside it.")] = Path(
        "docs/reports/acts.md"
    ),
    mistakes: Annotated[int, typer.Option(min=0, help="List up to N mistakes per set.")] = 15,
) -> None:
    """Score the act classifier: exact sets and per-act F1 on our splits, MG-ShopDial intents."""
    from cartwise.embedding import create_embedder
    from cartwise.eval.acts import (
        acts_split_path,
        load_labelled,
        load_mg_shopdial,
        render_markdown,
        score_mg_shopdial,
        score_split,
    )
    from cartwise.understanding import create_act_classifier

    settings = get_settings()
    with clean_errors():
        embedder = create_embedder(settings.embedder, settings)
        classifier = create_act_classifier(embedder)
        splits = [
            score_split(load_labelled(acts_split_path(name)), classifier.acts, split=name)
            for name in ("dev", "test")
        ]
        mg = None
        source = data / MG_SHOPDIAL
        if source.is_file():
            utterances, wizard = load_mg_shopdial(source)
            mg = score_mg_shopdial(
                utterances, classifier.scores, classifier.policy.decide, wizard_skipped=wizard
            )
        else:
            typer.echo(f"skipping MG-ShopDial: {source} is absent", err=True)
    reading = "sentence vectors + n-grams" if classifier.reads_sentences else "n-grams only"
    body = render_markdown(splits, mg, mistakes=mistakes)
    typer.echo(render_markdown(splits, mg, mistakes=mistakes, quote_external=True))
    title = (
        "# Dialogue acts\n\n"
        f"`cartwise eval acts`: the shipped act classifier ({reading}, embedder "
        f"`{embedder.name}`) through its policy. `dev` and `test` are our labelled splits "
        "(`src/cartwise/eval/data/acts_{dev,test}.jsonl`; the classifier is trained on "
        "`understanding/acts/data/acts_train.jsonl`, its candidates compared on dev, test "
        "never tuned on). MG-ShopDial's intents are mapped onto classes of our acts as "
        "below (`src/cartwise/eval/acts.py`).\n\n"
    )
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(title + body, encoding="utf-8")
        payload = {
            "splits": [s.model_dump() for s in splits],
            # Counts only: MG-ShopDial's utterances stay in the shared data.
            "mg_shopdial": mg.model_dump(exclude={"mistakes"}) if mg else None,
        }
        out.with_suffix(".json").write_text(
            json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
        )
    except OSError as exc:
        typer.echo(f"error: cannot write {exc.filename}: {exc.strerror}", err=True)
        raise typer.Exit(code=2) from None
    typer.echo(f"wrote {out} and {out.with_suffix('.json')}", err=True)
