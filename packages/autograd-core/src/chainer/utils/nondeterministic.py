"""The warning about non-deterministic code (``chainer.utils.nondeterministic``)."""

from __future__ import annotations

import warnings

import chainer

__all__ = ['nondeterministic']


def nondeterministic(f_name: str) -> None:
    """Warn that ``f_name`` may give non-deterministic results.

    Only when ``chainer.config.warn_nondeterministic`` is True (e.g. set by
    ``CHAINER_WARN_NONDETERMINISTIC=1``).
    """
    if getattr(chainer.config, 'warn_nondeterministic', False):
        warnings.warn(f'Potentially non-deterministic code is being executed while '
                      f'config.warn_nondeterministic is set. Source: {f_name}', stacklevel=2)
