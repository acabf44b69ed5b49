"""Heavy resources (Chromium, a local Ray) started once and shared by the tests of a group.

A :class:`GroupResource` opens its resource when a test first asks for it and keeps it
for every later test of its group (``WORKER_GROUPS`` in ``tests/conftest.py``). The
conftest closes it as soon as the group's last test has been torn down, so that its
processes do not idle through the rest of the run, and so that Playwright's event loop
is gone before the asyncio tests that may follow on the same worker.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack
from typing import Generic, TypeVar

T = TypeVar("T")

_BY_GROUP: dict[str, list[GroupResource[object]]] = {}


class GroupResource(Generic[T]):
    """A resource of one test group: opened on first use, closed by :func:`close_group`.

    Args:
        group: the group (a key of ``WORKER_GROUPS``) whose tests share it.
        opener: returns the context manager that opens and closes the resource.
    """

    def __init__(self, group: str, opener: Callable[[], AbstractContextManager[T]]) -> None:
        self.group = group
        self.opened = 0
        self._opener = opener
        self._stack: ExitStack | None = None
        self._value: T | None = None
        _BY_GROUP.setdefault(group, []).append(self)  # type: ignore[arg-type]

    def get(self) -> T:
        """The resource, opened now if no test of the group has opened it yet."""
        if self._stack is None:
            stack = ExitStack()
            self._value = stack.enter_context(self._opener())
            self._stack = stack
            self.opened += 1
        assert self._value is not None
        return self._value

    def close(self) -> None:
        """Close the resource if it is open (the next :meth:`get` opens it again)."""
        stack, self._stack, self._value = self._stack, None, None
        if stack is not None:
            stack.close()


def close_group(group: str | None) -> None:
    """Close every resource of ``group`` that is open (all groups' when ``group`` is None)."""
    groups = list(_BY_GROUP) if group is None else [group]
    for name in groups:
        for resource in _BY_GROUP.get(name, []):
            resource.close()
