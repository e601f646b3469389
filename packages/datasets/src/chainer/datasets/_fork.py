"""Let datasets holding open files fix them up in a forked child process.

A forked child shares its parent's open file descriptions, and with them the file
offsets: a child seeking and reading would move the parent's position under its feet.
Datasets registered here get their ``_after_fork()`` method called in the child.
"""

from __future__ import annotations

import os
import weakref
from typing import Any

_registered: weakref.WeakSet[Any] = weakref.WeakSet()


def _after_fork_in_child() -> None:
    for item in list(_registered):
        item._after_fork()


if hasattr(os, 'register_at_fork'):
    os.register_at_fork(after_in_child=_after_fork_in_child)


def register(item: Any) -> None:
    """Call ``item._after_fork()`` in every child forked while ``item`` is alive."""
    _registered.add(item)
