"""The exporter itself: names, inputs and outputs, opsets, errors, files, test cases."""

from __future__ import annotations

import io
import os
import warnings

import numpy
import onnx
import pytest
from _onnx_check import check_export, op_types, run_onnx

import chainer
import chainer.functions as F
import chainer.links as L
import onnx_chainer
from onnx_chainer import export, export_testcase, onnx_helper
from onnx_chainer.export import RetainInputHook
from onnx_chainer.functions.opset_version import UnsupportedOpsetError, support
from onnx_chainer.replace_func import as_funcnode, fake_as_funcnode
from onnx_chainer.testing import input_generator
from onnx_chainer.testing.test_onnxruntime import check_model_expect


def mlp() -> chainer.Sequential:
    return chainer.Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))


def x34(n: int = 2) -> numpy.ndarray:
    return input_generator.increasing(n, 3)


class Twice(chainer.FunctionNode):
    """A function no converter knows."""

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 2,


def test_names_follow_functions_and_params():
    proto = export(mlp(), x34())
    assert [n.name for n in proto.graph.node] == ['LinearFunction_0', 'ReLU_0',
                                                   'LinearFunction_1']
    assert [i.name for i in proto.graph.input] == ['Input_0']
    assert [o.name for o in proto.graph.output] == ['LinearFunction_1']
    assert [t.name for t in proto.graph.initializer] == [
        'param_0_W', 'param_0_b', 'param_1_W', 'param_1_b']
    assert proto.opset_import[0].version == onnx_chainer.DEFAULT_OPSET_VERSION


def test_default_opset_is_current():
    assert onnx_chainer.DEFAULT_OPSET_VERSION > 11
    assert onnx_chainer.MINIMUM_OPSET_VERSION == 7
    assert min(28, onnx.defs.onnx_opset_version()) == onnx_chainer.MAXIMUM_OPSET_VERSION


@pytest.mark.parametrize('opset', [onnx_chainer.MINIMUM_OPSET_VERSION, 13,
                                   onnx_chainer.MAXIMUM_OPSET_VERSION])
def test_mlp_runs_in_onnxruntime(opset):
    proto = check_export(mlp(), x34(), opset)
    assert op_types(proto) == ['Gemm', 'Relu', 'Gemm']


def test_old_ir_lists_initializers_as_inputs():
    proto = export(mlp(), x34(), opset_version=7)
    assert proto.ir_version == 3
    assert {i.name for i in proto.graph.input} >= {t.name for t in proto.graph.initializer}
    assert export(mlp(), x34(), opset_version=20).ir_version >= 4


@pytest.mark.parametrize('opset', [6, 0, onnx_chainer.MAXIMUM_OPSET_VERSION + 1])
def test_opset_out_of_range(opset):
    with pytest.raises(ValueError, match=f'opset_version {opset} is not supported'):
        export(mlp(), x34(), opset_version=opset)


@pytest.mark.parametrize('opset', ['13', 13.5, True])
def test_opset_must_be_an_int(opset):
    with pytest.raises(TypeError, match='opset_version must be an int'):
        export(mlp(), x34(), opset_version=opset)


def test_numpy_integer_opset():
    proto = export(mlp(), x34(), opset_version=numpy.int64(13))
    assert proto.opset_import[0].version == 13


def test_unsupported_function_names_it_and_the_opset():
    model = chainer.Sequential(lambda x: Twice().apply((x,))[0])
    with pytest.raises(ValueError, match=r'opset 13\).*no converter for Twice'):
        export(model, x34(), opset_version=13)


def test_external_converter_adds_and_overrides():
    def twice(params):
        const = params.context.add_const(numpy.array(2, numpy.float32), 'two')
        return onnx_helper.make_node('Mul', [params.input_names[0], const],
                                     params.output_names),

    model = chainer.Sequential(lambda x: Twice().apply((x,))[0], F.relu)
    proto = check_export(model, x34(), 13, external_converters={'Twice': twice})
    assert op_types(proto) == ['Constant', 'Mul', 'Relu']
    assert proto.graph.node[0].output[0] == 'Twice_0_const_two'

    def relu_as_abs(params):
        return onnx_helper.make_node('Abs', params.input_names, params.output_names),
    proto = export(chainer.Sequential(F.relu), x34(), external_converters={'ReLU': relu_as_abs})
    assert op_types(proto) == ['Abs']


def test_support_calls_the_newest_listed_form():
    seen = []

    @support((7, 11, 13))
    def conv(func, opset_version, input_names, output_names, context):
        seen.append(opset_version)
        return ()

    for requested in (7, 10, 11, 12, 13, 20):
        conv(None, requested, [], [], None)
    assert seen == [7, 7, 11, 11, 13, 13]

    @support((11,))
    def late(func, opset_version, input_names, output_names, context):
        return ()

    with pytest.raises(UnsupportedOpsetError, match='opset 9.*opset 11 or newer'):
        late(Twice(), 9, [], [], None)


class ThreeInputs(chainer.Chain):
    def forward(self, x, y, z):
        return F.relu(x) * y + z


def _three():
    return [input_generator.increasing(2, 3) * k for k in (1.0, 1.1, 1.2)]


@pytest.mark.parametrize('names,expected', [
    (None, ['Input_0', 'Input_1', 'Input_2']),
    (['a', 'b', 'c'], ['a', 'b', 'c']),
])
def test_input_names(names, expected):
    extra = {'Mul': _mul, 'Add': _add}
    proto = check_export(ThreeInputs(), _three(), 13, input_names=names,
                         external_converters=extra)
    assert [i.name for i in proto.graph.input] == expected


def _mul(params):
    return onnx_helper.make_node('Mul', params.input_names, params.output_names),


def _add(params):
    return onnx_helper.make_node('Add', params.input_names, params.output_names),


def test_dict_inputs_and_names():
    xs = dict(zip('xyz', _three()))
    proto = export(ThreeInputs(), xs, input_names={'x': 'in_x', 'z': 'in_z'},
                   external_converters={'Mul': _mul, 'Add': _add})
    assert [i.name for i in proto.graph.input] == ['in_x', 'Input_1', 'in_z']


@pytest.mark.parametrize('names', [['a', 'b'], 'abc', {'w': 'a'}])
def test_bad_input_names(names):
    args = dict(zip('xyz', _three())) if isinstance(names, dict) else _three()
    with pytest.raises(ValueError, match='input_names'):
        export(ThreeInputs(), args, input_names=names)


class TwoOutputs(chainer.Chain):
    def __init__(self, kind):
        super().__init__()
        self.kind = kind
        with self.init_scope():
            self.l1 = L.Linear(3, 4)

    def forward(self, x):
        h = self.l1(x)
        a = F.relu(h)
        if self.kind == 'dict':
            return {'a': a, 'h': h}
        return (a, h) if self.kind == 'tuple' else [a, h]


@pytest.mark.parametrize('kind', ['tuple', 'list', 'dict'])
def test_output_names_and_intermediate_outputs(kind):
    names = {'a': 'out_a', 'h': 'out_h'} if kind == 'dict' else ['out_a', 'out_h']
    proto = check_export(TwoOutputs(kind), x34(), 13, output_names=names)
    assert [o.name for o in proto.graph.output] == ['out_a', 'out_h']
    # the intermediate output feeds the ReLU under its given name
    assert list(proto.graph.node[-1].input) == ['out_h']


def test_output_that_is_an_input_gets_an_identity():
    proto = check_export(lambda x: (x, F.relu(x)), x34(), 13, output_names=['same', 'r'])
    assert op_types(proto) == ['Relu', 'Identity']


@pytest.mark.parametrize('out,error', [
    (lambda x: x.array, RuntimeError),
    (lambda x: (x, x.array), ValueError),
    (lambda x: ([x],), ValueError),
])
def test_outputs_must_be_variables(out, error):
    with pytest.raises(error, match='Variable'):
        export(out, x34())


def test_bad_output_names():
    with pytest.raises(ValueError, match='output_names'):
        export(mlp(), x34(), output_names=['a', 'b'])


def test_dynamic_batch_axis_runs_other_batch_sizes():
    model = mlp()
    proto = export(model, x34(2), input_shapes=('batch', 3))
    dim = proto.graph.input[0].type.tensor_type.shape.dim[0]
    assert dim.dim_param == 'batch'
    x = input_generator.increasing(5, 3)
    got = run_onnx(proto, {'Input_0': x})[0]
    with chainer.using_config('train', False):
        numpy.testing.assert_allclose(got, model(x).array, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('shapes', [
    '?', ('?', 3, 3), [('?', 3), ('?', 3)], {'x': ('?', 3)},
])
def test_bad_input_shapes(shapes):
    with pytest.raises(ValueError, match='input_shapes'):
        export(mlp(), x34(), input_shapes=shapes)


def test_files_text_and_file_objects(tmp_path):
    path = tmp_path / 'm.onnx'
    with pytest.warns(DeprecationWarning, match='export_testcase'):
        export(mlp(), x34(), filename=str(path), save_text=True)
    assert onnx.load(str(path)).graph.node[0].op_type == 'Gemm'
    assert 'Gemm' in (tmp_path / 'm.onnx.txt').read_text()
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        export(mlp(), x34(), filename=buffer, no_testcase=True)
    assert onnx.load_model_from_string(buffer.getvalue()).graph.node
    assert sorted(os.listdir(tmp_path)) == ['m.onnx', 'm.onnx.txt']  # no temporaries left


def test_large_models_use_external_data(tmp_path, monkeypatch):
    import sys
    monkeypatch.setattr(sys.modules['onnx_chainer.export'], 'EXTERNAL_DATA_THRESHOLD', 0)
    model = chainer.Sequential(L.Linear(3, 400))  # tensors over onnx's 1 KiB inline limit
    path = tmp_path / 'big.onnx'
    export(model, x34(), filename=str(path), no_testcase=True)
    assert (tmp_path / 'big.onnx.data').stat().st_size > 0
    loaded = onnx.load(str(path))
    got = run_onnx(loaded, {'Input_0': x34()})[0]
    with chainer.using_config('train', False):
        numpy.testing.assert_allclose(got, model(x34()).array, rtol=1e-5, atol=1e-6)


def test_export_params_false_makes_params_inputs():
    proto = export(mlp(), x34(), export_params=False)
    assert not proto.graph.initializer
    assert [i.name for i in proto.graph.input][1:] == [
        'param_0_W', 'param_0_b', 'param_1_W', 'param_1_b']


def test_return_named_inout():
    proto, inputs, outputs = export(mlp(), x34(), return_named_inout=True)
    assert list(inputs) == ['Input_0'] and list(outputs) == ['LinearFunction_1']
    assert isinstance(outputs['LinearFunction_1'], chainer.Variable)


def test_export_testcase_writes_inputs_outputs_and_gradients(tmp_path):
    model = mlp()
    export_testcase(model, x34(), str(tmp_path), output_grad=True, opset_version=13)
    data = tmp_path / 'test_data_set_0'
    assert sorted(os.listdir(data)) == ['gradient_0.pb', 'gradient_1.pb', 'gradient_2.pb',
                                        'gradient_3.pb', 'input_0.pb', 'output_0.pb']
    check_model_expect(str(tmp_path))
    # the gradients are those of sum(y) with respect to each parameter
    ref = mlp()
    ref.copyparams(model)
    ref.cleargrads()
    F.sum(ref(x34())).backward()
    for i, name in enumerate(['0/W', '0/b', '1/W', '1/b']):
        tensor = onnx.load_tensor(str(data / f'gradient_{i}.pb'))
        assert tensor.name == 'param_' + name.replace('/', '_')
        link, attr = name.split('/')
        expected = getattr(ref[2 * int(link)], attr).grad  # links 0, 1 are layers 0, 2
        numpy.testing.assert_allclose(onnx.numpy_helper.to_array(tensor), expected,
                                      rtol=1e-6)


def test_unused_link_warns():
    class Model(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.used = L.Linear(None, 2)
                self.unused = L.Linear(None, 2)

        def forward(self, x):
            return self.used(x)

    with pytest.warns(UserWarning, match='/unused/W is not initialized'):
        proto = export(Model(), x34())
    assert len(proto.graph.initializer) == 2


def test_implicit_inputs_become_initializers():
    bias = numpy.arange(3, dtype=numpy.float32)
    proto = check_export(lambda x: F.relu(x) * chainer.Variable(bias), x34(), 13,
                         external_converters={'Mul': _mul})
    assert len(proto.graph.initializer) == 1
    numpy.testing.assert_array_equal(
        onnx.numpy_helper.to_array(proto.graph.initializer[0]), bias)


def test_custom_operator_warns_and_custom_domain_does_not():
    def dummy(params):
        return onnx_helper.make_node('MyOp', params.input_names, params.output_names),

    model = chainer.Sequential(lambda x: Twice().apply((x,))[0])
    with pytest.warns(UserWarning, match='unknown to onnx.*MyOp'):
        export(model, x34(), external_converters={'Twice': dummy})

    def in_domain(params):
        return onnx_helper.make_node('MyOp', params.input_names, params.output_names,
                                     domain='my.domain'),
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        proto = export(model, x34(), external_converters={'Twice': in_domain},
                       external_opset_imports={'my.domain': 1})
    assert {(o.domain, o.version) for o in proto.opset_import} >= {('my.domain', 1)}


def test_broken_converter_output_is_an_error():
    def wrong(params):
        return onnx_helper.make_node('Relu', params.input_names, ['elsewhere']),
    with pytest.raises(ValueError, match='did not produce its outputs'):
        export(chainer.Sequential(F.relu), x34(), external_converters={'ReLU': wrong})


# -- RetainInputHook ------------------------------------------------------------
def test_retain_input_hook_keeps_temporaries_and_restores_apply():
    apply = chainer.FunctionNode.apply

    class Model(chainer.Chain):
        def forward(self, x):
            return F.relu(chainer.Variable(numpy.ones(3, numpy.float32)) + x)

    x = chainer.Variable(numpy.ones(3, numpy.float32))
    with RetainInputHook() as hook:
        Model()(x)
    # the temporary and the intermediate sum, not the link's input
    assert [v.array.tolist() for v in hook.retain_inputs] == [[1, 1, 1], [2, 2, 2]]
    assert len(hook.functions) == 2
    assert chainer.FunctionNode.apply is apply


# -- replace_func -------------------------------------------------------------------
def _add_value(params):
    c = params.context.add_const(numpy.array(params.func.value, numpy.float32), 'value')
    return onnx_helper.make_node('Add', [params.input_names[0], c], params.output_names),


def test_as_funcnode_exports_array_code_as_one_node():
    class Model(chainer.Chain):
        @as_funcnode('AddValue', rename_attributes=[('b', 'value')])
        def shift(self, x, b=0.5):
            return x.array + b

        def forward(self, x):
            return F.relu(self.shift(x))

    proto = check_export(Model(), x34(), 13, external_converters={'AddValue': _add_value})
    assert op_types(proto) == ['Constant', 'Add', 'Relu']
    assert proto.graph.node[1].name == 'AddValue_0'


def test_fake_as_funcnode_backward_matches_and_needs_variables():
    def f(a, b):
        return a * b, a + b

    a = chainer.Variable(numpy.array([1.5, 2.0], numpy.float32))
    b = chainer.Variable(numpy.array([3.0, -1.0], numpy.float32))
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        wrapped = fake_as_funcnode(f, 'F2')
    y1, y2 = wrapped(a, b)
    ga, gb = chainer.grad([y1 + y2], [a, b])
    numpy.testing.assert_allclose(ga.array, b.array + 1)
    numpy.testing.assert_allclose(gb.array, a.array + 1)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        on_arrays = fake_as_funcnode(lambda a: a.array * 2, 'Arr')
    y = on_arrays(a)
    with pytest.raises(ValueError, match='cannot be differentiated'):
        y.grad = numpy.ones_like(y.array)
        y.backward()


def test_fake_as_funcnode_keeps_the_output_structure():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        wrapped = fake_as_funcnode(lambda x: {'a': (x, x * 2), 'b': [x * 3]}, 'Structured')
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    out = wrapped(x)
    assert set(out) == {'a', 'b'} and len(out['a']) == 2 and len(out['b']) == 1
    assert out['b'][0].creator.label == 'Structured'
    numpy.testing.assert_allclose(out['b'][0].array, [3, 3])


# -- testing helpers -----------------------------------------------------------------
def test_input_generators():
    for gen in (input_generator.increasing, input_generator.nonzero_increasing,
                input_generator.positive_increasing):
        for shape in [(1,), (3,), (2, 3), (2, 5, 3)]:
            a = gen(*shape)
            assert a.shape == shape and a.dtype == numpy.float32
            assert numpy.all(numpy.diff(a.ravel()) > 0)
    assert not numpy.any(input_generator.nonzero_increasing(3, 3) == 0)
    assert numpy.all(input_generator.positive_increasing(2, 3) > 0)
    assert input_generator.increasing(2, 2, dtype=numpy.float64).dtype == numpy.float64


def test_write_tensor_pb_is_atomic(tmp_path):
    path = tmp_path / 't.pb'
    onnx_helper.write_tensor_pb(str(path), 'v', numpy.arange(4, dtype=numpy.int64))
    tensor = onnx.load_tensor(str(path))
    assert tensor.name == 'v'
    numpy.testing.assert_array_equal(onnx.numpy_helper.to_array(tensor), numpy.arange(4))
    assert os.listdir(tmp_path) == ['t.pb']


@pytest.mark.parametrize('opset', [7, 8, 9, 13])
def test_integer_constants_are_nodes_at_every_opset(opset):
    def twice(params):
        shape = params.context.add_const(numpy.array([2, 3], numpy.int64), 'shape')
        gb = onnx_helper.GraphBuilder()
        x = gb.op('Reshape', [params.input_names[0], shape])
        gb.op_output_named('Add', [x, x], params.output_names)
        return gb.nodes()

    model = chainer.Sequential(lambda x: Twice().apply((x,))[0])
    proto = check_export(model, x34(), opset, external_converters={'Twice': twice})
    assert not proto.graph.initializer  # before 9: a float Constant cast to int64
    expected = ['Reshape', 'Add']
    expected = ['Constant', 'Cast', *expected] if opset < 9 else ['Constant', *expected]
    assert op_types(proto) == expected


def test_dict_outputs_are_named_after_their_functions():
    proto = check_export(TwoOutputs('dict'), x34(), 13)  # as v7 named them
    assert [o.name for o in proto.graph.output] == ['ReLU_0', 'LinearFunction_0']
