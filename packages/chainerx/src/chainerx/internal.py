"""chainerx's internal API: what the ``chainer`` distributions use of chainerx beyond
ChainerX's public v7 API.

Not for user programs. Chainer's integration (``chainer.backend``'s ChainerX devices and
``chainer.Variable`` over ChainerX arrays) runs Chainer's functions on the NumPy/CuPy
arrays behind ChainerX arrays; it imports these names from here, never from chainerx's
private modules. They change only with a minor version of chainerx (8.0 -> 8.1), listed
under "Internal API" in its CHANGELOG.

Names:

- :func:`backing`: the NumPy/CuPy array behind a ChainerX array (the same memory).
- :func:`wrap`: a ChainerX array over a NumPy/CuPy array of a device (the same memory,
  in no graph).
"""

from __future__ import annotations

from chainerx._backing import backing, wrap

__all__ = ['backing', 'wrap']
