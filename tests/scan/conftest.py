"""A corpus for the scan tests: the real streams, random cuts of them, HARs, a capture."""

from __future__ import annotations

import gc
import os
import random
import shutil
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory tree: every real stream, two random cuts of each, the HAR fixtures,
    a capture, a hidden file and one dangling link (an input that cannot be read)."""
    from scan_helpers import CONTAINERS, STREAMS, stream_files

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
    (root / "gone.sse").symlink_to(root / "no-such-target.sse")
    (root / ".hidden.sse").write_bytes(b"data: hidden\n\n")
    return root


@pytest.fixture(scope="module")
def ray_local() -> Iterator[Any]:
    """One local Ray for the module that uses it (two CPUs), this tree's code on its path;
    shut down after it, so that its processes do not idle through the rest of the run."""
    import ray
    import ray.data

    src = str(Path(__file__).resolve().parents[2] / "src")
    path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH")) if p)
    ray.init(
        num_cpus=2,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
        runtime_env={"env_vars": {"PYTHONPATH": path}},
    )
    yield ray
    ray.shutdown()
    # connections Ray leaves to the garbage collector are closed here, not in a later test
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()
