"""Counts the regexes and the in-code word lists in Python sources, reproducibly.

    python scripts/count_vocabulary.py [DIR ...]        (default: src/)

What is counted (by the syntax tree, so formatting does not change a number):
- a regex: a call `re.compile|search|match|fullmatch|sub|subn|findall|finditer|split(...)`,
  once per call, or a raw string literal (r"…", rf"…") outside such a call (the regex tables
  compiled later, the parts a pattern is built from);
- its alternatives: the top-level and nested `|` branches of the literal text of the pattern
  (its string parts when built by concatenation or an f-string), i.e. unescaped `|` outside
  character classes, plus one;
- an in-code vocabulary string: a plain (not raw, not f-) string literal with a letter in it,
  at most 40 characters and no line break, that is an element of a list, tuple or set display,
  or a key or value of a dict display, holding at least 3 such strings — except `__all__`,
  type arguments (`Literal["a", "b"]`) and the arguments of the regex calls above.
Data files (YAML) are not code and are not counted.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

REGEX_CALLS = {
    "compile",
    "search",
    "match",
    "fullmatch",
    "sub",
    "subn",
    "findall",
    "finditer",
    "split",
}
MIN_LIST = 3
WORDY = re.compile(r"[^\W\d_]")


@dataclass
class Counts:
    regexes: int = 0
    raw: int = 0
    alternatives: int = 0
    vocabulary: int = 0
    by_file: dict[str, tuple[int, int, int]] = field(default_factory=dict)


def alternatives(pattern: str) -> int:
    """Branches of a pattern: unescaped `|` outside character classes, plus one."""
    count, in_class, escaped = 1, False, False
    for char in pattern:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "|":
            count += 1
    return count


def literal_text(node: ast.AST) -> str:
    """The literal characters of a string expression (constants, f-string parts, `+`)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(literal_text(v) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return literal_text(node.left) + literal_text(node.right)
    return ""


def _is_regex_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in REGEX_CALLS
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "re"
    )


class _Counter(ast.NodeVisitor):
    def __init__(self, source: str) -> None:
        self.source = source
        self.regexes = 0
        self.raw = 0
        """Of `regexes`: raw literals outside a regex call."""
        self.alternatives = 0
        self.vocabulary = 0
        self._inside_regex = 0
        self._skip: set[int] = set()

    def _raw(self, node: ast.AST) -> bool:
        text = ast.get_source_segment(self.source, node) or ""
        prefix = re.match(r"[a-zA-Z]*", text)
        return bool(prefix and "r" in prefix.group().lower())

    def visit_Call(self, node: ast.Call) -> None:
        if _is_regex_call(node) and node.args:
            self.regexes += 1
            self.alternatives += alternatives(literal_text(node.args[0]))
            self._inside_regex += 1
            self.generic_visit(node)
            self._inside_regex -= 1
            return
        self.generic_visit(node)

    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        if not self._inside_regex and self._raw(node):
            self.regexes += 1
            self.raw += 1
            self.alternatives += alternatives(literal_text(node))
            self._skip.update(id(v) for v in node.values)
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if (
            isinstance(node.value, str)
            and id(node) not in self._skip
            and not self._inside_regex
            and self._raw(node)
        ):
            self.regexes += 1
            self.raw += 1
            self.alternatives += alternatives(node.value)

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self.visit(node.value)  # type arguments hold no vocabulary

    def _display(self, elements: list[ast.expr | None]) -> None:
        words = [
            e
            for e in elements
            if isinstance(e, ast.Constant)
            and isinstance(e.value, str)
            and WORDY.search(e.value)
            and len(e.value) <= 40
            and "\n" not in e.value
            and not self._raw(e)
        ]
        if len(words) >= MIN_LIST and not self._inside_regex:
            self.vocabulary += len(words)

    def visit_List(self, node: ast.List) -> None:
        self._display(list(node.elts))
        self.generic_visit(node)

    def visit_Tuple(self, node: ast.Tuple) -> None:
        self._display(list(node.elts))
        self.generic_visit(node)

    def visit_Set(self, node: ast.Set) -> None:
        self._display(list(node.elts))
        self.generic_visit(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        self._display([*node.keys, *node.values])
        self.generic_visit(node)


def count(paths: list[Path]) -> Counts:
    totals = Counts()
    for root in paths:
        for path in sorted(root.rglob("*.py")) if root.is_dir() else [root]:
            source = path.read_text(encoding="utf-8")
            counter = _Counter(source)
            counter.visit(ast.parse(source))
            totals.regexes += counter.regexes
            totals.raw += counter.raw
            totals.alternatives += counter.alternatives
            totals.vocabulary += counter.vocabulary
            if counter.regexes or counter.vocabulary:
                totals.by_file[str(path)] = (
                    counter.regexes,
                    counter.alternatives,
                    counter.vocabulary,
                )
    return totals


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or [Path("src")]
    totals = count(paths)
    if "--files" in sys.argv:
        for name, (regexes, alts, words) in sorted(
            totals.by_file.items(), key=lambda kv: -kv[1][2]
        ):
            print(f"{regexes:5} {alts:6} {words:6}  {name}")
    print(
        f"regexes {totals.regexes} ({totals.regexes - totals.raw} calls of re, {totals.raw} raw literals)"
    )
    print(f"alternatives {totals.alternatives}")
    print(f"vocabulary strings {totals.vocabulary}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main([a for a in sys.argv[1:] if a != "--files"]))
