"""The JSON form of a dataclass whose keys are its fields' names: one place for the
``to_dict`` of every Report section (and source record) that lists its fields as they are.

A ``to_dict`` that lists fields (and properties) by their own names calls
:func:`field_dict`, giving the values it converts; one that renames keys writes its
dictionary by hand.
"""

from __future__ import annotations

from dataclasses import fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

__all__ = ["field_dict", "field_names"]

_NAMES: dict[type, tuple[str, ...]] = {}
"""Each dataclass's field names, read once."""


def field_names(cls: type[DataclassInstance]) -> tuple[str, ...]:
    """The names of the fields of dataclass ``cls``, in their order (read once per class)."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in fields(cls))
    return names


def field_dict(
    obj: DataclassInstance, names: tuple[str, ...] | None = None, /, **values: Any
) -> dict[str, Any]:
    """``{name: value}`` of each field of ``obj`` (or of each attribute of ``names``), in
    order: the value of the same name in ``values`` where it has one (a nested section's
    JSON form, a copy of a list), else the attribute as it is. Each name in ``values``
    is one of those keys: the form has no other."""
    keys = field_names(type(obj)) if names is None else names
    if not values:
        return {name: getattr(obj, name) for name in keys}
    return {name: values[name] if name in values else getattr(obj, name) for name in keys}
