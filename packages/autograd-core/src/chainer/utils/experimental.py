"""Marking APIs as experimental."""

from __future__ import annotations

import warnings

import chainer


def experimental(api_name: str) -> None:
    """Declare that ``api_name`` is experimental: give a ``FutureWarning``.

    Call it at the start of the experimental function (or ``__init__``). The
    warning is not given when ``chainer.disable_experimental_feature_warning``
    is True (also set by ``CHAINER_DISABLE_EXPERIMENTAL_FEATURE_WARNING=1``).

    Args:
        api_name: the name shown in the warning, e.g. ``'chainer.foo.bar.f'``.
    """
    if getattr(chainer, 'disable_experimental_feature_warning', False):
        return
    warnings.warn(f'{api_name} is experimental. The interface can change in the future.',
                  FutureWarning, stacklevel=3)
