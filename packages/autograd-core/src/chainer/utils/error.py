"""Exception classes for bad arguments that Chainer v7 reported with ``assert``.

Chainer v7 checked some arguments with ``assert`` statements, so code written
for it may catch ``AssertionError``. The checks here raise the natural class
(``ValueError`` or ``TypeError``) with a message naming the argument, through
a subclass that is also an ``AssertionError``, so both kinds of caller work
(and the checks stay on under ``python -O``).
"""

from __future__ import annotations

__all__ = ['ArgumentTypeError', 'ArgumentValueError']


class ArgumentValueError(ValueError, AssertionError):
    """A bad argument value (e.g. a tuple of the wrong length); also an AssertionError."""


class ArgumentTypeError(TypeError, AssertionError):
    """An argument of the wrong type; also an AssertionError."""
