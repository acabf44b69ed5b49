"""A local Ray for the ``--engine ray`` tests, started once per test run and shared.

One CPU and the smallest object store Ray accepts: the tests scan a few hundred small
files, and the machine's other cores stay with the other tests. :data:`RAY` is the
``ray_local`` fixture of ``tests/scan/conftest.py``.
"""

from __future__ import annotations

import gc
import os
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.shared import GroupResource

RAY_OBJECT_STORE = 75 * 1024 * 1024
"""The smallest object store ``ray.init`` accepts (``OBJECT_STORE_MINIMUM_MEMORY_BYTES``);
the test corpus takes a few megabytes of it."""


@contextmanager
def _local_ray() -> Iterator[Any]:
    """A local Ray on one CPU with the smallest object store, this tree's code on its path."""
    import ray
    import ray.data

    src = str(Path(__file__).resolve().parents[2] / "src")
    path = os.pathsep.join(p for p in (src, os.environ.get("PYTHONPATH")) if p)
    ray.init(
        num_cpus=1,
        object_store_memory=RAY_OBJECT_STORE,
        include_dashboard=False,
        log_to_driver=False,
        configure_logging=False,
        runtime_env={"env_vars": {"PYTHONPATH": path}},
    )
    try:
        yield ray
    finally:
        ray.shutdown()
        # connections Ray leaves to the garbage collector are closed here, not in a later test
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            gc.collect()


RAY: GroupResource[Any] = GroupResource("ray", _local_ray)
"""The one local Ray of the run: started by the first test of the ``ray`` group, shut down
after its last (tests/shared.py)."""
