"""Trainer extensions: the base class, the decorator and the priorities."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from types import TracebackType

    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer
    from chainer.training.util import TriggerSpec

PRIORITY_WRITER = 300
"""Priority of extensions that write values into the observation (run first)."""
PRIORITY_EDITOR = 200
"""Priority of extensions that edit values already in the observation."""
PRIORITY_READER = 100
"""Priority of extensions that only read the observation (run last)."""


class Extension:
    """Base class of trainer extensions.

    An extension is a callable invoked as ``extension(trainer)`` whenever its
    trigger fires during :meth:`chainer.training.Trainer.run`.

    Attributes:
        trigger: Default trigger, used when :meth:`Trainer.extend` is given
            none: ``(1, 'iteration')``.
        priority: Default priority, :data:`PRIORITY_READER`. Extensions with
            higher priority run first within an iteration.
        name: Name under which the trainer registered the extension (set by
            :meth:`Trainer.extend`).
    """

    trigger: TriggerSpec = (1, 'iteration')
    priority: int = PRIORITY_READER
    name: str | None = None

    @property
    def default_name(self) -> str:
        """Name used when none is given to :meth:`Trainer.extend`: the class name."""
        return type(self).__name__

    def __call__(self, trainer: Trainer) -> Any:
        """Run the extension on ``trainer``.

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement __call__')

    def finalize(self) -> None:
        """Called once at the end of :meth:`Trainer.run` (no-op by default)."""

    def initialize(self, trainer: Trainer) -> None:
        """Called once at the start of :meth:`Trainer.run`, also on resume (no-op)."""

    def on_error(self, trainer: Trainer, exc: BaseException, tb: TracebackType | None) -> None:
        """Called when the training loop raises ``exc`` with traceback ``tb`` (no-op)."""

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the state of the extension (no-op by default)."""


def make_extension(
    trigger: TriggerSpec | None = None,
    default_name: str | None = None,
    priority: int | None = None,
    finalizer: Callable[[], Any] | None = None,
    initializer: Callable[[Any], Any] | None = None,
    on_error: Callable[[Any, BaseException, Any], Any] | None = None,
    **kwargs: Any,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator that turns a function ``f(trainer)`` into an extension.

    The function gets the attributes the trainer looks for.

    Args:
        trigger: Default trigger (``(1, 'iteration')`` when ``None``).
        default_name: Default name (the function name when ``None``).
        priority: Default priority (:data:`PRIORITY_READER` when ``None``).
        finalizer: Called without arguments at the end of training.
        initializer: Called with the trainer at the start of training.
        on_error: Called as ``on_error(trainer, exc, tb)`` when training fails.

    Returns:
        A decorator returning the same function with those attributes set.

    Raises:
        ValueError: for ``invoke_before_training``, removed in Chainer v2 (register
            the extension with ``trainer.extend(..., call_before_training=True)``).
        TypeError: for another unknown keyword argument.
    """
    if 'invoke_before_training' in kwargs:
        raise ValueError(
            'make_extension: invoke_before_training was removed; use '
            'trainer.extend(extension, call_before_training=True) instead')
    if kwargs:
        raise TypeError(f'make_extension got unexpected keyword arguments: {sorted(kwargs)}')
    if trigger is None:
        trigger = Extension.trigger
    if priority is None:
        priority = Extension.priority

    def decorator(ext: Callable[..., Any]) -> Callable[..., Any]:
        # a plain function becomes an extension by carrying the attributes
        target: Any = ext  # (a function object takes any attribute)
        target.trigger = trigger
        target.default_name = default_name or ext.__name__
        target.priority = priority
        target.finalize = finalizer
        target.initialize = initializer
        target.on_error = on_error
        return ext

    return decorator
