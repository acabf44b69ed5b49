"""``ssescope scan`` against hostile corpora: what it prints, and inputs it must not lose."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import ssescope
from ssescope.cli import main

OSC52 = "\x1b]52;c;cHduZWQ=\x07"
OSC0 = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
EVIL = f"{OSC52}{OSC0}{CLEAR}\x9b31m\u202e"


def openai(model: str, *, done: bool = True) -> bytes:
    """A one-chunk OpenAI Chat stream from ``model``; cut before its end unless ``done``."""
    chunk = {
        "id": "c1",
        "object": "chat.completion.chunk",
        "model": model,
        "choices": [{"index": 0, "delta": {"content": "Hi"}, "finish_reason": None}],
    }
    body = f"data: {json.dumps(chunk)}\n\n"
    if done:
        last = {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
        body += f"data: {json.dumps(last)}\n\ndata: [DONE]\n\n"
    return body.encode()


def no_raw_controls(text: str) -> None:
    """Fail when a control character from the corpus reached the screen."""
    for bad in ("\x07", "\x9b", "\u202e", "\x1b]", "\x1b[2J"):
        assert bad not in text, f"{bad!r} reached the screen"


def test_model_and_file_names_are_shown_as_text_on_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "markup.sse").write_bytes(openai("[/x]"))
    (corpus / "link.sse").write_bytes(openai("[link=https://evil.example]m[/link]"))
    (corpus / "evil.sse").write_bytes(openai(f"gpt-{EVIL}", done=False))
    (corpus / f"name{OSC0}{CLEAR}.sse").write_bytes(openai("gpt-x", done=False))
    (corpus / f"bad{OSC52}.sse").symlink_to(corpus / "nowhere")  # a row that is not read
    code = main(["scan", str(corpus), "--jobs", "1", "--color"])
    out, err = capsys.readouterr()
    assert code == 0, err
    no_raw_controls(out)
    assert "\x1b]8;" not in out  # no OSC 8 hyperlink
    assert "[/x]" in out and "[link=https://evil.example]m[/link]" in out
    assert "gpt-\\x1b]52;c;cHduZWQ=\\x07" in out
    assert "name\\x1b]0;pwned\\x07\\x1b[2J.sse" in out
    assert "bad\\x1b]52;c;cHduZWQ=\\x07.sse" in out


def run_scan(*args: str, timeout: float = 120, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """``ssescope scan`` in a process of its own, bounded in time (and, with ``preexec_fn``,
    in memory)."""
    env = {**os.environ, "PYTHONPATH": str(Path(ssescope.__file__).parents[1])}
    return subprocess.run(
        [sys.executable, "-m", "ssescope", "scan", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
        **kwargs,
    )


def jsonl_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_bad_tables_and_index_lines_are_error_rows_and_the_scan_goes_on(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    (corpus / "record").mkdir(parents=True)
    good = openai("gpt-x")
    (corpus / "good.sse").write_bytes(good)
    pq.write_table(pa.table({"text": [good]}), corpus / "no-body.parquet")
    both = {"body": [good, good], "model": ["m1", "m2"], "input_model": ["i1", "i2"]}
    pq.write_table(pa.table(both), corpus / "both.parquet")
    (corpus / "record" / "1.sse").write_bytes(good)
    (corpus / "record" / "index.jsonl").write_text(
        json.dumps({"file": "1.sse"}) + "\n" + json.dumps({"file": "x\u0000y.sse"}) + "\n"
    )
    out = tmp_path / "rows.jsonl"
    done = run_scan(str(corpus), "--jobs", "1", "--out", str(out), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["streams"] == 4 and summary["input_errors"] == 2
    rows = jsonl_rows(out)
    errors = {r["source"]: r["error"] for r in rows if r["error"]}
    assert errors == {
        str(corpus / "no-body.parquet"): "the table has no 'body' column ('text')",
        f"{corpus / 'record' / 'index.jsonl'}:2": (
            "the index line names a file with a NUL byte in its name"
        ),
    }
    carried = [(r["input_input_model"], r["input_model"]) for r in rows if "both" in r["source"]]
    assert carried == [("m1", "i1"), ("m2", "i2")]
    assert [r["status"] for r in rows if not r["error"]] == ["completed"] * 4


def test_a_killed_worker_is_restarted_and_its_shard_tried_once_more(tmp_path: Path) -> None:
    import multiprocessing

    from tests.scan.scan_helpers import dies_on_some_shards

    from ssescope.scan.engines.local import judge
    from ssescope.scan.engines.shards import FileShard

    names = ["a.sse", "kill-b.sse", "c.sse", "once-d.sse", "e.sse"]
    for name in names:
        (tmp_path / name).write_bytes(openai("gpt-x"))
    shards = [FileShard((str(tmp_path / name),)) for name in names]
    judged = judge(shards, 2, None, multiprocessing.get_context("spawn"), work=dies_on_some_shards)
    rows = [row for _, batch in judged for row in batch.to_pylist()]
    assert [Path(r["source"]).name for r in rows] == names  # in input order
    by_name = {Path(r["source"]).name: r for r in rows}
    assert by_name["kill-b.sse"]["error"] == (
        "a worker process died judging this input, twice (killed, or out of memory)"
    )
    for name in ("a.sse", "c.sse", "once-d.sse", "e.sse"):
        assert by_name[name]["error"] is None and by_name[name]["status"] == "completed"
    assert (tmp_path / "once-d.died").exists()  # it died once, and was judged on its retry


def test_the_pools_workers_leave_ctrl_c_to_the_scanning_process(tmp_path: Path) -> None:
    # A worker interrupted while it held the result queue's lock once left the whole pool
    # waiting on it: the scan never ended after Ctrl-C. The workers now ignore SIGINT, so a
    # shard under way when it comes is judged and sent back whole.
    import multiprocessing

    from tests.scan.scan_helpers import interrupted_then_judged

    from ssescope.scan.engines.local import judge
    from ssescope.scan.engines.shards import FileShard

    names = [f"{n}.sse" for n in range(4)]
    for name in names:
        (tmp_path / name).write_bytes(openai("gpt-x"))
    shards = [FileShard((str(tmp_path / name),)) for name in names]
    context = multiprocessing.get_context("spawn")
    judged = judge(shards, 2, None, context, work=interrupted_then_judged)
    try:
        rows = [row for _, batch in judged for row in batch.to_pylist()]
    except KeyboardInterrupt:  # a worker's, sent back as its shard's result
        pytest.fail("a worker took Ctrl-C as its own and lost its shard")
    assert [Path(r["source"]).name for r in rows] == names
    assert [(r["error"], r["status"]) for r in rows] == [(None, "completed")] * 4


def _no_more_than(megabytes: int) -> Any:
    def limit() -> None:
        import resource

        size = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    return limit


def test_links_fifos_and_devices_are_read_once_or_refused(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    (corpus / "sub").mkdir(parents=True)
    for n in range(3):
        (corpus / "sub" / f"{n}.sse").write_bytes(openai("gpt-x"))
    (corpus / "self").symlink_to(".")  # the tree again
    (corpus / "sub" / "up").symlink_to("..")  # the tree again, from below
    (corpus / "loop").symlink_to("..")  # out of the tree: everything else on the disk
    (corpus / "twin.sse").symlink_to(corpus / "sub" / "0.sse")  # a file already read
    os.mkfifo(tmp_path / "fifo")
    (corpus / "fifo.sse").symlink_to(tmp_path / "fifo")  # out of the tree
    os.mkfifo(corpus / "inside.fifo")
    (corpus / "zero.sse").symlink_to("/dev/zero")
    out = tmp_path / "rows.jsonl"
    done = run_scan(
        str(corpus), "--jobs", "1", "--out", str(out), "--json", timeout=60,
        preexec_fn=_no_more_than(2048),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = jsonl_rows(out)
    judged = sorted(r["source"] for r in rows if not r["error"])
    assert judged == [str(corpus / "sub" / f"{n}.sse") for n in range(3)]
    errors = {Path(r["source"]).name: r["error"] for r in rows if r["error"]}
    assert errors.keys() == {"loop", "fifo.sse", "inside.fifo", "zero.sse"}
    assert errors["loop"].startswith("a link out of the tree (to ")
    assert errors["fifo.sse"].startswith("a link out of the tree")
    assert errors["inside.fifo"] == "a FIFO, not a regular file: only regular files are read"
    assert errors["zero.sse"].startswith("a link out of the tree")


def test_a_named_fifo_or_device_is_refused_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "zero.sse").symlink_to("/dev/zero")
    (tmp_path / "fifo.sse").symlink_to(tmp_path / "fifo")
    out = tmp_path / "rows.jsonl"
    args = [str(tmp_path / "zero.sse"), str(tmp_path / "fifo.sse"), "/dev/zero"]
    done = run_scan(
        *args, "--jobs", "1", "--out", str(out), "--json", timeout=60,
        preexec_fn=_no_more_than(2048),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    errors = {r["source"]: r["error"] for r in jsonl_rows(out)}
    assert errors == {
        str(tmp_path / "zero.sse"): "a device, not a regular file: only regular files are read",
        str(tmp_path / "fifo.sse"): "a FIFO, not a regular file: only regular files are read",
    }  # /dev/zero named twice (by its link and by itself) is read once


def test_links_out_of_the_tree_are_followed_when_asked_each_real_path_once(
    tmp_path: Path,
) -> None:
    corpus, elsewhere = tmp_path / "corpus", tmp_path / "elsewhere"
    corpus.mkdir()
    elsewhere.mkdir()
    (corpus / "a.sse").write_bytes(openai("gpt-x"))
    (elsewhere / "b.sse").write_bytes(openai("gpt-x"))
    (corpus / "there").symlink_to(elsewhere)
    (corpus / "loop").symlink_to("..")
    out = tmp_path / "rows.jsonl"
    done = run_scan(str(corpus), "--follow-links", "--jobs", "1", "--out", str(out), timeout=60)
    assert done.returncode == 0, done.stderr
    sources = sorted(Path(r["source"]).name for r in jsonl_rows(out) if not r["error"])
    assert sources == ["a.sse", "b.sse"]  # elsewhere once, though two links lead to it


def test_an_index_line_pointing_out_of_its_folder_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "record"
    record.mkdir()
    (tmp_path / "secret.sse").write_bytes(openai("gpt-secret"))
    (record / "1.sse").write_bytes(openai("gpt-x"))
    (record / "out.sse").symlink_to(tmp_path / "secret.sse")
    lines = [
        {"file": "1.sse"},
        {"file": "../secret.sse"},
        {"file": str(tmp_path / "secret.sse")},
        {"file": "out.sse"},
        {"file": "."},
    ]
    (record / "index.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "rows.jsonl"
    done = run_scan(str(record), "--jobs", "1", "--out", str(out), timeout=60)
    assert done.returncode == 0, done.stderr
    rows = jsonl_rows(out)
    assert [r["model"] for r in rows if not r["error"]] == ["gpt-x"]
    index = record / "index.jsonl"
    errors = {r["source"]: r["error"] for r in rows if r["error"]}
    assert (
        errors[f"{index}:2"] == "the index line names a file outside its folder ('../secret.sse')"
    )
    assert errors[f"{index}:3"].startswith("the index line names a file outside its folder")
    assert errors[f"{index}:4"].startswith("the index line names a link out of its folder")
    assert errors[f"{index}:5"] == "the index line names a file outside its folder ('.')"


def test_each_file_is_read_to_the_limit_and_the_rest_counted(tmp_path: Path) -> None:
    from ssescope.scan.engines.shards import FileShard, connect, judge_shard

    big = openai("gpt-x") * 50
    (tmp_path / "big.sse").write_bytes(big)
    (tmp_path / "small.sse").write_bytes(openai("gpt-x"))
    shard = FileShard((str(tmp_path / "big.sse"), str(tmp_path / "small.sse")), limit=1000)
    con = connect(threads=1)
    try:
        rows = [row for batch in judge_shard(shard, con) for row in batch.to_pylist()]
    finally:
        con.close()
    assert [(r["bytes"], r["unread_bytes"]) for r in rows] == [
        (1000, len(big) - 1000),
        (len(openai("gpt-x")), None),
    ]


def test_large_files_are_judged_by_their_first_64_mib_in_bounded_memory(tmp_path: Path) -> None:
    line = openai("gpt-x", done=False)
    block = line * ((1 << 20) // len(line))
    for n in range(3):
        with (tmp_path / f"{n}.sse").open("wb") as file:
            for _ in range(80):  # 80 MiB each
                file.write(block)
    out = tmp_path / "rows.jsonl"
    done = run_scan(
        str(tmp_path), "--jobs", "1", "--out", str(out), "--json", timeout=300,
        preexec_fn=_no_more_than(2560),
    )  # fmt: skip
    # (a limit of address space, not of resident memory: DuckDB's and Arrow's reservations
    # and a coverage tracer count too, so it sits well above what the judging needs)
    assert done.returncode == 0, done.stderr
    rows = jsonl_rows(out)
    found = [(r["bytes"], r["unread_bytes"], r["error"], r["status"]) for r in rows]
    assert len(rows) == 3 and all(r["bytes"] == 64 << 20 for r in rows), found
    assert all(r["unread_bytes"] == 80 * len(block) - (64 << 20) for r in rows)
    assert json.loads(done.stdout)["inputs_cut"] == 3


def _corpus_of(tmp_path: Path, count: int) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for n in range(count):
        (corpus / f"{n:05}.sse").write_bytes(openai("gpt-x", done=n % 2 == 0))
    return corpus


@pytest.mark.parametrize("suffix", [".jsonl", ".csv", ".parquet"])
def test_an_interrupted_scan_writes_a_marked_partial_output_and_never_a_half_one(
    tmp_path: Path, suffix: str
) -> None:
    from ssescope.scan import ScanInterrupted, scan

    corpus = _corpus_of(tmp_path, 40)
    out = tmp_path / f"rows{suffix}"
    out.write_text("an earlier scan")  # left as it is: it is not this scan's
    calls = []

    def interrupt(done: int, total: int | None) -> None:
        calls.append(done)
        raise KeyboardInterrupt

    with pytest.raises(ScanInterrupted) as caught:
        scan([str(corpus)], out=out, jobs=1, on_progress=interrupt)
    result = caught.value.result
    assert result.partial and result.inputs_read == calls[0] and result.inputs == 40
    assert result.summary["partial"] == {"inputs_read": calls[0], "inputs": 40}
    assert out.read_text() == "an earlier scan"
    partial = tmp_path / f"rows.partial{suffix}"
    if suffix == ".parquet":
        table = pq.read_table(partial)
        meta = pq.read_metadata(partial).metadata
        assert meta[b"ssescope.partial"] == b"true"
        assert meta[b"ssescope.inputs_read"] == str(calls[0]).encode()
        count = table.num_rows
    elif suffix == ".jsonl":
        count = len(jsonl_rows(partial))
    else:
        count = len(partial.read_text().splitlines()) - 1
    assert 0 < count == result.rows == calls[0] < 40
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no leftovers


def _plain(shown: bytes) -> bytes:
    """What a terminal shows, without its escape sequences (colours, cursor moves)."""
    import re

    return re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", shown)


class _Terminal:
    """The master side of a pseudo-terminal, read by a thread of its own until the other
    side closes: what is written to the terminal never fills its buffer (about 20 kB),
    which would block the writer (a progress bar, redrawn ten times a second)."""

    def __init__(self) -> None:
        import pty
        import threading

        self.master, self.slave = pty.openpty()
        self._chunks: list[bytes] = []
        self._thread = threading.Thread(target=self._read, daemon=True)

    def start(self) -> None:
        """Read from now on (the slave side, given to the child, is closed here)."""
        os.close(self.slave)
        self._thread.start()

    def _read(self) -> None:
        with contextlib.suppress(OSError):  # EIO once the other end is closed
            while chunk := os.read(self.master, 65536):
                self._chunks.append(chunk)

    def text(self) -> bytes:
        """What was shown so far."""
        return b"".join(self._chunks)

    def close(self) -> bytes:
        """Wait for the other end to close (the child is gone), then close; all shown."""
        self._thread.join(timeout=10)
        os.close(self.master)
        return self.text()


def test_ctrl_c_on_a_pooled_scan_exits_130_with_the_partial_rows(tmp_path: Path) -> None:
    import re
    import signal
    import time

    # Large enough that the scan is far from its end when the first progress shows, even
    # on a quiet machine: a tenth of it is scanned in under 2 s, and the interrupt came late.
    count = 40_000
    corpus = _corpus_of(tmp_path, count)
    out = tmp_path / "rows.jsonl"
    terminal = _Terminal()
    env = {**os.environ, "PYTHONPATH": str(Path(ssescope.__file__).parents[1]), "COLUMNS": "120"}

    def default_ctrl_c() -> None:
        # A job a shell starts in the background inherits SIGINT ignored, and Python then
        # never turns it into KeyboardInterrupt: the scan would run to its end (exit 0).
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    proc = subprocess.Popen(
        [sys.executable, "-m", "ssescope", "scan", str(corpus), "--jobs", "2", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=terminal.slave,
        stdin=subprocess.DEVNULL,
        env=env,
        start_new_session=True,  # its own process group, as a terminal's foreground job
        preexec_fn=default_ctrl_c,  # noqa: PLW1509 (the child has no threads yet)
    )
    terminal.start()
    stdout = b""
    try:
        deadline = time.monotonic() + 120
        # the progress column "done/total", its colours taken out
        progress = re.compile(rb"(?<![0-9])[1-9][0-9]*/40000")
        while not progress.search(_plain(terminal.text())) and proc.poll() is None:
            assert time.monotonic() < deadline, f"no progress shown: {terminal.text()!r}"
            time.sleep(0.05)
        assert proc.poll() is None, f"the scan ended before it was interrupted: {terminal.text()!r}"
        os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the scan, its fork server, its workers
        with contextlib.suppress(subprocess.TimeoutExpired):
            stdout, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
        shown = terminal.close()
    said = f"stdout: {stdout.decode(errors='replace')!r}; terminal: {shown[-2000:]!r}"
    assert proc.returncode != -signal.SIGKILL, f"the scan did not end within 60 s; {said}"
    assert proc.returncode == 130, said
    assert not out.exists()
    rows = jsonl_rows(tmp_path / "rows.partial.jsonl")
    assert 0 < len(rows) < count
    text = shown.decode(errors="replace")
    assert f"interrupted after {len(rows):,} inputs" in text
    assert f"the rows read so far are in {tmp_path / 'rows.partial.jsonl'}" in text
    assert "interrupted: " in stdout.decode() and f"of {count:,} inputs read" in stdout.decode()
