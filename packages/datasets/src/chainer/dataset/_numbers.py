"""NumPy-typed integers accepted wherever the datasets and iterators take an int.

chainer-datasets does not depend on chainer-autograd-core, whose
``chainer.utils.numeric_args`` does the same for the rest of the framework.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy


def to_int(value: Any) -> int | None:
    """``value`` as a Python int when it is an integer (a Python int, NumPy integer or
    0-d integer array; ``bool`` excluded), else None."""
    if type(value) is int:
        return value
    if isinstance(value, (bool, numpy.bool_)):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None
