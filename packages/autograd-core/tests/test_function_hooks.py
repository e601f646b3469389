"""chainer.function_hooks: TimerHook, PrintHook and the CUDA hooks."""

import io
import re
import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import FunctionNode, function_hooks
from chainer.backends import cuda
from chainer.testing import attr


def _model(xp=numpy):
    x = chainer.Variable(xp.asarray(numpy.random.uniform(-1, 1, (5, 3)).astype('f')))
    W = chainer.Variable(xp.asarray(numpy.random.uniform(-1, 1, (4, 3)).astype('f')))
    h = F.relu(F.linear(x, W))
    loss = F.sum(F.sigmoid(h))
    return loss


class Scale(FunctionNode):
    """y = k x; its backward works on arrays, so it calls no other function."""

    def __init__(self, k):
        self.k = k

    def forward(self, inputs):
        return (inputs[0] * self.k,)

    def backward(self, indexes, grad_outputs):
        return (chainer.Variable(grad_outputs[0].array * self.k),)


class Shift(Scale):
    def forward(self, inputs):
        return (inputs[0] + self.k,)

    def backward(self, indexes, grad_outputs):
        return (chainer.Variable(grad_outputs[0].array),)


class Outer(FunctionNode):
    """A function whose forward calls another function (nested hook calls)."""

    def forward(self, inputs):
        return (Scale(2).apply((inputs[0],))[0].array * 2,)


def _chain(xp=numpy):
    x = chainer.Variable(xp.ones((2, 3), 'f'))
    (h,) = Scale(2).apply((x,))
    (y,) = Shift(1).apply((h,))
    (z,) = Scale(3).apply((y,))
    z.grad = xp.ones_like(z.array)
    return z


def test_timer_hook_global():
    with function_hooks.TimerHook() as hook:
        _chain().backward()
    names = [name for name, _ in hook.call_history]
    assert names == ['Scale', 'Shift', 'Scale', 'Scale', 'Shift', 'Scale']
    assert all(t >= 0 for _, t in hook.call_history)
    total = sum(t for _, t in hook.call_history)
    assert hook.total_time() == pytest.approx(total)
    summary = hook.summary()
    assert list(summary) == ['Scale', 'Shift']
    assert summary['Scale']['occurrence'] == 4 and summary['Shift']['occurrence'] == 2
    for entry in summary.values():
        assert entry['elapsed_time'] == pytest.approx(entry['forward_time'] +
                                                      entry['backward_time'])
        assert entry['forward_time'] > 0 and entry['backward_time'] > 0
    # Outside the block nothing more is recorded.
    _chain().backward()
    assert len(hook.call_history) == 6


def test_timer_hook_on_real_functions():
    with function_hooks.TimerHook() as hook:
        loss = _model()
        loss.backward()
    forward_names = [n for n, _ in hook.call_history[:4]]
    labels = []
    node = loss.creator
    while node is not None:  # sum <- sigmoid <- relu <- linear
        labels.append(type(node).__name__)
        node = node.inputs[0].creator_node
    assert forward_names == labels[::-1]
    assert len(hook.call_history) >= 8  # backward may run further functions


def test_timer_hook_nested_calls_count_once():
    with function_hooks.TimerHook() as hook:
        Outer().apply((numpy.ones(3, 'f'),))
    names = [n for n, _ in hook.call_history]
    assert names == ['Scale', 'Outer']  # the inner call finishes first
    assert hook.total_time() == pytest.approx(hook.call_history[1][1])


def test_timer_hook_per_node():
    hook = function_hooks.TimerHook()
    x = chainer.Variable(numpy.ones((2, 2), 'f'))
    node = Scale(2)
    node.add_hook(hook)
    assert node.local_function_hooks['TimerHook'] is hook
    (h,) = node.apply((x,))
    (y,) = Shift(1).apply((h,))  # not hooked
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert [n for n, _ in hook.call_history] == ['Scale', 'Scale']
    node.delete_hook('TimerHook')
    assert 'TimerHook' not in node.local_function_hooks
    with pytest.raises(KeyError):
        node.delete_hook('TimerHook')


def test_timer_print_report():
    with function_hooks.TimerHook() as hook:
        _chain().backward()
    out = io.StringIO()
    hook.print_report(file=out)
    lines = out.getvalue().splitlines()
    assert re.match(r'^\s*FunctionName\s+ElapsedTime\s+Occurrence$', lines[0])
    assert [line.split()[0] for line in lines[1:]] == ['Scale', 'Shift']
    assert [line.split()[2] for line in lines[1:]] == ['4', '2']
    units = {re.search(r'[\d.]+(sec|ms|us|ns)\s', line).group(1) for line in lines[1:]}
    assert len(units) == 1  # 'auto': one unit for all rows
    for unit in ('sec', 'ms', 'us', 'ns'):
        out = io.StringIO()
        hook.print_report(unit=unit, file=out)
        assert all(re.search(rf'\d{unit}\s', line) for line in out.getvalue().splitlines()[1:])
    out = io.StringIO()
    hook.print_report(unit='auto_foreach', file=out)
    assert len(out.getvalue().splitlines()) == 3
    with pytest.raises(ValueError, match='unit'):
        hook.print_report(unit='minutes', file=io.StringIO())
    with pytest.raises(ValueError, match='unit'):
        function_hooks.TimerHook().print_report(unit='hours', file=io.StringIO())


def test_hook_name_conflict():
    with function_hooks.TimerHook(), pytest.raises(KeyError), function_hooks.TimerHook():
        pass
    assert 'TimerHook' not in chainer.get_function_hooks()


def test_print_hook_forward_and_backward():
    out = io.StringIO()
    x = chainer.Variable(numpy.array([[1.0, -2.0]], 'f'))
    with function_hooks.PrintHook(file=out):
        (h,) = Scale(2).apply((x,))
        (y,) = Shift(1).apply((h,))
        y.grad = numpy.ones_like(y.array)
        y.backward()
    text = out.getvalue()
    assert text.startswith('function\tScale\ninput data\n<variable')
    assert 'function\tShift' in text
    assert text.count('input data') == 4
    assert text.count('output gradient') == 2
    assert '(removed)' in text  # these functions keep no input for backward (v7's text)
    assert 'shape: (1, 2)' in text and 'dtype: float32' in text
    assert '- grad: mean=' in text  # statistics of the output gradient


def test_print_hook_end_and_sep():
    out = io.StringIO()
    with function_hooks.PrintHook(end='|', file=out):
        F.relu(numpy.ones(2, 'f'))
    assert out.getvalue().startswith('function\tReLU|input data|')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        function_hooks.PrintHook(sep=' ', file=io.StringIO())
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)


@pytest.mark.skipif(cuda.available, reason='checks the error raised without CUDA')
@pytest.mark.parametrize('cls', [function_hooks.CupyMemoryProfileHook,
                                 function_hooks.CUDAProfileHook])
def test_cuda_hooks_need_cuda(cls):
    with pytest.raises(RuntimeError, match='needs CUDA'):
        cls()


@attr.gpu
def test_timer_hook_on_gpu():
    with function_hooks.TimerHook() as hook:
        _model(cuda.cupy).backward()
    assert len(hook.call_history) >= 8 and hook.total_time() > 0
    with function_hooks.TimerHook() as hook:
        _chain(cuda.cupy).backward()
    assert len(hook.call_history) == 6 and hook.total_time() > 0


@attr.gpu
def test_cupy_memory_profile_hook():
    with function_hooks.CupyMemoryProfileHook() as hook:
        _chain(cuda.cupy).backward()
    assert [e[0] for e in hook.call_history] == ['Scale', 'Shift', 'Scale', 'Scale', 'Shift',
                                                 'Scale']
    assert all(len(entry) == 3 for entry in hook.call_history)
    # Each forward allocates its (2, 3) float32 output from the pool.
    assert all(used >= 24 for _, used, _ in hook.call_history[:3])
    assert hook.total_used_bytes() >= 0 and hook.total_acquired_bytes() >= 0
    summary = hook.summary()
    assert summary['Scale']['occurrence'] == 4 and summary['Shift']['occurrence'] == 2
    out = io.StringIO()
    hook.print_report(file=out)
    assert 'UsedBytes' in out.getvalue() and 'AcquiredBytes' in out.getvalue()
    out = io.StringIO()
    hook.print_report(unit='KB', file=out)
    assert 'KB' in out.getvalue()


@attr.gpu
def test_cuda_profile_hook():
    try:
        hook = function_hooks.CUDAProfileHook()
    except RuntimeError as e:
        pytest.skip(str(e))
    with hook:
        _model(cuda.cupy).backward()


def test_timer_names_the_class_not_the_label():
    hook = function_hooks.TimerHook()
    x = chainer.Variable(numpy.ones(2, 'f'))
    with hook:
        (x * 2.0 + x * 3.0)

    class Old(chainer.Function):
        label = 'custom label'

        def forward(self, inputs):
            return inputs[0] * 1,

    with hook:
        Old()(x)
    names = [n for n, _ in hook.call_history]
    assert names == ['MulConstant', 'MulConstant', 'Add', 'Old']
    assert (x * 2.0).creator.label == '_ * 2.0'
