"""TheanoFunction: v7's wrapper of a Theano function as a link. Not provided."""

from __future__ import annotations

from chainer.functions.theano.theano_function import UNSUPPORTED
from chainer.link import Link


class TheanoFunction(Link):
    """Theano function as a link (Chainer v7). Not provided: always raises.

    Args:
        inputs: the Theano input variables.
        outputs: the Theano output variables.

    Raises:
        RuntimeError: always; Theano is not supported.
    """

    def __init__(self, inputs: object, outputs: object) -> None:
        raise RuntimeError(UNSUPPORTED)
