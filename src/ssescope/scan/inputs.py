"""What a scan reads: PATH arguments expanded into stream files, tables and record indexes."""

from __future__ import annotations

import glob
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from .kernel import BODY
from .sniff import JSON_TABLES, jsonl_shape

__all__ = [
    "INDEX",
    "TABLE_SUFFIXES",
    "Inputs",
    "collect",
    "index_files",
    "irregular_kind",
    "is_remote",
    "not_regular",
]

INDEX = "index.jsonl"
"""The index file of a ``ssescope proxy --record`` directory (one JSON line per exchange)."""
TABLE_SUFFIXES = (".parquet", ".pq")
"""Files always read as tables of bodies (a ``--body`` column, ``body`` by default)."""
_GLOB = set("*?[")


def is_remote(path: str) -> bool:
    """Whether ``path`` is a URL (``s3://``, ``https://``, …) rather than a local path."""
    return "://" in path


@dataclass
class Inputs:
    """The expanded inputs of a scan.

    Attributes:
        files: stream files, one input each (any container ``inspect`` reads).
        tables: Parquet tables, and JSONL files whose lines carry the body column, of
            bodies, one stream per row.
        errors: ``(path, message)`` for arguments that could not be expanded or read.
        times: when each file's request started, where a record directory's index says
            it (its lines' ``time``), by path.
    """

    files: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    times: dict[str, str] = field(default_factory=dict)


def _inside(path: str, folder: str) -> bool:
    """Whether ``path`` is ``folder`` or lies under it (both absolute and normalised)."""
    try:
        return os.path.commonpath([path, folder]) == folder
    except ValueError:
        return False


def irregular_kind(mode: int) -> str | None:
    """What a file that is not a regular file is (``None`` for a regular file)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISDIR(mode):
        return "a directory"
    return "not a regular file"


def not_regular(kind: str) -> str:
    """The error of an input that is not a regular file (``kind``: from its mode)."""
    return f"{kind}, not a regular file: only regular files are read"


def index_files(
    directory: Path, *, follow_links: bool = False, times: dict[str, str] | None = None
) -> tuple[list[str], list[tuple[str, str]]]:
    """The capture files a record directory's ``index.jsonl`` lists, in its order.

    Each line is a JSON object naming its capture file: ``capture``, as ``ssescope proxy
    --record`` writes it (the path the proxy was given, so only its file name counts: the
    file is looked up in ``directory``), or ``file``, relative to the directory. Returns
    the files and ``(where, message)`` for lines that name none: a line that is not JSON,
    an exchange the proxy recorded no capture for (its upstream never answered), and a
    line naming a file outside the directory (``..``, an absolute path, a NUL byte, or,
    unless ``follow_links``, a link that leads out of it). ``times``, when given, gets
    each file's ``time`` (when its exchange started), where its line has one.
    """
    files: list[str] = []
    errors: list[tuple[str, str]] = []
    index = directory / INDEX
    folder = os.path.realpath(directory)
    for lineno, line in enumerate(index.read_bytes().splitlines(), 1):
        if not line.strip():
            continue
        where = f"{index}:{lineno}"
        try:
            obj = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            errors.append((where, f"the index line is not JSON ({exc})"))
            continue
        if not isinstance(obj, dict):
            errors.append((where, "the index line is not a JSON object"))
            continue
        capture, file = obj.get("capture"), obj.get("file")
        if isinstance(capture, str) and capture:
            name = Path(capture).name
        elif isinstance(file, str) and file:
            name = file
        else:
            message = "the index line names no capture file"
            reason = obj.get("error")
            if isinstance(reason, str):
                message += f" (the exchange recorded none: {reason})"
            errors.append((where, message))
            continue
        refused = _refused(directory, folder, name, follow_links)
        if refused is not None:
            errors.append((where, refused))
        else:
            files.append(str(directory / name))
            started = obj.get("time")
            if times is not None and isinstance(started, str) and started:
                times[str(directory / name)] = started
    return files, errors


def _refused(directory: Path, folder: str, name: str, follow_links: bool) -> str | None:
    # why an index line's file is not read, or None
    if "\0" in name:
        return "the index line names a file with a NUL byte in its name"
    lexical = os.path.normpath(os.path.join(folder, name))
    if not name or os.path.isabs(name) or not _inside(lexical, folder) or lexical == folder:
        return f"the index line names a file outside its folder ({name!r})"
    real = os.path.realpath(directory / name)
    if not follow_links and not _inside(real, folder):
        return f"the index line names a link out of its folder (to {real!r}; --follow-links)"
    return None


class _Walk:
    """One walk of the PATH arguments: each real path once, links kept in their tree."""

    def __init__(self, add: Callable[[str], None], out: Inputs, follow_links: bool) -> None:
        self.add, self.out, self.follow = add, out, follow_links
        self.dirs: set[str] = set()  # real paths of the directories walked

    def directory(self, top: Path) -> None:
        """Walk ``top``: depth first, in name order, without recursion."""
        root = os.path.realpath(top)
        if root in self.dirs:
            return
        self.dirs.add(root)
        stack: list[Iterator[os.DirEntry[str]]] = []
        self._open(top, stack)
        while stack:
            entry = next(stack[-1], None)
            if entry is None:
                stack.pop()
            elif not entry.name.startswith("."):
                below = self.entry(entry, root)
                if below is not None:
                    self._open(below, stack)

    def _open(self, folder: Path, stack: list[Iterator[os.DirEntry[str]]]) -> None:
        # a record directory is read through its index; any other, entry by entry
        if (folder / INDEX).is_file():
            files, errors = index_files(folder, follow_links=self.follow, times=self.out.times)
            for file in files:
                self.add(file)
            self.out.errors.extend(errors)
            return
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            self.out.errors.append((str(folder), exc.strerror or str(exc)))
            return
        stack.append(iter(entries))

    def entry(self, entry: os.DirEntry[str], root: str) -> Path | None:
        """Add a file of the walk; return a directory to walk into (or ``None``)."""
        path = Path(entry.path)
        try:
            link = entry.is_symlink()
            if link:
                real = os.path.realpath(path)
                if not os.path.exists(real):
                    self.add(str(path))  # dangling: its row says it cannot be read
                    return None
                if not self.follow and not _inside(real, root):
                    self.out.errors.append(
                        (str(path), f"a link out of the tree (to {real!r}); not followed")
                    )
                    return None
            if entry.is_dir():
                real = os.path.realpath(path)
                if real in self.dirs:
                    return None  # walked already (a link back into the tree)
                self.dirs.add(real)
                return path
            kind = irregular_kind(entry.stat().st_mode)
        except OSError as exc:
            self.out.errors.append((str(path), exc.strerror or str(exc)))
            return None
        if kind is not None:
            self.out.errors.append((str(path), not_regular(kind)))
        else:
            self.add(str(path))
        return None


def collect(
    paths: Iterable[str],
    *,
    json_tables: bool = False,
    expand: Callable[[str], list[str]] | None = None,
    follow_links: bool = False,
    body: str | None = None,
) -> Inputs:
    """Expand PATH arguments: files, globs and directories (recursively).

    A directory holding ``index.jsonl`` (a proxy's ``--record`` directory) is read
    through its index. Hidden files and directories are skipped. Parquet files are
    tables. A local JSONL file is judged from its first lines
    (:func:`~ssescope.scan.sniff.jsonl_shape`): a table when its lines carry the body
    column (``body``, the ``--body`` given when ``json_tables``, else a ``body`` field
    holding a stream's bytes), an error row saying which ``--body`` to give when another
    field holds bodies, else a stream file like any other; a remote one is a table when
    ``json_tables``. ``expand`` expands a glob or a URL pattern (DuckDB's ``glob``
    in the local engine); local globs use :func:`glob.glob` otherwise.

    Each real path is read once, however many links or arguments lead to it. Inside a
    directory, only regular files are read (a FIFO, a device or a socket is an error),
    and a link leading out of the directory is not followed unless ``follow_links``.
    """
    out = Inputs()
    seen: set[str] = set()

    def add(path: str) -> None:
        key = path if is_remote(path) else os.path.realpath(path)
        if key in seen:
            return
        seen.add(key)
        lower = path.lower()
        if lower.endswith(TABLE_SUFFIXES):
            out.tables.append(path)
        elif not lower.endswith(JSON_TABLES):
            out.files.append(path)
        elif is_remote(path):
            (out.tables if json_tables else out.files).append(path)
        else:
            shape = jsonl_shape(path, (body or BODY) if json_tables else None)
            if shape.kind == "table":
                out.tables.append(path)
            elif shape.kind == "hint" and shape.message is not None:
                out.errors.append((path, shape.message))
            else:
                out.files.append(path)

    walk = _Walk(add, out, follow_links)
    for arg in paths:
        if "\0" in arg:
            out.errors.append((arg, "a path with a NUL byte"))
            continue
        if is_remote(arg) or _GLOB & set(arg):
            if expand is not None:
                found = expand(arg)
            elif is_remote(arg):
                found = [arg]
            else:
                found = sorted(glob.glob(arg, recursive=True))
            if not found:
                out.errors.append((arg, "no file matches this pattern"))
            for match in found:
                if is_remote(match) or not Path(match).is_dir():
                    add(match)
                else:
                    walk.directory(Path(match))
            continue
        path = Path(arg)
        if path.is_dir():
            walk.directory(path)
        elif path.exists() or path.is_symlink():
            add(arg)
        else:
            out.errors.append((arg, "no such file or directory"))
    return out
