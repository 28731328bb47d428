"""jieba's prefix dictionary as a memory-mapped hash table, opened in a fraction of a
millisecond instead of unmarshalled whole.

jieba segments with a dict of every word of its dictionary and every prefix of one (498,113
keys, word → frequency, 0 for a prefix that is no word), which it keeps as a 9 MB marshal
cache and loads whole at the first segmentation: 0.4–0.9 s of a one-shot `cartwise ask` on
a quiet machine, ~2 s on a busy one, though a turn looks up a few hundred keys (about five
per character segmented). `PrefixTable` answers the same lookups (`in`, `[]`, `get`) from a
file that is mapped, not read: only the pages a lookup touches are loaded. The file is built
once from jieba's own `dict.txt` (its `gen_pfdict`, so the keys and frequencies are jieba's)
and named by that file's path, size and modification time, so a changed dictionary builds a
new table.

Layout (native byte order: the file is built and read on one machine): a 32-byte header (magic, slot count, entry count, total frequency,
key-bytes length), then uint32 slots (entry number + 1, 0 for empty; open addressing by
CRC-32 of the key's UTF-8, linear probing, at most half full), uint32 key offsets
(entries + 1), uint32 frequencies, and the keys' UTF-8 bytes end to end.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import struct
import tempfile
import zlib
from array import array
from collections.abc import Mapping
from pathlib import Path
from typing import Any

MAGIC = b"CWJIEBA1"
HEADER = struct.Struct("=8sIIQQ")
WHOLE_AFTER = 100_000
"""Keys read from the file before the whole table is loaded into a dict. A file read costs
about 2 µs against 0.05 µs for a dict's, and loading the whole costs about 0.3 s: a turn
reads a few hundred keys, a catalog's ingest millions, and past this many reads (~0.2 s of
them) loading the whole is the cheaper way on."""


class PrefixTable:
    """What jieba's `Tokenizer.FREQ` dict answers, read from a mapped table. Writes
    (`jieba.add_word`) go to an in-memory overlay that shadows the file."""

    def __init__(self, path: Path) -> None:
        with path.open("rb") as file:
            self._map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        magic, slots, entries, total, key_bytes = HEADER.unpack_from(self._map, 0)
        if (
            magic != MAGIC
            or self._map.size() != HEADER.size + 4 * (slots + 2 * entries + 1) + key_bytes
        ):
            self._map.close()
            raise ValueError(f"{path} is not a complete jieba prefix table")
        self.total: int = total
        self._mask = slots - 1
        words = memoryview(self._map)[HEADER.size : HEADER.size + 4 * (slots + 2 * entries + 1)]
        self._slots = words[: 4 * slots].cast("I")
        self._offsets = words[4 * slots : 4 * (slots + entries + 1)].cast("I")
        self._freqs = words[4 * (slots + entries + 1) :].cast("I")
        self._keys_at = HEADER.size + 4 * (slots + 2 * entries + 1)
        self._overlay: dict[str, int] = {}
        self._memo: dict[str, int | None] = {}  # keys read from the file, hits and misses
        self._whole: dict[str, int] | None = None

    def _find(self, key: str) -> int | None:
        if key in self._overlay:
            return self._overlay[key]
        if self._whole is not None:
            return self._whole.get(key)
        memo = self._memo
        if key in memo:
            return memo[key]
        if len(memo) >= WHOLE_AFTER:
            self._whole = self.load_whole()
            return self._whole.get(key)
        raw = key.encode("utf-8")
        slot = zlib.crc32(raw) & self._mask
        found = None
        while entry := self._slots[slot]:
            start = self._keys_at + self._offsets[entry - 1]
            if self._map[start : self._keys_at + self._offsets[entry]] == raw:
                found = self._freqs[entry - 1]
                break
            slot = (slot + 1) & self._mask
        memo[key] = found
        return found

    def load_whole(self) -> dict[str, int]:
        """Every key and its frequency, as jieba's own dict."""
        keys = self._map[self._keys_at :]
        offsets = self._offsets
        return {
            keys[offsets[n] : offsets[n + 1]].decode("utf-8"): freq
            for n, freq in enumerate(self._freqs)
        }

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self._find(key) is not None

    def __getitem__(self, key: str) -> int:
        found = self._find(key)
        if found is None:
            raise KeyError(key)
        return found

    def get(self, key: str, default: Any = None) -> Any:
        found = self._find(key)
        return default if found is None else found

    def __setitem__(self, key: str, freq: int) -> None:
        self._overlay[key] = freq


def write_table(path: Path, freq: Mapping[str, int], total: int) -> None:
    """The table of `freq` at `path`, written beside it and moved in place (a reader never
    maps half a file)."""
    keys = [key.encode("utf-8") for key in freq]
    slots = 1 << max(1, (2 * len(keys) - 1).bit_length())  # at most half full
    mask = slots - 1
    table = array("I", bytes(4 * slots))
    offsets = array("I", [0])
    for number, raw in enumerate(keys, start=1):
        slot = zlib.crc32(raw) & mask
        while table[slot]:
            slot = (slot + 1) & mask
        table[slot] = number
        offsets.append(offsets[-1] + len(raw))
    freqs = array("I", freq.values())
    header = HEADER.pack(MAGIC, slots, len(keys), total, offsets[-1])
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, scratch = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(header)
            out.write(table.tobytes())
            out.write(offsets.tobytes())
            out.write(freqs.tobytes())
            out.write(b"".join(keys))
        os.replace(scratch, path)
    except BaseException:
        Path(scratch).unlink(missing_ok=True)
        raise


def table_path(dictionary: Path, directory: Path) -> Path:
    """Where the table of `dictionary` lives: named by its path, size and modification time."""
    stat = dictionary.stat()
    identity = f"{dictionary.resolve()}:{stat.st_size}:{stat.st_mtime_ns}:{MAGIC.decode()}"
    return directory / f"cartwise-jieba-{hashlib.sha256(identity.encode()).hexdigest()[:16]}.table"


def use_prefix_table(jieba: Any, directory: Path | None = None) -> None:
    """Make jieba's default tokenizer read its prefix dictionary from the table (built from
    jieba's `dict.txt` first if `directory`, by default the temporary directory jieba keeps
    its own cache in, has none yet). A tokenizer already initialised, or given another
    dictionary, is left as it is."""
    tokenizer = jieba.dt
    if tokenizer.initialized or tokenizer.dictionary is not None:
        return
    dictionary = Path(jieba.__file__).with_name(jieba.DEFAULT_DICT_NAME)
    path = table_path(dictionary, directory or Path(tempfile.gettempdir()))
    with tokenizer.lock:
        try:
            table: Any = PrefixTable(path)
        except (OSError, ValueError):
            with dictionary.open("rb") as source:
                table, total = tokenizer.gen_pfdict(source)
            try:
                write_table(path, table, total)
                table = PrefixTable(path)
            except OSError:  # nowhere to write: this process segments from the dict it built
                pass
        else:
            total = table.total
        tokenizer.FREQ, tokenizer.total = table, total
        tokenizer.initialized = True


VERB_TAG = "v"


def verb_path(dictionary: Path, directory: Path) -> Path:
    return table_path(dictionary, directory).with_suffix(".verbs")


def dictionary_verbs(jieba: Any, directory: Path | None = None) -> frozenset[str]:
    """The words jieba's `dict.txt` tags as plain verbs (`v`: 打孔, 超过, 安装 — not the verbal
    nouns `vn` such as 运动), read from a one-word-per-line file written beside the prefix
    table at the first call (the dictionary is 349k lines; the verbs file a tenth of that)."""
    dictionary = Path(jieba.__file__).with_name(jieba.DEFAULT_DICT_NAME)
    path = verb_path(dictionary, directory or Path(tempfile.gettempdir()))
    try:
        return frozenset(path.read_text(encoding="utf-8").split("\n"))
    except OSError:
        pass
    verbs: list[str] = []
    with dictionary.open(encoding="utf-8") as source:
        for line in source:
            parts = line.split()
            if len(parts) == 3 and parts[2] == VERB_TAG:
                verbs.append(parts[0])
    try:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=path.parent, delete=False, suffix=".part"
        ) as out:
            out.write("\n".join(verbs))
        os.replace(out.name, path)
    except OSError:  # nowhere to write: this process keeps the set it read
        pass
    return frozenset(verbs)
