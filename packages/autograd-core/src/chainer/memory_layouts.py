"""Names of the memory layouts of Chainer v7 (an experimental cuDNN feature).

Chainer v7 could store the arrays of some variables in a cuDNN channel-last
order while keeping their semantic (channel-first) shape. This project keeps
every array in the standard layout: :attr:`chainer.Variable.layout` is always
None and asking for another layout raises ``ValueError``. The names below
exist so that code mentioning them still imports.
"""

from __future__ import annotations

from typing import Any

CUDNN_CHANNEL_FIRST_X = 'CUDNN_CHANNEL_FIRST_X'
CUDNN_CHANNEL_LAST_X = 'CUDNN_CHANNEL_LAST_X'
CUDNN_CHANNEL_FIRST_W = 'CUDNN_CHANNEL_FIRST_W'
CUDNN_CHANNEL_LAST_W = 'CUDNN_CHANNEL_LAST_W'


def get_raw_shape(arr_or_var: Any) -> tuple[int, ...]:
    """The shape of the stored array (the same as the semantic shape here)."""
    return tuple(getattr(arr_or_var, 'raw_array', arr_or_var).shape)


def get_semantic_shape(arr: Any, assumed_layout: Any = None) -> tuple[int, ...]:
    """The semantic shape of ``arr``.

    Raises:
        ValueError: for a layout other than None (layouts are not provided).
    """
    if assumed_layout is not None:
        raise ValueError(f'memory layout {assumed_layout!r} is not supported: only None '
                         '(the standard layout) is')
    return tuple(arr.shape)
