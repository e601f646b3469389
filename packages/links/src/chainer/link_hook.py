"""LinkHook: callbacks run around the forward computation of links."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chainer.link import Link

_thread_local = threading.local()


def get_link_hooks() -> OrderedDict[str, LinkHook]:
    """Return the link hooks registered globally (``with hook:``) in this thread."""
    try:
        return _thread_local.link_hooks
    except AttributeError:
        hooks = _thread_local.link_hooks = OrderedDict()
        return hooks


class _ForwardPreprocessCallbackArgs:
    """What :meth:`LinkHook.forward_preprocess` receives.

    Attributes:
        link: the link being called.
        forward_name: the name of the method being run (``'forward'``).
        args: the positional arguments.
        kwargs: the keyword arguments.
    """

    def __init__(self, link: Link, forward_name: str, args: tuple[Any, ...],
                 kwargs: dict[str, Any]) -> None:
        self.link = link
        self.forward_name = forward_name
        self.args = args
        self.kwargs = kwargs


class _ForwardPostprocessCallbackArgs(_ForwardPreprocessCallbackArgs):
    """What :meth:`LinkHook.forward_postprocess` receives (adds ``out``, the result)."""

    def __init__(self, link: Link, forward_name: str, args: tuple[Any, ...],
                 kwargs: dict[str, Any], out: Any) -> None:
        super().__init__(link, forward_name, args, kwargs)
        self.out = out


class LinkHook:
    """Base class of link hooks.

    A hook is either registered on one link with :meth:`chainer.Link.add_hook`
    or, used as a context manager (``with hook:``), on every link called in
    the block (in this thread). Subclasses override :meth:`forward_preprocess`
    and :meth:`forward_postprocess`.

    Attributes:
        name: the default registration name.
    """

    name = 'LinkHook'

    def __enter__(self) -> LinkHook:
        hooks = get_link_hooks()
        if self.name in hooks:
            raise KeyError(f'hook {self.name} already exists')
        self.added(None)  # may refuse a global registration: then nothing is registered
        hooks[self.name] = self
        return self

    def __exit__(self, *exc: object) -> None:
        hooks = get_link_hooks()
        hooks[self.name].deleted(None)
        del hooks[self.name]

    def added(self, link: Link | None) -> None:
        """Called when the hook is registered (``link`` is None for a global one)."""

    def deleted(self, link: Link | None) -> None:
        """Called when the hook is unregistered (``link`` is None for a global one)."""

    def forward_preprocess(self, args: _ForwardPreprocessCallbackArgs) -> None:
        """Called before the forward computation of a link."""

    def forward_postprocess(self, args: _ForwardPostprocessCallbackArgs) -> None:
        """Called after the forward computation of a link."""
