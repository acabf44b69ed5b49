"""``ssescope scan`` (and its neighbours) against hostile corpora, before and after.

Each scenario runs a fresh process from ``--src`` (default: this checkout), bounded in
time (``--timeout``) and in address space (``--cap-mib``, so that a version that reads
``/dev/zero`` whole does not take the machine down), and prints one Markdown row: the
wall time, the peak resident size of its whole process tree (the scan, its fork server
and its workers, sampled every 50 ms from outside), the exit code and what it gave. Run
it on two checkouts to compare them:

    PYTHONPATH=src python bench/scan_hostile.py                      # this code
    PYTHONPATH=src python bench/scan_hostile.py --src /other/src     # another version
    PYTHONPATH=src python bench/scan_hostile.py --only big-files comments

Scenarios (``--only`` picks some):

* ``big-files``: 16 files of ``--file-mib`` MiB each, ``--jobs 2``.
* ``dev-zero``: a directory holding a link to ``/dev/zero`` and one small stream.
* ``fifo``: a directory holding a link to a FIFO nobody writes, and one small stream.
* ``loop``: a directory of 300 small streams holding ``loop -> ..`` (in a folder with
  a few thousand other files next to it).
* ``self``: 300 small streams and ``self -> .``: rows written.
* ``bad-inputs``: a Parquet file without a body column, a table with ``model`` and
  ``input_model``, an index line with a NUL byte, next to one good stream.
* ``ctrl-c``: 8,000 small streams with ``--jobs 2 --out rows.jsonl``, SIGINT to the
  process group after the first rows: exit code, what was written.
* ``comments``: ``inspect --json`` of ``--comments-mib`` MiB of ``:\\n`` lines.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_MIB = 1024 * 1024
GOOD = (
    b'data: {"id":"c1","object":"chat.completion.chunk","model":"gpt-x","choices":'
    b'[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
)


def _tree_rss(root: int) -> int:
    """Resident bytes of ``root`` and every process below it."""
    children: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid, ppid = int(entry), int(fields[1])
        children.setdefault(ppid, []).append(pid)
        rss[pid] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        total += rss.get(pid, 0)
        stack.extend(children.get(pid, []))
    return total


def run(
    args: argparse.Namespace,
    argv: list[str],
    *,
    cwd: Path | None = None,
    interrupt: Callable[[subprocess.Popen[bytes]], bool] | None = None,
) -> dict[str, object]:
    """Run ``python -m ssescope ARGV`` from ``--src``: wall time, peak tree RSS, exit
    code, stdout (``None`` when it ran out of time: then it is killed)."""
    cap = args.cap_mib * _MIB

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    env = {**os.environ, "PYTHONPATH": str(args.src)}
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "ssescope", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=cwd,
        preexec_fn=limit,  # noqa: PLW1509 (no threads in the child yet)
        start_new_session=True,
    )
    peak = [0]
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.extend(proc.communicate()), daemon=True)
    reader.start()
    timed_out = False
    while reader.is_alive():
        peak[0] = max(peak[0], _tree_rss(proc.pid))
        if interrupt is not None and interrupt(proc):
            interrupt = None
        if time.monotonic() - start > args.timeout:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            break
        time.sleep(0.05)
    reader.join()
    return {
        "seconds": time.monotonic() - start,
        "peak_mib": peak[0] / _MIB,
        "code": None if timed_out else proc.returncode,
        "stdout": None if timed_out else (out[0] if out else b"").decode(errors="replace"),
        "stderr": (out[1] if len(out) > 1 else b"").decode(errors="replace"),
    }


def row(name: str, found: dict[str, object], what: str) -> None:
    if found["code"] is None:
        head = f"not finished in {found['seconds']:.0f} s (killed)"
    else:
        head = f"{found['seconds']:.1f} s, exit {found['code']}"
    print(f"| {name} | {head}; peak {found['peak_mib']:,.0f} MiB | {what} |", flush=True)


def _summary(found: dict[str, object]) -> dict[str, object] | None:
    try:
        value = json.loads(str(found["stdout"]))
    except (TypeError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def _said(found: dict[str, object]) -> str:
    summary = _summary(found)
    if summary is not None:
        return f"{summary['streams']} streams, {summary['input_errors']} inputs not read" + (
            f", {summary.get('inputs_cut')} cut" if "inputs_cut" in summary else ""
        )
    err = str(found["stderr"]).strip().splitlines()
    return err[-1][:120].replace("|", "/") if err else "nothing said"


def big_files(args: argparse.Namespace, tmp: Path) -> None:
    corpus = tmp / "big"
    corpus.mkdir()
    line = GOOD.split(b"\n\n")[0] + b"\n\n"
    block = line * (_MIB // len(line))
    for n in range(16):
        with (corpus / f"{n:02}.sse").open("wb") as f:
            for _ in range(args.file_mib):
                f.write(block)
    found = run(args, ["scan", str(corpus), "--jobs", "2", "--json"])
    row(f"16 files of {args.file_mib} MiB, `--jobs 2`", found, _said(found))
    shutil.rmtree(corpus)


def dev_zero(args: argparse.Namespace, tmp: Path) -> None:
    corpus = tmp / "zero"
    corpus.mkdir()
    (corpus / "zero.sse").symlink_to("/dev/zero")
    (corpus / "good.sse").write_bytes(GOOD)
    found = run(args, ["scan", str(corpus), "--jobs", "1", "--json"])
    row("a link to `/dev/zero` and one stream", found, _said(found))


def fifo(args: argparse.Namespace, tmp: Path) -> None:
    corpus = tmp / "fifo"
    corpus.mkdir()
    os.mkfifo(tmp / "a-fifo")
    (corpus / "fifo.sse").symlink_to(tmp / "a-fifo")
    (corpus / "good.sse").write_bytes(GOOD)
    found = run(args, ["scan", str(corpus), "--jobs", "1", "--json"])
    row("a link to a FIFO and one stream", found, _said(found))


def _small(folder: Path, n: int) -> None:
    folder.mkdir(parents=True)
    for i in range(n):
        (folder / f"{i:04}.sse").write_bytes(GOOD)


def loop(args: argparse.Namespace, tmp: Path) -> None:
    _small(tmp / "loop" / "corpus", 300)
    _small(tmp / "loop" / "neighbours", 3000)
    (tmp / "loop" / "corpus" / "loop").symlink_to("..")
    found = run(args, ["scan", str(tmp / "loop" / "corpus"), "--jobs", "2", "--json"])
    row("300 streams and `loop -> ..` (3,000 files next door)", found, _said(found))


def self_link(args: argparse.Namespace, tmp: Path) -> None:
    _small(tmp / "self", 300)
    (tmp / "self" / "self").symlink_to(".")
    found = run(args, ["scan", str(tmp / "self"), "--jobs", "2", "--json"])
    row("300 streams and `self -> .`", found, _said(found))


def bad_inputs(args: argparse.Namespace, tmp: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    corpus = tmp / "bad"
    (corpus / "record").mkdir(parents=True)
    (corpus / "good.sse").write_bytes(GOOD)
    pq.write_table(pa.table({"text": [GOOD]}), corpus / "no-body.parquet")
    both = {"body": [GOOD], "model": ["m"], "input_model": ["i"]}
    pq.write_table(pa.table(both), corpus / "both.parquet")
    (corpus / "record" / "1.sse").write_bytes(GOOD)
    index = json.dumps({"file": "1.sse"}) + "\n" + json.dumps({"file": "x\u0000y.sse"}) + "\n"
    (corpus / "record" / "index.jsonl").write_text(index)
    out = tmp / "bad.jsonl"
    found = run(args, ["scan", str(corpus), "--jobs", "1", "--json", "--out", str(out)])
    rows = len(out.read_text().splitlines()) if out.exists() else 0
    row("no body column, `model` + `input_model`, NUL in an index line", found,
        f"{_said(found)}; {rows} rows written")  # fmt: skip


def ctrl_c(args: argparse.Namespace, tmp: Path) -> None:
    _small(tmp / "many", 8000)
    out = tmp / "rows.jsonl"
    started = time.monotonic()

    def interrupt(proc: subprocess.Popen[bytes]) -> bool:
        if time.monotonic() - started < args.interrupt_after:
            return False
        os.killpg(proc.pid, signal.SIGINT)
        return True

    found = run(args, ["scan", str(tmp / "many"), "--jobs", "2", "--out", str(out)],
                interrupt=interrupt)  # fmt: skip
    written = [
        f"{p.name}: {len(p.read_text().splitlines())} rows" for p in sorted(tmp.glob("rows*.jsonl"))
    ]
    row(f"Ctrl-C after {args.interrupt_after:g} s of 8,000 streams, `--out rows.jsonl`",
        found, "; ".join(written) or "no output written")  # fmt: skip


def comments(args: argparse.Namespace, tmp: Path) -> None:
    path = tmp / "colons.sse"
    with path.open("wb") as f:
        block = b":\n" * (_MIB // 2)
        for _ in range(args.comments_mib):
            f.write(block)
    found = run(args, ["inspect", "--json", str(path)])
    try:
        records = json.loads(str(found["stdout"]))["records"]
        said = f"{records['comments']:,} comments"
    except (TypeError, ValueError, KeyError):
        said = _said(found)
    row(f"`inspect --json`, {args.comments_mib} MiB of `:\\n`", found, said)
    path.unlink()


SCENARIOS: dict[str, Callable[[argparse.Namespace, Path], None]] = {
    "big-files": big_files,
    "dev-zero": dev_zero,
    "fifo": fifo,
    "loop": loop,
    "self": self_link,
    "bad-inputs": bad_inputs,
    "ctrl-c": ctrl_c,
    "comments": comments,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--src", type=Path, default=ROOT / "src")
    parser.add_argument("--only", nargs="+", choices=sorted(SCENARIOS), default=None)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--cap-mib", type=int, default=6144)
    parser.add_argument("--file-mib", type=int, default=100)
    parser.add_argument("--comments-mib", type=int, default=300)
    parser.add_argument("--interrupt-after", type=float, default=4.0)
    args = parser.parse_args()
    print(f"source: {args.src}", flush=True)
    print("| scenario | time, exit code; peak RSS of the process tree | what it gave |")
    print("|---|---|---|")
    for name in args.only or SCENARIOS:
        with tempfile.TemporaryDirectory(prefix="scan-hostile-") as tmp:
            SCENARIOS[name](args, Path(tmp))


if __name__ == "__main__":
    main()
