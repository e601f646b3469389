"""The ``get_error``/``is_available``/``check_available`` trio of a testing module that
needs an optional import (v7's ``chainer.testing.attr`` and ``chainer.testing.training``),
and the error of a helper whose distribution is missing."""

from __future__ import annotations

from collections.abc import Callable


def availability(module: str, try_import: Callable[[], object], what: str
                 ) -> tuple[Callable[[], ImportError | None], Callable[[], bool],
                            Callable[[], None]]:
    """The functions ``(get_error, is_available, check_available)`` of ``module``.

    Args:
        module: the name of the module the functions belong to (its ``__name__``).
        try_import: runs the import the module needs (raising ImportError without it).
        what: what ``try_import`` imports, in words, for the docstrings.
    """

    def get_error() -> ImportError | None:
        try:
            try_import()
        except ImportError as e:
            return e
        return None

    def is_available() -> bool:
        return get_error() is None

    def check_available() -> None:
        error = get_error()
        if error is not None:
            raise RuntimeError(f'{module} is not available.\n\n'
                               f'Reason: {type(error).__name__}: {error}')

    get_error.__doc__ = f'The error met importing {what}, or None.'
    is_available.__doc__ = f'Whether this module can be used ({what} can be imported).'
    check_available.__doc__ = (f'Raise RuntimeError, giving the reason, when {what} cannot '
                               'be imported.')
    for f in (get_error, is_available, check_available):
        f.__module__ = module
        f.__qualname__ = f.__name__
    return get_error, is_available, check_available


def missing_distribution(helper: str, distribution: str, error: ImportError
                         ) -> ModuleNotFoundError:
    """The error raised by the testing helper ``helper`` when ``distribution`` (a higher
    distribution of the ``testing`` extra, e.g. chainer-serializers) cannot be imported."""
    return ModuleNotFoundError(
        f'{helper} needs {distribution}, which cannot be imported ({error}): '
        f'pip install {distribution} (or "chainer-autograd-core[testing]")',
        name=error.name)
