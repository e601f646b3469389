"""Integer arguments as programs pass them: Python ints, NumPy integers and 0-d integer
arrays (what :func:`operator.index` takes), ``bool`` excluded.

The one definition the distributions share: chainer-datasets (sizes, indexes, batch
sizes) and chainer-autograd-core (``chainer.utils.numeric_args``) both build on it. The
helpers take any value (typed ``Any``): telling whether it is an integer is their job.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy

_BOOLS = (bool, numpy.bool_)


def to_int(value: Any) -> int | None:
    """``value`` as a Python int when it is an integer, else None.

    >>> import numpy as np
    >>> to_int(np.int64(3)), to_int(np.array(4)), to_int(True), to_int(2.0)
    (3, 4, None, None)
    """
    if type(value) is int:
        return value
    if isinstance(value, _BOOLS):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def is_int(value: Any) -> bool:
    """Whether ``value`` is an integer (see :func:`to_int`)."""
    return to_int(value) is not None
