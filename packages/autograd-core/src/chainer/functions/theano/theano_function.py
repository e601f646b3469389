"""TheanoFunction: v7's node that ran a compiled Theano function. Not provided."""

from __future__ import annotations

from typing import Any

from chainer.function_node import FunctionNode

#: Why Theano functions (here and ``L.TheanoFunction``) refuse to be built.
UNSUPPORTED = ('TheanoFunction is not supported: Theano is no longer maintained (its last '
            'release predates NumPy 1.26) and this Chainer does not integrate it. Write the '
            'computation with chainer.functions instead.')


class TheanoFunction(FunctionNode):
    """A compiled Theano function as a function node (Chainer v7). Not provided.

    Args:
        forward_func: the compiled forward function.
        backward_func: the compiled backward function.

    Raises:
        RuntimeError: always; Theano is not supported.
    """

    def __init__(self, forward_func: Any, backward_func: Any) -> None:
        raise RuntimeError(UNSUPPORTED)
