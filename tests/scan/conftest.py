"""A corpus for the scan tests: the real streams, random cuts of them, HARs, a capture."""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

import pytest
from tests.local_ray import RAY


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory tree: every real stream, two random cuts of each, the HAR fixtures,
    captures (two of a WebSocket), a hidden file and one dangling link (an input that
    cannot be read)."""
    from tests.scan.scan_helpers import CONTAINERS, STREAMS, stream_files

    root = tmp_path_factory.mktemp("corpus")
    rng = random.Random(13)
    for path in stream_files():
        rel = path.relative_to(STREAMS)
        (root / rel.parent).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, root / rel)
        data = path.read_bytes()
        cuts = root / "cuts" / rel.parent
        cuts.mkdir(parents=True, exist_ok=True)
        for n in range(2):
            cut = rng.randrange(1, max(2, len(data)))
            (cuts / f"{rel.stem}.cut{n}{rel.suffix}").write_bytes(data[:cut])
    for name in ("chrome-eventsource-messages.har", "chrome-base64.har", "interrupted.ssecap"):
        shutil.copyfile(CONTAINERS / name, root / name)
    for name in ("devtools-websocket.har", "voice-barge-in.ssecap"):  # WebSocket captures
        shutil.copyfile(CONTAINERS.parent / "realtime" / name, root / name)
    (root / "gone.sse").symlink_to(root / "no-such-target.sse")
    (root / ".hidden.sse").write_bytes(b"data: hidden\n\n")
    return root


@pytest.fixture
def ray_local() -> Any:
    """The shared local Ray (:data:`RAY`)."""
    return RAY.get()
