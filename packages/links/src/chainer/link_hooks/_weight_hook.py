"""The base of link hooks that replace a link's weight by a function of it during forward."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer.link_hook import LinkHook

if TYPE_CHECKING:
    from chainer.link import Link


def input_size(link: Link, x: Any) -> int:
    """The input size a lazily initialized ``link`` reads off its first input ``x``."""
    from chainer.links.connection.linear import Linear

    if isinstance(link, Linear):
        return int(numpy.prod(x.shape[1:], dtype=numpy.int64))
    return x.shape[1]


class WeightHook(LinkHook):
    """A link hook that runs the link with ``link.<weight_name>`` replaced by
    :meth:`transform` of it, restoring the Parameter afterwards (so the
    gradient flows to the Parameter through the transformation).

    It works only on one link at a time (``link.add_hook(hook)``); subclasses
    implement :meth:`prepare` (called once the weight is initialized) and
    :meth:`transform`.

    Args:
        weight_name: the name of the weight parameter.
        name: the hook's registration name (the class default when None).
    """

    def __init__(self, weight_name: str = 'W', name: str | None = None) -> None:
        self.weight_name = weight_name
        self._initialized = False
        self._original_weight: Any = None
        if name is not None:
            self.name = name

    def added(self, link: Link | None) -> None:
        """Check ``link`` and prepare the hook if the weight is already initialized.

        Raises:
            NotImplementedError: for a global registration (``with hook:``).
            ValueError: when the link has no parameter ``weight_name``.
        """
        if link is None:
            raise NotImplementedError(
                f'{type(self).__name__} works on one link: register it with '
                'link.add_hook(hook), not as a context manager')
        if not hasattr(link, self.weight_name):
            raise ValueError(f"{type(link).__name__} has no weight named '{self.weight_name}'")
        if getattr(link, self.weight_name).array is not None:
            self.prepare(link)
            self._initialized = True

    def deleted(self, link: Link | None) -> None:
        """Forget the state kept on ``link``."""
        self._initialized = False

    def forward_preprocess(self, cb_args: Any) -> None:
        """Replace the weight by its transformation (initializing a lazy link first)."""
        link = cb_args.link
        weight = getattr(link, self.weight_name)
        if not self._initialized:
            if weight.array is None:
                x = cb_args.args[0] if cb_args.args else next(iter(cb_args.kwargs.values()))
                link._initialize_params(input_size(link, x))
            self.prepare(link)
            self._initialized = True
        self._original_weight = weight
        setattr(link, self.weight_name, self.transform(link, weight))

    def forward_postprocess(self, cb_args: Any) -> None:
        """Put the Parameter back."""
        setattr(cb_args.link, self.weight_name, self._original_weight)
        self._original_weight = None

    def prepare(self, link: Link) -> None:
        """Set up the state of the hook on ``link`` (its weight is initialized)."""

    def transform(self, link: Link, weight: Any) -> Any:
        """The weight the link computes with (a function of the Parameter ``weight``)."""
        raise NotImplementedError
