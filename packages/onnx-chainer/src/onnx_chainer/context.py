"""The naming state of one export: which tensor each variable is, the parameters and
constants converters add."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy
import onnx
import onnx.helper
import onnx.numpy_helper
from onnx import NodeProto

import chainer
from onnx_chainer.onnx_helper import cleanse_param_name, to_numpy

if TYPE_CHECKING:
    from chainer.types import ScalarValue, VariableOrArray
    from chainer.variable import VariableNode


class Context:
    """Names and tensors shared by the converters of one export.

    Args:
        model: the exported link (its parameters and persistent values get the names
            ``param_<path>``, e.g. ``param_bn_avg_mean``).
        opset_version: the opset of the export (None: the newest); before opset 9
            ``Constant`` holds only floats, so :meth:`add_const` makes other constants
            initializers there.
    """

    def __init__(self, model: Callable[..., Any], opset_version: int | None = None):
        self.func_name = ''
        self.opset_version = opset_version
        self.initializers: dict[str, numpy.ndarray] = {}
        self.model_param_names: set[str] = set()
        self._names_by_node: dict[int, str] = {}
        self._names_by_array: dict[int, str] = {}
        self._arrays_by_name: dict[str, Any] = {}
        self._const_nodes: list[NodeProto] = []
        self._used: set[str] = set()
        if isinstance(model, chainer.Link):
            for path, param in model.namedparams():
                if param.array is not None:
                    self._register_model_array(path, param.array)
            for path, value in _named_persistents(model):
                self._register_model_array(path, value)

    def _register_model_array(self, path: str, array: Any) -> None:
        if isinstance(array, (numpy.ndarray, numpy.generic)) or hasattr(array, 'shape'):
            name = cleanse_param_name(path)
            self._names_by_array[id(array)] = name
            self._arrays_by_name[name] = array

    # -- variables -------------------------------------------------------------
    def set_name(self, variable: chainer.Variable | VariableNode, name: str) -> None:
        """Give ``variable`` (a Variable or its node) the tensor name ``name``."""
        self._names_by_node[id(_node_of(variable))] = name
        self._used.add(name)

    def get_name(self, variable: chainer.Variable | VariableNode) -> str:
        """The tensor name of ``variable`` (a Variable or its node).

        Raises:
            KeyError: when the variable is not part of the exported graph.
        """
        node = _node_of(variable)
        try:
            return self._names_by_node[id(node)]
        except KeyError:
            raise KeyError(f'the variable {getattr(node, "name", None) or node!r} is not '
                           'part of the exported graph') from None

    def has_name(self, variable: chainer.Variable | VariableNode) -> bool:
        """Whether ``variable`` already has a tensor name."""
        return id(_node_of(variable)) in self._names_by_node

    def model_param_name(self, array: object) -> str | None:
        """The ``param_<path>`` name when ``array`` is a parameter or persistent value of
        the model, else None (for any other value: looked up by identity)."""
        return self._names_by_array.get(id(array))

    def model_array(self, name: str) -> Any:
        """The parameter or persistent array of the model named ``name``
        (``param_<path>``), or None."""
        return self._arrays_by_name.get(name)

    def unique(self, name: str) -> str:
        """``name``, or ``name_<n>`` when it is taken."""
        candidate, n = name, 1
        while candidate in self._used:
            candidate = f'{name}_{n}'
            n += 1
        self._used.add(candidate)
        return candidate

    # -- tensors converters add -----------------------------------------------------
    def add_param(self, array: VariableOrArray | ScalarValue, name: str,
                  use_original_name: bool = False) -> str:
        """Add ``array`` as an initializer and return its tensor name.

        A parameter or persistent value of the model keeps its ``param_<path>`` name;
        any other array is named ``<function>_param_<name>`` (or ``name`` with
        ``use_original_name``).
        """
        model_name = self.model_param_name(array)
        if model_name is not None:
            if model_name not in self.initializers:
                self.initializers[model_name] = to_numpy(array)
                self.model_param_names.add(model_name)
            return model_name
        tensor_name = name if use_original_name else f'{self.func_name}_param_{name}'
        if tensor_name in self.initializers and use_original_name:
            return tensor_name
        tensor_name = self.unique(tensor_name)
        self.initializers[tensor_name] = to_numpy(array)
        return tensor_name

    def add_const(self, array: VariableOrArray | ScalarValue, name: str) -> str:
        """Add a ``Constant`` node holding ``array`` and return its output's name
        (``<function>_const_<name>``).

        Before opset 9 a ``Constant`` holds floats only: an integer or boolean array is
        then a float64 ``Constant`` (exact for integers up to 2**53) cast to its dtype.
        """
        value = to_numpy(array)
        tensor_name = self.unique(f'{self.func_name}_const_{name}')
        if (self.opset_version is not None and self.opset_version < 9
                and value.dtype.kind != 'f'):
            if value.dtype.kind in 'iu' and value.size and numpy.abs(value).max() > 2**53:
                self.initializers[tensor_name] = value  # not exact as a float: as data
                return tensor_name
            as_float = f'{tensor_name}_float'
            self._const_nodes.append(onnx.helper.make_node(
                'Constant', [], [as_float], name=as_float,
                value=onnx.numpy_helper.from_array(value.astype(numpy.float64), as_float)))
            self._const_nodes.append(onnx.helper.make_node(
                'Cast', [as_float], [tensor_name], name=tensor_name,
                to=onnx.helper.np_dtype_to_tensor_dtype(value.dtype)))
            return tensor_name
        tensor = onnx.numpy_helper.from_array(value, tensor_name)
        self._const_nodes.append(onnx.helper.make_node(
            'Constant', [], [tensor_name], name=tensor_name, value=tensor))
        return tensor_name

    def take_const_nodes(self) -> list[NodeProto]:
        """The Constant nodes added since the last call."""
        nodes, self._const_nodes = self._const_nodes, []
        return nodes


def _node_of(variable: chainer.Variable | VariableNode) -> VariableNode:
    return variable.node if isinstance(variable, chainer.Variable) else variable


def _named_persistents(link: Any) -> list[tuple[str, Any]]:
    """``(path, value)`` of every persistent array of ``link`` and its children."""
    found = []
    for path, sub in link.namedlinks():
        for name in sorted(getattr(sub, '_persistent', ())):
            value = sub.__dict__.get(name)
            if value is not None and hasattr(value, 'shape'):
                prefix = '' if path == '/' else path
                found.append((f'{prefix}/{name}', value))
    return found
