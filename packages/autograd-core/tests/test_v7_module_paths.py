"""Chainer v7's module paths owned by autograd-core import, define v7's names and are
reachable as attributes right after a bare ``import chainer`` (which stays lazy)."""

import importlib
import json
import subprocess
import sys
import typing
from collections.abc import Sequence

import numpy
import pytest

import chainer

# module -> public names that v7 defined there (those this project had to add)
V7_NAMES = {
    'chainer._backend': ['Device'],
    'chainer._backprop': ['backward'],
    'chainer._backprop_utils': ['GradTable', 'backprop_step'],
    'chainer._environment_check': ['check'],
    'chainer._version': ['__version__'],
    'chainer.types': ['AbstractInitializer', 'TYPE_CHECKING', 'Shape', 'ShapeSpec', 'DTypeSpec',
                      'NdArray', 'Xp', 'ScalarValue', 'InitializerSpec', 'DeviceSpec',
                      'CudaDevice', 'CudaDeviceSpec'],
    'chainer.distributions.gumbel': ['EULER'],
    'chainer.distributions.laplace': ['LaplaceCDF', 'LaplaceICDF'],
    'chainer.distributions.log_normal': ['LOGPROBC'],
    'chainer.distributions.multivariate_normal': ['ENTROPYC', 'LOGPROBC', 'TriangularInv'],
    'chainer.distributions.normal': ['ENTROPYC', 'LOGPROBC', 'PROBC'],
    'chainer.function_hooks.cupy_memory_profile': ['CupyMemoryCumulativeHook'],
    'chainer.graph_optimizations.static_graph': ['ArrayInfo', 'ScheduleInfo',
                                                 'StaticScheduleFunction'],
    'chainer.graph_optimizations.static_graph_utilities': ['static_forward_optimizations'],
    'chainer.memory_layouts': ['AsLayout', 'get_raw_shape', 'get_semantic_shape'],
    'chainer.testing._bundle': ['make_decorator'],
    'chainer.testing._distribution_test': ['distribution_unittest', 'skip_not_in_test_target'],
    'chainer.testing.condition': ['QuietTestRunner'],
    'chainer.testing.doctest_helper': ['skipif', 'skipif_not_enough_cuda_devices',
                                       'skipif_requires_satisfied'],
    'chainer.testing.function_link': ['FunctionTestBase'],
    'chainer.testing.random': ['do_setup', 'do_teardown'],
    'chainer.testing.training': ['check_available', 'get_error', 'is_available'],
    'chainer.testing.unary_math_function_test': ['check_available', 'get_error',
                                                 'is_available'],
    'chainer.utils._collections': [],
    'chainer.utils.conv_nd_kernel': ['Writer', 'andexp', 'map_', 'muladdexp', 'mulexp',
                                     'succ_sublists', 'vars'],
    'chainer.utils.nondeterministic': ['nondeterministic'],
    'chainer.variable': ['variable_repr', 'variable_str'],
}

# reachable as attributes after ``import chainer`` on v7 (those that were not here)
REACHABLE = ['chainer._backend', 'chainer._backprop_utils', 'chainer._environment_check',
             'chainer._version', 'chainer.types', 'chainer.memory_layouts',
             'chainer.utils._collections', 'chainer.utils.conv_nd_kernel',
             'chainer.utils.precision', 'chainer.backends._cpu', 'chainer.backends._chainerx',
             'chainer.distributions']

# what a bare ``import chainer`` must not load (they load on first access)
LAZY = ['chainer._backend', 'chainer._backprop_utils', 'chainer._environment_check',
        'chainer.types', 'chainer.distributions', 'chainer.utils.conv_nd_kernel',
        'chainer.utils.precision', 'chainer.backends._chainerx']


@pytest.mark.parametrize('module', sorted(V7_NAMES))
def test_v7_module_imports_with_its_names(module):
    mod = importlib.import_module(module)
    missing = [n for n in V7_NAMES[module] if not hasattr(mod, n)]
    assert missing == []


def _fresh(code, *args):
    out = subprocess.run([sys.executable, '-c', code, *args], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def test_v7_modules_are_reachable_after_a_bare_import():
    code = ('import json, sys, chainer\n'
            'gone = []\n'
            'for path in sys.argv[1:]:\n'
            '    obj = chainer\n'
            '    try:\n'
            '        for part in path.split(".")[1:]:\n'
            '            obj = getattr(obj, part)\n'
            '    except AttributeError:\n'
            '        gone.append(path)\n'
            '        continue\n'
            '    if type(obj).__name__ != "module" or obj.__name__ != path:\n'
            '        gone.append(path)\n'
            'print(json.dumps(gone))\n')
    assert _fresh(code, *REACHABLE) == []


def test_bare_import_stays_lazy():
    code = ('import json, sys, chainer\n'
            'print(json.dumps([m for m in sys.argv[1:] if m in sys.modules]))\n')
    assert _fresh(code, *LAZY) == []


def test_unknown_attributes_still_raise():
    with pytest.raises(AttributeError):
        chainer.no_such_module
    with pytest.raises(AttributeError):
        chainer.utils.no_such_module


def test_nondeterministic_function_shadows_its_module():
    import chainer.utils.nondeterministic
    module = sys.modules['chainer.utils.nondeterministic']
    assert chainer.utils.nondeterministic is module.nondeterministic
    assert callable(chainer.utils.nondeterministic)


def test_version_module_agrees():
    assert chainer._version.__version__ == chainer.__version__


def test_backend_module_gives_the_device_classes():
    assert chainer._backend.Device is chainer.backend.Device
    assert isinstance(chainer.get_device('@numpy'), chainer._backend.Device)
    doubled = chainer._backend._convert_arrays((numpy.ones(2), [numpy.zeros(1)]),
                                               lambda a: a * 2)
    assert isinstance(doubled, tuple) and isinstance(doubled[1], list)
    numpy.testing.assert_array_equal(doubled[0], [2, 2])
    with chainer._backend._dummy_context:
        pass


def test_types_are_typing_aliases_usable_in_annotations():
    from chainer import types

    def f(shape: types.ShapeSpec, dtype: types.DTypeSpec) -> types.Shape:
        return tuple(shape)

    hints = typing.get_type_hints(f)
    assert set(typing.get_args(hints['shape'])) == {int, Sequence[int]}
    assert typing.get_origin(hints['return']) is tuple
    assert typing.get_args(hints['return']) == (int, ...)
    assert numpy.ndarray in typing.get_args(types.NdArray)
    assert numpy.ndarray in typing.get_args(types.InitializerSpec)
    assert str in typing.get_args(types.DeviceSpec)
    assert isinstance(chainer.initializers.Normal(), types.AbstractInitializer)
    assert not isinstance(3, types.AbstractInitializer)
