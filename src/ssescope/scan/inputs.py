"""What a scan reads: PATH arguments expanded into stream files, tables and record indexes."""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import orjson

__all__ = ["INDEX", "TABLE_SUFFIXES", "Inputs", "collect", "index_files", "is_remote"]

INDEX = "index.jsonl"
"""The index file of a ``ssescope proxy --record`` directory (one JSON line per exchange)."""
TABLE_SUFFIXES = (".parquet", ".pq")
"""Files always read as tables of bodies (a ``--body`` column, ``body`` by default)."""
_JSON_TABLES = (".jsonl", ".ndjson", ".json")
_GLOB = set("*?[")


def is_remote(path: str) -> bool:
    """Whether ``path`` is a URL (``s3://``, ``https://``, …) rather than a local path."""
    return "://" in path


@dataclass
class Inputs:
    """The expanded inputs of a scan.

    Attributes:
        files: stream files, one input each (any container ``inspect`` reads).
        tables: Parquet (and, with ``--body``, JSONL) tables of bodies, one stream per row.
        errors: ``(path, message)`` for arguments that could not be expanded or read.
    """

    files: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)


def index_files(directory: Path) -> tuple[list[str], list[tuple[str, str]]]:
    """The capture files a record directory's ``index.jsonl`` lists, in its order.

    Each line is a JSON object naming its capture file: ``capture``, as ``ssescope proxy
    --record`` writes it (the path the proxy was given, so only its file name counts: the
    file is looked up in ``directory``), or ``file``, relative to the directory. Returns
    the files and ``(where, message)`` for lines that name none: a line that is not JSON,
    and an exchange the proxy recorded no capture for (its upstream never answered).
    """
    files: list[str] = []
    errors: list[tuple[str, str]] = []
    index = directory / INDEX
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
            files.append(str(directory / Path(capture).name))
        elif isinstance(file, str) and file:
            files.append(str(directory / file))
        else:
            message = "the index line names no capture file"
            reason = obj.get("error")
            if isinstance(reason, str):
                message += f" (the exchange recorded none: {reason})"
            errors.append((where, message))
    return files, errors


def _walk(directory: Path) -> Iterable[Path]:
    if (directory / INDEX).is_file():
        yield directory / INDEX
        return
    for entry in sorted(os.scandir(directory), key=lambda e: e.name):
        if entry.name.startswith("."):
            continue
        path = Path(entry.path)
        if entry.is_dir():
            yield from _walk(path)
        elif entry.is_file() or entry.is_symlink():
            yield path


def collect(
    paths: Iterable[str],
    *,
    json_tables: bool = False,
    expand: Callable[[str], list[str]] | None = None,
) -> Inputs:
    """Expand PATH arguments: files, globs and directories (recursively).

    A directory holding ``index.jsonl`` (a proxy's ``--record`` directory) is read
    through its index. Hidden files and directories are skipped. Parquet files are
    tables; JSONL files are tables when ``json_tables`` (``--body`` given), else stream
    files like any other. ``expand`` expands a glob or a URL pattern (DuckDB's ``glob``
    in the local engine); local globs use :func:`glob.glob` otherwise.
    """
    out = Inputs()
    seen: set[str] = set()

    def add(path: str) -> None:
        if path in seen:
            return
        seen.add(path)
        lower = path.lower()
        if lower.endswith(TABLE_SUFFIXES) or (json_tables and lower.endswith(_JSON_TABLES)):
            out.tables.append(path)
        else:
            out.files.append(path)

    for arg in paths:
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
                    _add_dir(Path(match), add, out)
            continue
        path = Path(arg)
        if path.is_dir():
            _add_dir(path, add, out)
        elif path.exists() or path.is_symlink():
            add(arg)
        else:
            out.errors.append((arg, "no such file or directory"))
    return out


def _add_dir(directory: Path, add: Callable[[str], None], out: Inputs) -> None:
    try:
        for path in _walk(directory):
            if path.name == INDEX:
                files, errors = index_files(path.parent)
                for file in files:
                    add(file)
                out.errors.extend(errors)
            else:
                add(str(path))
    except OSError as exc:
        out.errors.append((str(directory), exc.strerror or str(exc)))
