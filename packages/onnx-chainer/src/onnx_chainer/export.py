"""``onnx_chainer.export``: run a model once, record its graph, convert it to ONNX."""

from __future__ import annotations

import collections
import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import IO, TYPE_CHECKING, Any, cast

import numpy
import onnx
import onnx.checker
import onnx.defs
import onnx.helper
import onnx.numpy_helper
from onnx import ModelProto, NodeProto

import chainer
from chainer.functions.math import ceil, fix, floor, minmax, sign
from onnx_chainer import _opsets
from onnx_chainer._version import __version__
from onnx_chainer.context import Context, to_numpy
from onnx_chainer.functions import converters as builtin_converters
from onnx_chainer.functions.converter import FunctionConverterParams
from onnx_chainer.onnx_helper import TEMP_PREFIX, nodes_of, write_bytes_atomic

if TYPE_CHECKING:
    from typing import TypeAlias

    from chainer.types import VariableOrArray

    # the input of the exported model: an array or Variable, or a list, tuple or dict of them
    ModelArgs: TypeAlias = (VariableOrArray | Sequence[VariableOrArray]
                            | Mapping[str, VariableOrArray])
    # one input's declared shape: an int, or a string or None for a dynamic axis, per axis
    InputShape: TypeAlias = Sequence[int | str | None]

Converter = Callable[[FunctionConverterParams], Any]
# models whose tensors pass this many bytes are saved with external data (protobuf's limit
# is 2 GiB for one message)
EXTERNAL_DATA_THRESHOLD = 2**31 - 2**26
# modules whose functions (F.sign, F.floor, F.ceil, F.fix, F.argmax, F.argmin) return their
# output cut from the graph through ``nondifferentiable``; while tracing, the node is kept
_CUT_OUTPUT_MODULES = (ceil, fix, floor, minmax, sign)


def _keep_node(node: Any, x: Any) -> chainer.Variable:
    return node.apply((x,))[0]


class RetainInputHook:
    """Keep the inputs of every function applied in its scope alive, and record the
    order the functions ran in.

    A function node holds its inputs weakly; a temporary input (an array made inside
    the model, a Variable dropped after use) would be gone when the graph is read after
    the forward pass. Inside ``with RetainInputHook() as hook:`` every function's input
    arrays are kept, and the Variables that were not passed to a link call
    (``hook.retain_inputs``) are held so that their nodes stay named.
    """

    def __init__(self) -> None:
        self.retain_inputs: list[chainer.Variable] = []
        self.link_inputs: set[int] = set()
        self.order: dict[int, int] = {}
        self.functions: list[Any] = []
        self.node_data: dict[int, tuple[Any, Any]] = {}
        self._retained: set[int] = set()
        self._saved: tuple[Any, Any] | None = None
        self._saved_cut: list[Any] = []

    def __enter__(self) -> RetainInputHook:
        apply = chainer.FunctionNode.apply
        link_call = chainer.Link.__call__
        hook = self

        def traced_apply(node: Any, inputs: Any) -> Any:
            ret = apply(node, inputs)
            if node.inputs is not None and id(node) not in hook.order:
                hook._record(node, tuple(inputs))
            return ret

        def traced_call(link: Any, *args: Any, **kwargs: Any) -> Any:
            for v in _flatten(list(args) + list(kwargs.values())):
                if isinstance(v, chainer.Variable):
                    hook.link_inputs.add(id(v))
            return link_call(link, *args, **kwargs)

        self._saved = (apply, link_call)
        chainer.FunctionNode.apply = traced_apply  # type: ignore[method-assign,assignment]
        chainer.Link.__call__ = traced_call
        self._saved_cut = [m.nondifferentiable for m in _CUT_OUTPUT_MODULES]
        for m in _CUT_OUTPUT_MODULES:
            m.nondifferentiable = _keep_node  # type: ignore[attr-defined]
        return self

    def __exit__(self, *exc: Any) -> None:
        assert self._saved is not None
        chainer.FunctionNode.apply, chainer.Link.__call__ = self._saved  # type: ignore[method-assign]
        self._saved = None
        for m, saved in zip(_CUT_OUTPUT_MODULES, self._saved_cut):
            m.nondifferentiable = saved  # type: ignore[attr-defined]

    def _record(self, func: Any, inputs: tuple[Any, ...]) -> None:
        self.order[id(func)] = len(self.functions)
        self.functions.append(func)
        for x, node in zip(inputs, func.inputs):
            if isinstance(x, chainer.Variable):
                if id(x) not in self.link_inputs and id(x) not in self._retained:
                    self._retained.add(id(x))
                    self.retain_inputs.append(x)
                array = x.array
            else:
                array = x
                if x is not None and node.get_variable_or_none() is None:
                    self.retain_inputs.append(chainer.Variable(x, requires_grad=False))
            self.node_data[id(node)] = (node, array)


def _flatten(values: Any) -> list[Any]:
    out: list[Any] = []
    stack = [values]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(reversed(v))
        elif isinstance(v, dict):
            stack.extend(reversed(list(v.values())))
        else:
            out.append(v)
    return out


# -- inputs and outputs ---------------------------------------------------------
def _as_input_variable(x: Any, what: str) -> chainer.Variable:
    if isinstance(x, chainer.Variable):
        return x
    if isinstance(x, chainer.get_array_types()):
        return chainer.Variable(cast(Any, x))
    raise TypeError(f'{what} must be an array or a chainer.Variable, not {type(x).__name__}')


def _prepare_inputs(args: Any, input_names: Any) -> tuple[list[tuple[str, chainer.Variable]],
                                                          tuple[Any, ...], dict[str, Any]]:
    """The named graph inputs, and the positional and keyword arguments of the call."""
    if isinstance(args, Mapping):
        keys = list(args)
        variables = [_as_input_variable(args[k], f'args[{k!r}]') for k in keys]
        names = _input_names(input_names, keys, len(keys))
        return list(zip(names, variables)), (), dict(zip(keys, variables))
    if isinstance(args, (list, tuple)):
        variables = [_as_input_variable(x, f'args[{i}]') for i, x in enumerate(args)]
    else:
        variables = [_as_input_variable(args, 'args')]
    names = _input_names(input_names, None, len(variables))
    return list(zip(names, variables)), tuple(variables), {}


def _input_names(given: Any, keys: list[str] | None, n: int) -> list[str]:
    if given is None:
        return [f'Input_{i}' for i in range(n)]
    if isinstance(given, Mapping):
        if keys is None:
            raise ValueError('input_names may be a dict only when args is a dict')
        missing = [k for k in given if k not in keys]
        if missing:
            raise ValueError(f'input_names names {missing}, which are not keys of args')
        return [given.get(k, f'Input_{i}') for i, k in enumerate(keys)]
    if isinstance(given, str) or len(given) != n:
        raise ValueError(f'input_names must give {n} names, one per input; got {given!r}')
    return [str(name) for name in given]


def _collect_outputs(outputs: Any, output_names: Any) -> list[tuple[str | None, Any]]:
    if isinstance(outputs, chainer.Variable):
        items: list[tuple[Any, Any]] = [(None, outputs)]
    elif isinstance(outputs, (list, tuple)):
        items = [(None, y) for y in outputs]
    elif isinstance(outputs, Mapping):
        items = list(outputs.items())
    else:
        raise RuntimeError(f'Unexpected output type from the model: {type(outputs).__name__} '
                           '(return a Variable, or a list, tuple or dict of Variables)')
    for key, y in items:
        if not isinstance(y, chainer.Variable):
            where = f' (output {key!r})' if key is not None else ''
            raise ValueError(f'The model output must be Chainer Variable, or a list, tuple or '
                             f'dict of them{where}; got {type(y).__name__}')
    if output_names is None:  # named after their functions, as in v7 (dict keys too)
        return [(None, y) for _, y in items]
    if isinstance(output_names, Mapping):
        if not isinstance(outputs, Mapping):
            raise ValueError('output_names may be a dict only when the model returns a dict')
        missing = [k for k in output_names if k not in outputs]
        if missing:
            raise ValueError(f'output_names names {missing}, which the model does not return')
        return [(output_names.get(k), y) for k, y in items]
    if isinstance(output_names, str) or len(output_names) != len(items):
        raise ValueError(f'output_names must give {len(items)} names, one per output; '
                         f'got {output_names!r}')
    return [(str(n), y) for n, (_, y) in zip(output_names, items)]


def _func_name(func: Any) -> str:
    return getattr(func, 'custom_function_node_name', None) or type(func).__name__


def _graph_functions(outputs: list[Any], input_nodes: set[int],
                     hook: RetainInputHook) -> list[Any]:
    """The recorded functions the outputs depend on, in the order they ran."""
    seen: dict[int, Any] = {}
    stack = [y.node for y in outputs]
    visited: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in visited or id(node) in input_nodes:
            continue
        visited.add(id(node))
        func = node.creator_node
        if func is None or id(func) not in hook.order or id(func) in seen:
            continue
        seen[id(func)] = func
        stack.extend(func.inputs)
    return sorted(seen.values(), key=lambda f: hook.order[id(f)])


# -- conversion -------------------------------------------------------------------
def _converter_table(external: Mapping[str, Converter] | None) -> dict[str, Converter]:
    table: dict[str, Converter] = dict(builtin_converters)
    if external:
        table.update(external)
    return table


def _rename_temporaries(nodes: list[NodeProto], label: str, outputs: list[str],
                        context: Context) -> None:
    renames: dict[str, str] = {}
    for node in nodes:
        for i, name in enumerate(node.input):
            if name in renames:
                node.input[i] = renames[name]
        for i, name in enumerate(node.output):
            if name.startswith(TEMP_PREFIX):
                new = context.unique(f'{label}_tmp_{len(renames)}')
                renames[name] = new
                node.output[i] = new
    producers = [n for n in nodes if set(n.output) & set(outputs)]
    for node in nodes:
        if node.name:
            continue
        if node in producers:
            node.name = label if len(producers) == 1 else context.unique(label)
        else:
            node.name = node.output[0] if node.output else context.unique(label)


def _is_known_op(node: NodeProto, opset: int) -> bool:
    try:
        onnx.defs.get_schema(node.op_type, opset, node.domain or '')
    except Exception:
        return False
    return True


class _Exporter:
    def __init__(self, model: Any, opset: int, converters: dict[str, Converter],
                 hook: RetainInputHook):
        self.model = model
        self.opset = opset
        self.converters = converters
        self.hook = hook
        self.context = Context(model, opset)
        self.nodes: list[NodeProto] = []

    def input_name(self, label: str, index: int, node: Any) -> str:
        ctx = self.context
        if ctx.has_name(node):
            return ctx.get_name(node)
        var = node.get_variable_or_none()
        data = self.hook.node_data.get(id(node), (None, None))[1]
        if data is None and var is not None:
            data = var.array
        if data is None:
            return ''
        param_name = ctx.model_param_name(data)
        if param_name is not None:
            name = ctx.add_param(data, param_name)
        else:
            name = ctx.unique(f'{label}_in_{index}')
            ctx.initializers[name] = to_numpy(data)
        ctx.set_name(node, name)
        return name

    def convert(self, functions: list[Any]) -> None:
        names = {_func_name(f) for f in functions}
        missing = sorted(n for n in names if n not in self.converters)
        if missing:
            raise ValueError(
                f'cannot export to ONNX (opset {self.opset}): no converter for '
                f'{", ".join(missing)}; pass external_converters={{name: converter}} to add one')
        counts: dict[str, int] = collections.Counter()
        ctx = self.context
        for func in functions:
            name = _func_name(func)
            label = f'{name}_{counts[name]}'
            counts[name] += 1
            ctx.func_name = label
            inputs = [self.input_name(label, i, n) for i, n in enumerate(func.inputs)]
            n_out = len(func.outputs)
            outputs = []
            for i, ref in enumerate(func.outputs):
                node = ref()
                if node is not None and ctx.has_name(node):
                    outputs.append(ctx.get_name(node))  # named by output_names
                    continue
                out = ctx.unique(label if n_out == 1 else f'{label}_{i}')
                if node is not None:
                    ctx.set_name(node, out)
                outputs.append(out)
            variables = [self.hook.node_data.get(id(n), (None, None))[1] for n in func.inputs]
            params = FunctionConverterParams(func, self.opset, inputs, list(outputs), ctx,
                                             variables)
            converted = nodes_of(self.converters[name](params))
            nodes = ctx.take_const_nodes() + converted
            _rename_temporaries(nodes, label, outputs, ctx)
            produced = {o for n in nodes for o in n.output}
            lacking = [o for o in outputs if o not in produced]
            if lacking:
                raise ValueError(f'the converter of {name} did not produce its outputs '
                                 f'{lacking} (opset {self.opset})')
            self.nodes.extend(nodes)


def _value_info(name: str, array: Any, shape: Sequence[Any] | None = None) -> Any:
    arr = to_numpy(array)
    dims = list(arr.shape) if shape is None else list(shape)
    elem = onnx.helper.np_dtype_to_tensor_dtype(arr.dtype)
    return onnx.helper.make_tensor_value_info(name, elem, dims)


def _input_shapes(given: Any, inputs: list[tuple[str, chainer.Variable]],
                  args: Any) -> list[Sequence[Any] | None]:
    """The declared shape of each input (``input_shapes``), checked against the inputs."""
    if given is None:
        return [None] * len(inputs)
    n = len(inputs)
    if isinstance(given, Mapping):
        if not isinstance(args, Mapping):
            raise ValueError('input_shapes may be a dict only when args is a dict')
        missing = [k for k in given if k not in args] + [k for k in args if k not in given]
        if missing:
            raise ValueError(f'input_shapes and args have different keys: {missing}')
        shapes = [given[k] for k in args]
    elif isinstance(given, tuple):
        if n != 1:
            raise ValueError(f'input_shapes gives one shape, but the model has {n} inputs')
        shapes = [given]
    elif isinstance(given, list):
        if len(given) != n:
            raise ValueError(f'input_shapes gives {len(given)} shapes for {n} inputs')
        shapes = given
    else:
        raise ValueError(f'input_shapes must be a tuple, a list of tuples or a dict of '
                         f'tuples, not {type(given).__name__}')
    for (name, var), shape in zip(inputs, shapes):
        if not isinstance(shape, (tuple, list)):
            raise ValueError(f'input_shapes for input {name!r} must be a tuple, not {shape!r}')
        if len(shape) != var.ndim:
            raise ValueError(f'input_shapes for input {name!r} has {len(shape)} axes, '
                             f'the input has {var.ndim}')
    return [list(s) for s in shapes]


def _opset_imports(opset: int, external: Mapping[str, int] | None) -> list[Any]:
    imports = [onnx.helper.make_opsetid('', opset)]
    for domain, version in (external or {}).items():
        imports.append(onnx.helper.make_opsetid(domain, version))
    return imports


def _ir_version(opset: int) -> int:
    return min(onnx.IR_VERSION, onnx.helper.find_min_ir_version_for(
        [onnx.helper.make_opsetid('', opset)]))


def _check(model: ModelProto, opset: int) -> None:
    """``onnx.checker`` on the model; custom operators only warn (their schemas are not
    known to onnx), any other failure is an error."""
    try:
        onnx.checker.check_model(model)
    except onnx.checker.ValidationError as e:
        custom = sorted({f'{n.domain + "." if n.domain else ""}{n.op_type}'
                         for n in model.graph.node if not _is_known_op(n, opset)})
        if not custom:
            raise ValueError(f'the exported model fails onnx.checker (opset {opset}): {e}') from e
        warnings.warn(f'onnx.checker could not check the model: it uses operators unknown to '
                      f'onnx ({", ".join(custom)}); {str(e).splitlines()[0]}', UserWarning,
                      stacklevel=3)


def _save(model: ModelProto, filename: str | os.PathLike[str] | IO[bytes],
          initializer_bytes: int) -> None:
    if hasattr(filename, 'write'):
        filename.write(model.SerializeToString())
        return
    path = os.fspath(filename)
    if initializer_bytes < EXTERNAL_DATA_THRESHOLD:
        write_bytes_atomic(path, model.SerializeToString())
        return
    folder = os.path.dirname(os.path.abspath(path))
    location = os.path.basename(path) + '.data'
    tmp = os.path.join(folder, f'.tmp-{os.path.basename(path)}')
    onnx.save_model(model, tmp, save_as_external_data=True, all_tensors_to_one_file=True,
                    location=location, size_threshold=1024)
    os.replace(tmp, path)


def export(model: Callable[..., Any], args: ModelArgs,
           filename: str | os.PathLike[str] | IO[bytes] | None = None,
           export_params: bool = True, graph_name: str = 'Graph', save_text: bool = False,
           opset_version: int | None = None,
           input_names: Sequence[str] | Mapping[str, str] | None = None,
           output_names: Sequence[str] | Mapping[str, str] | None = None,
           train: bool = False, return_named_inout: bool = False,
           external_converters: Mapping[str, Converter] | None = None,
           external_opset_imports: Mapping[str, int] | None = None,
           input_shapes: (tuple[int | str | None, ...] | list[InputShape]
                          | Mapping[str, InputShape] | None) = None,
           no_testcase: bool = False) -> Any:
    """Export a model (a link, or any callable of Variables) to ONNX.

    The model runs once on ``args``; the functions that compute its outputs are
    converted, in the order they ran, to ONNX nodes.

    Args:
        model: the model; it is called as ``model(*args)`` (``model(**args)`` for a dict).
        args: the input: an array or Variable, or a list, tuple or dict of them.
        filename: where to write the model (a path or a binary file); None: do not write.
            A model whose tensors pass 2 GB is written with external data next to it.
        export_params: store the model's parameters in the graph (False: they become
            graph inputs).
        graph_name: the ONNX graph's name.
        save_text: also write ``filename + '.txt'``, the model in text form.
        opset_version: the opset (default: :data:`onnx_chainer.DEFAULT_OPSET_VERSION`,
            between :data:`MINIMUM_OPSET_VERSION` and :data:`MAXIMUM_OPSET_VERSION`).
        input_names: names of the graph inputs (a list in input order, or a dict keyed
            like ``args``); default ``Input_0``, ``Input_1``, ...
        output_names: names of the outputs (a list, or a dict keyed like the model's dict
            output); default the producing function's name (``LinearFunction_1``),
            for a dict output too, as in Chainer 7.8.1.
        train: run the model with ``chainer.config.train`` on.
        return_named_inout: also return the named inputs and outputs.
        external_converters: ``{function name: converter(params)}``, taking precedence
            over the built-in converters.
        external_opset_imports: ``{domain: version}`` for custom operators.
        input_shapes: shapes to declare for the inputs (a tuple, a list of tuples or a
            dict of tuples), where a string or None stands for a dynamic axis, e.g.
            ``('batch', 3, 224, 224)``.
        no_testcase: do not warn that writing test data moved to ``export_testcase``.

    Returns:
        The ``onnx.ModelProto``, or ``(model, inputs, outputs)`` with ordered dicts of
        the named input and output Variables when ``return_named_inout``.

    Raises:
        ValueError: for an opset out of range, a function without a converter (naming
            it and the opset), bad names or shapes, or outputs that are not Variables.
        RuntimeError: when the model returns something other than Variables.
    """
    opset = _opsets.resolve(opset_version)
    if filename is not None and not no_testcase:
        warnings.warn('onnx_chainer.export writes the model only: use '
                      'onnx_chainer.export_testcase for the model with its test data, or '
                      'pass no_testcase=True to silence this warning', DeprecationWarning,
                      stacklevel=2)
    inputs, call_args, call_kwargs = _prepare_inputs(args, input_names)
    declared_shapes = _input_shapes(input_shapes, inputs, args)
    with chainer.using_config('train', train), \
            chainer.using_config('in_recomputing', True), \
            chainer.using_config('enable_backprop', True), RetainInputHook() as hook:
        outputs = model(*call_args, **call_kwargs)
    named_outputs = _collect_outputs(outputs, output_names)
    converters = _converter_table(external_converters)
    exporter = _Exporter(model, opset, converters, hook)
    ctx = exporter.context
    _warn_uninitialized(model)

    for name, var in inputs:
        ctx.set_name(var, name)
    extra_nodes: list[NodeProto] = []
    final_outputs: list[tuple[str, chainer.Variable]] = []
    for out_name, var in named_outputs:
        if out_name is not None and ctx.has_name(var):  # an input, or another output's
            extra_nodes.append(onnx.helper.make_node(  # tensor: an Identity names it
                'Identity', [ctx.get_name(var)], [out_name], name=out_name))
            ctx.unique(out_name)
            final_outputs.append((out_name, var))
        elif out_name is not None:
            ctx.set_name(var, out_name)
            final_outputs.append((out_name, var))
        else:
            final_outputs.append(('', var))
    functions = _graph_functions([v for _, v in named_outputs],
                                 {id(v.node) for _, v in inputs}, hook)
    exporter.convert(functions)
    final_outputs = [(name or exporter.input_name('Output', i, var.node), var)
                     for i, (name, var) in enumerate(final_outputs)]

    onnx_model = _assemble(exporter, inputs, final_outputs, extra_nodes, declared_shapes,
                           export_params, graph_name, external_opset_imports)
    _check(onnx_model, opset)
    if filename is not None:
        size = sum(a.nbytes for a in ctx.initializers.values())
        _save(onnx_model, filename, size)
        if save_text and not hasattr(filename, 'write'):
            write_bytes_atomic(os.fspath(filename) + '.txt', str(onnx_model).encode())
    if return_named_inout:
        return (onnx_model, collections.OrderedDict(inputs),
                collections.OrderedDict(final_outputs))
    return onnx_model


def _assemble(exporter: _Exporter, inputs: list[tuple[str, chainer.Variable]],
              outputs: list[tuple[str, chainer.Variable]], extra_nodes: list[NodeProto],
              declared_shapes: list[Sequence[Any] | None], export_params: bool,
              graph_name: str, external_opset_imports: Mapping[str, int] | None) -> ModelProto:
    ctx = exporter.context
    opset = exporter.opset
    ir_version = _ir_version(opset)
    graph_inputs = [_value_info(name, var.array, shape)
                    for (name, var), shape in zip(inputs, declared_shapes)]
    dynamic = any(s is not None for s in declared_shapes)
    graph_outputs = [_value_info(name, var.array, [None] * var.ndim if dynamic else None)
                     for name, var in outputs]
    initializers = []
    for name, array in ctx.initializers.items():
        if not export_params and name in ctx.model_param_names:
            graph_inputs.append(_value_info(name, array))
            continue
        # (ascontiguousarray makes a 0-d array 1-d: keep the shape)
        contiguous = numpy.ascontiguousarray(array).reshape(numpy.shape(array))
        initializers.append(onnx.numpy_helper.from_array(contiguous, name))
        if ir_version < 4:  # initializers are graph inputs before IR version 4
            graph_inputs.append(_value_info(name, array))
    graph = onnx.helper.make_graph(exporter.nodes + extra_nodes, graph_name, graph_inputs,
                                   graph_outputs, initializer=initializers)
    model = onnx.helper.make_model(graph, producer_name='Chainer',
                                   producer_version=__version__,
                                   opset_imports=_opset_imports(opset, external_opset_imports))
    model.ir_version = ir_version
    return model


def _warn_uninitialized(model: Any) -> None:
    if not isinstance(model, chainer.Link):
        return
    for path, param in model.namedparams():
        if param.array is None:
            warnings.warn(f'the parameter {path} is not initialized (its link was not used in '
                          'the forward pass); it is left out of the ONNX model', UserWarning,
                          stacklevel=3)
