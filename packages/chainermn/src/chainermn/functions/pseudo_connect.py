"""``pseudo_connect``: tie a delegate variable into the graph of other variables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import chainer
from chainermn.functions import _utility

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray



class PseudoConnect(chainer.FunctionNode):
    """Outputs its inputs after the first unchanged; backward also sends a zero
    gradient to the first input (the delegate), so that its graph is visited."""

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self._delegate = _utility.spec(inputs[0])
        return tuple(x.view() for x in inputs[1:])

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        xp, shape, dtype = self._delegate
        return (chainer.Variable(xp.zeros(shape, dtype)), *grad_outputs)


def pseudo_connect(delegate_variable: chainer.Variable | None,
                   *actual_variables: VariableOrArray) -> tuple[chainer.Variable, ...]:
    """Return ``actual_variables`` connected to ``delegate_variable`` in the graph.

    The outputs equal ``actual_variables``; their backward also reaches
    ``delegate_variable`` (with a zero gradient), and so the communications behind it
    (e.g. the :func:`~chainermn.functions.send` that returned it). Use it to return one
    variable from a model whose graph has several unconnected pieces.

    Args:
        delegate_variable: a Variable (typically returned by ``send``), or None.
        *actual_variables: the Variables (or arrays) to pass through.

    Returns:
        A tuple of Variables, one per actual variable (``actual_variables`` themselves,
        as Variables, when ``delegate_variable`` is None).
    """
    if delegate_variable is None:
        return tuple(v if isinstance(v, chainer.Variable) else chainer.Variable(v)
                     for v in actual_variables)
    return PseudoConnect().apply((delegate_variable, *actual_variables))
