"""TheanoFunction: v7's wrapper of a Theano function as a link. Not provided."""

from __future__ import annotations

from typing import Any

from chainer.link import Link

_MESSAGE = ('TheanoFunction is not supported: Theano is no longer maintained (its last '
            'release predates NumPy 1.26) and this Chainer does not integrate it. Write the '
            'computation with chainer.functions instead.')


class TheanoFunction(Link):
    """Theano function as a link (Chainer v7). Not provided: always raises.

    Args:
        inputs: the Theano input variables.
        outputs: the Theano output variables.

    Raises:
        RuntimeError: always; Theano is not supported.
    """

    def __init__(self, inputs: Any, outputs: Any) -> None:
        raise RuntimeError(_MESSAGE)
