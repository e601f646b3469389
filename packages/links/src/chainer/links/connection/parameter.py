"""Parameter: a link that holds one array as its parameter ``W``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.link import Link
from chainer.variable import Parameter as _Parameter

if TYPE_CHECKING:
    from chainer.types import NdArray



class Parameter(Link):
    """A link with one parameter ``W`` initialized with ``array``; calling it returns ``W``.

    Args:
        array: the initial array (NumPy or CuPy; the link is placed on its device).
    """

    def __init__(self, array: NdArray) -> None:
        super().__init__()
        with self.init_scope():
            self.W = _Parameter(array)
        self.to_device(backend.get_device_from_array(array))

    def forward(self, volatile: object = 'off') -> _Parameter:
        """Return the parameter ``W`` (``volatile`` is accepted and ignored)."""
        del volatile
        return self.W
