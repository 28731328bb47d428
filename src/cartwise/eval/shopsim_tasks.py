"""The ShopSimulator shopping tasks: loading, the fixed dev/test split, the seeded sample, and
the budget each task's full instruction states.

The split is by a hash of the task id (`split_of`), fixed before any result was looked at:
dev and test are both reports, nothing is tuned on either. The sample is the first N tasks
of each split in the order of a seeded hash, so a run of N tasks is always the same N and a
larger N contains a smaller one.

The stated budget is the gold side of the budget check, read from the task's own text by the
harness (never through the assistant's reader, which is what is being measured): a ceiling
("不超过18000元", "500元以内", "预算30元"), a range ("60到70元": 70), or an approximate
amount ("100元左右", "70块钱上下", "100出头", "价格是五元"), which allows `APPROXIMATE_TOLERANCE` above.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, ValidationError

from cartwise.errors import InvalidInput

Split = Literal["dev", "test"]
SPLITS: tuple[Split, ...] = ("dev", "test")
DEFAULT_SEED = 22

APPROXIMATE_TOLERANCE = 0.2
"""An "about ¥X" budget is respected up to X·1.2: chosen before any run, as the margin a
shopper who said "around 100" would still accept; a ceiling or a range allows nothing above."""


class ShopSimTask(BaseModel):
    """One task of `tasks_dev.jsonl` (the fields the evaluation reads)."""

    task_id: int
    asin: str
    """The target listing (`products.jsonl` `asin`)."""
    instruction_text: str
    """The full need, in the shopper's words, with its budget."""
    instruction_simple: str | None = None
    """The vague opening a shopper would type first (absent from a few tasks)."""
    attributes: list[str] = Field(default_factory=list)
    goal_options: list[str] = Field(default_factory=list)
    """The target's variant (colour, size, pack) as the listing names it."""
    name: str = ""
    category: str = ""
    price_upper: float
    """The upstream benchmark's price bound for the target."""


def load_tasks(path: Path) -> list[ShopSimTask]:
    """Every task of the file; InvalidInput naming the line of a bad one."""
    tasks = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            tasks.append(ShopSimTask.model_validate(json.loads(line)))
        except (json.JSONDecodeError, ValidationError) as exc:
            raise InvalidInput(f"{path}:{number}: not a ShopSim task ({exc})") from None
    return tasks


def _hash(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def split_of(task_id: int) -> Split:
    """The task's split: half of the tasks by a hash of the id, independent of any seed."""
    return "dev" if _hash(f"shopsim-split:{task_id}") % 2 == 0 else "test"


def sample(
    tasks: Iterable[ShopSimTask], split: Split, size: int | None, *, seed: int = DEFAULT_SEED
) -> list[ShopSimTask]:
    """The first `size` tasks of `split` (all when None) in the seeded hash order."""
    chosen = [t for t in tasks if split_of(t.task_id) == split]
    chosen.sort(key=lambda t: _hash(f"shopsim-sample:{seed}:{t.task_id}"))
    return chosen if size is None else chosen[:size]


@dataclass(frozen=True)
class StatedBudget:
    amount: float
    """CNY."""
    approximate: bool

    @property
    def ceiling(self) -> float:
        """The highest price that respects it."""
        return self.amount * (1 + APPROXIMATE_TOLERANCE) if self.approximate else self.amount


_ZH_DIGITS = {"零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7}
_ZH_DIGITS |= {"八": 8, "九": 9}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10000}
_AMOUNT = r"(\d+(?:\.\d+)?[千万]?|[零一二两三四五六七八九十百千万]+)"
_UNIT = r"(\s*(?:元|块钱|块|rmb|RMB))?"
_PRICE_CUE = re.compile(r"价格|价位|价钱|售价|预算|总价|全款|单价|单个")
_RANGE = re.compile(_AMOUNT + _UNIT + r"\s*(?:到|至|-|~|～)\s*" + _AMOUNT + _UNIT)
_ABOUT_AFTER = re.compile(
    _AMOUNT + r"(\s*(?:来)?(?:元|块钱|块|rmb|RMB))?\s*(?:左右|上下|出头|附近|多)"
)
_ABOUT_BEFORE = re.compile(r"(?:约为|约|大概|大约|差不多|接近|花个|花)\s*" + _AMOUNT + _UNIT)
_CEILING_BEFORE = re.compile(
    r"(?:不超过|不能超过|不要超过|别超过|别超|不超|不到|不高于|低于|最多|顶多|控制在|预算(?:是|在|为|只有|有)?)\s*"
    + _AMOUNT
    + _UNIT
)
_CEILING_AFTER = re.compile(_AMOUNT + _UNIT + r"\s*(?:以内|之内|以下|之下|内)")
_PRICE_AT = re.compile(r"(?:是|在|为|价格|价)\s*" + _AMOUNT + _UNIT)
_CUE_REACH = 8
"""How far before an amount without a currency word a price word must be for it to be a
price ("价格在12000左右") rather than a size or a count ("6mm左右" never matches: a unit
stands between)."""


def _is_price(text: str, found: re.Match[str], unit_group: int) -> bool:
    if found.group(unit_group) or _PRICE_CUE.search(found.group(0)):
        return True
    return bool(_PRICE_CUE.search(text[max(0, found.start() - _CUE_REACH) : found.start()]))


def zh_amount(text: str) -> float | None:
    """`text` (digits, 21万, or Chinese numerals: 十, 八十, 六百, 两千) as a number."""
    if found := re.fullmatch(r"(\d+(?:\.\d+)?)([千万]?)", text):
        return float(found.group(1)) * _ZH_UNITS.get(found.group(2), 1)
    total, current, last_unit = 0, 0, 0
    for char in text:
        if char in _ZH_DIGITS:
            current = _ZH_DIGITS[char]
        elif char in _ZH_UNITS:
            last_unit = _ZH_UNITS[char]
            total += (current or 1) * last_unit
            current = 0
        else:
            return None
    # A digit after a unit counts in the next lower one: 两千九 is 2900, 三万五 35000.
    value = total + (current * last_unit // 10 if last_unit >= 100 and current else current)
    return float(value) if value else None


def stated_budget(text: str) -> StatedBudget | None:
    """The budget the instruction states, or None when it states none."""
    for found in _RANGE.finditer(text):
        high = zh_amount(found.group(3))
        if high and _is_price(text, found, 4):
            return StatedBudget(high, approximate=False)
    for pattern, approximate in (
        (_ABOUT_AFTER, True),
        (_ABOUT_BEFORE, True),
        (_CEILING_AFTER, False),
        (_CEILING_BEFORE, False),
        (_PRICE_AT, True),
    ):
        for found in pattern.finditer(text):
            amount = zh_amount(found.group(1))
            if amount and _is_price(text, found, 2):
                return StatedBudget(amount, approximate=approximate)
    return None


def count_by_split(tasks: Sequence[ShopSimTask]) -> dict[Split, int]:
    return {s: sum(split_of(t.task_id) == s for t in tasks) for s in SPLITS}
