"""Opening catalog files: gzip by suffix, UTF-8 (with or without BOM), clear errors."""

from __future__ import annotations

import csv
import gzip
import io
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from cartwise.errors import IngestError


def open_text(path: Path) -> TextIO:
    """The file as text; `.gz` is decompressed. A missing file is an `IngestError`."""
    if not path.is_file():
        raise IngestError(str(path), "no such file")
    try:
        if path.suffix == ".gz":
            return io.TextIOWrapper(gzip.open(path, "rb"), encoding="utf-8-sig", newline="")
        return path.open(encoding="utf-8-sig", newline="")
    except OSError as exc:
        raise IngestError(str(path), str(exc)) from exc


def read_text_checked(path: Path) -> str:
    """The whole file as text; undecodable bytes are an `IngestError`, not a traceback."""
    try:
        with open_text(path) as handle:
            return handle.read()
    except UnicodeDecodeError as exc:
        raise IngestError(str(path), f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise IngestError(str(path), str(exc)) from exc


def csv_records(
    path: Path, *, delimiter: str = ","
) -> tuple[list[str], Iterator[tuple[int, dict[str, str]]]]:
    """Header and (first line of the record, record) pairs. Line numbers count physical
    lines, so a record whose quoted HTML spans several lines still points at its start."""
    text = read_text_checked(path)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        header = next(reader)
    except StopIteration:
        raise IngestError(str(path), "the file is empty") from None
    except csv.Error as exc:
        raise IngestError(str(path), f"not CSV: {exc}") from exc
    header = [name.strip() for name in header]

    def records() -> Iterator[tuple[int, dict[str, str]]]:
        start = reader.line_num + 1
        while True:
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                raise IngestError(str(path), f"line {start}: broken CSV: {exc}") from exc
            line, start = start, reader.line_num + 1
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                yield line, {"__width__": f"{len(row)} cells, the header has {len(header)}"}
                continue
            yield line, dict(zip(header, row, strict=True))

    return header, records()
