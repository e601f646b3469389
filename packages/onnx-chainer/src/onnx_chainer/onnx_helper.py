"""Small helpers over ``onnx.helper`` that converters and users share.

A converter returns ONNX ``NodeProto``\\ s. It names the tensors it produces only where
they are the function's outputs (``params.output_names``); every other tensor is a
temporary that :class:`GraphBuilder` names, and the exporter renames the temporaries to
``<function>_tmp_<n>`` and the nodes after the function, so names stay unique and
readable in the exported graph.
"""

from __future__ import annotations

import itertools
import os
import tempfile
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Literal, overload

import numpy
import onnx
import onnx.helper
import onnx.numpy_helper
from onnx import NodeProto

import chainer

if TYPE_CHECKING:
    from chainer.types import ScalarValue, VariableOrArray

# prefix of the names GraphBuilder gives temporaries; the exporter renames them
TEMP_PREFIX = '__onnx_chainer_tmp_'
_temp_ids = itertools.count()


def _temp_name() -> str:
    return f'{TEMP_PREFIX}{next(_temp_ids)}'


def make_node(op_type: str, inputs: Sequence[str], outputs: Sequence[str] | int,
              name: str | None = None, domain: str | None = None,
              **attributes: Any) -> NodeProto:
    """Make an ONNX node, as ``onnx.helper.make_node`` does.

    Args:
        op_type: the operator (``'Relu'``).
        inputs: the names of its input tensors (``''`` for an absent optional input).
        outputs: the names of its outputs, or their number (then temporaries are named).
        name: the node's name (the exporter sets one when None).
        domain: the operator set's domain (None: the default ONNX domain).
        **attributes: the operator's attributes; None values are left out.

    Returns:
        The ``onnx.NodeProto``.
    """
    if isinstance(outputs, int):
        outputs = [_temp_name() for _ in range(outputs)]
    attributes = {k: v for k, v in attributes.items() if v is not None}
    return onnx.helper.make_node(op_type, list(inputs), list(outputs), name=name,
                                 domain=domain, **attributes)


class GraphBuilder:
    """Collects the nodes of one converter, naming the temporaries between them.

    >>> gb = GraphBuilder()
    >>> t = gb.op('Shape', ['x'])
    >>> _ = gb.op_output_named('Relu', ['x'], ['y'])
    >>> [n.op_type for n in gb.nodes()]
    ['Shape', 'Relu']
    """

    def __init__(self) -> None:
        self._nodes: list[NodeProto] = []

    @overload
    def op(self, op_type: str, inputs: Sequence[str], num_outputs: Literal[1] = 1,
           **attributes: Any) -> str: ...

    @overload
    def op(self, op_type: str, inputs: Sequence[str], num_outputs: int,
           **attributes: Any) -> str | tuple[str, ...]: ...

    def op(self, op_type: str, inputs: Sequence[str], num_outputs: int = 1,
           **attributes: Any) -> str | tuple[str, ...]:
        """Add a node whose outputs are temporaries.

        Returns:
            The name of its output, or a tuple of names when ``num_outputs`` > 1
            (:meth:`ops` always returns a tuple).
        """
        outs = self.ops(op_type, inputs, num_outputs, **attributes)
        return outs[0] if num_outputs == 1 else outs

    def ops(self, op_type: str, inputs: Sequence[str], num_outputs: int,
            **attributes: Any) -> tuple[str, ...]:
        """Add a node with ``num_outputs`` temporary outputs; returns their names."""
        node = make_node(op_type, inputs, num_outputs, **attributes)
        self._nodes.append(node)
        return tuple(node.output)

    def op_output_named(self, op_type: str, inputs: Sequence[str],
                        output_names: Sequence[str], **attributes: Any) -> NodeProto:
        """Add a node writing the tensors ``output_names`` (the function's outputs)."""
        node = make_node(op_type, inputs, output_names, **attributes)
        self._nodes.append(node)
        return node

    def nodes(self, output_names: Sequence[str] | None = None) -> tuple[NodeProto, ...]:
        """The nodes added so far, in order.

        Args:
            output_names: when given, the last node's outputs are renamed to these (for
                a converter whose last :meth:`op` makes the function's outputs).
        """
        if output_names is not None and self._nodes:
            last = self._nodes[-1]
            if len(last.output) != len(output_names):
                raise ValueError(f'the last node ({last.op_type}) has {len(last.output)} '
                                 f'outputs, not {len(output_names)}')
            renames = dict(zip(last.output, output_names))
            for node in self._nodes:
                for i, name in enumerate(node.input):
                    if name in renames:
                        node.input[i] = renames[name]
            del last.output[:]
            last.output.extend(output_names)
        return tuple(self._nodes)


def write_tensor_pb(filename: str | os.PathLike[str], name: str,
                    value: VariableOrArray | ScalarValue) -> None:
    """Write the array ``value`` as an ONNX ``TensorProto`` named ``name`` to ``filename``.

    The file is written atomically (a temporary file in the same folder, then a rename).
    """
    array = to_numpy(value)
    tensor = onnx.numpy_helper.from_array(array, name)
    write_bytes_atomic(filename, tensor.SerializeToString())


def write_bytes_atomic(filename: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``filename`` through a temporary file and a rename."""
    folder = os.path.dirname(os.path.abspath(filename))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix='.tmp-')
    try:
        with os.fdopen(fd, 'wb') as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, filename)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def to_numpy(value: VariableOrArray | ScalarValue) -> numpy.ndarray:
    """A host NumPy copy of an array, a Variable or a scalar."""
    if isinstance(value, chainer.Variable):
        value = value.array
    return numpy.asarray(chainer.backend.CpuDevice().send(value))


def is_support_non_standard_domain() -> bool:
    """True: the installed onnx checks models whose nodes use other operator domains."""
    return True


def cleanse_param_name(name: str) -> str:
    """A parameter's path (``/l1/W``) as a tensor name (``param_l1_W``)."""
    return 'param' + name.replace('/', '_')


def nodes_of(converted: NodeProto | Iterable[NodeProto] | None) -> list[NodeProto]:
    """A converter's return value (a node, an iterable of nodes, or None) as a list."""
    if converted is None:
        return []
    if isinstance(converted, NodeProto):
        return [converted]
    return list(converted)
