"""Tests of LinkHook: local hooks (add_hook) and global hooks (with hook:)."""

import numpy
import pytest

import chainer
import chainer.links as L
from chainer.link_hook import LinkHook


class Recorder(LinkHook):
    name = 'Recorder'

    def __init__(self):
        self.events = []

    def added(self, link):
        self.events.append(('added', link))

    def deleted(self, link):
        self.events.append(('deleted', link))

    def forward_preprocess(self, args):
        self.events.append(('pre', args.link, args.forward_name, len(args.args)))

    def forward_postprocess(self, args):
        self.events.append(('post', args.link, args.out.shape))


def test_local_hook_runs_around_forward():
    link = L.Linear(3, 2)
    hook = Recorder()
    assert link.add_hook(hook) is link
    assert link.local_link_hooks['Recorder'] is hook
    link(numpy.ones((4, 3), 'f'))
    assert hook.events == [('added', link), ('pre', link, 'forward', 1),
                           ('post', link, (4, 2))]
    with pytest.raises(KeyError, match='already exists'):
        link.add_hook(Recorder())
    link.delete_hook('Recorder')
    assert hook.events[-1] == ('deleted', link)
    with pytest.raises(KeyError, match='does not exist'):
        link.delete_hook('Recorder')
    with pytest.raises(TypeError):
        link.add_hook(object())


def test_global_hook_sees_every_link_in_block():
    model = chainer.Sequential(L.Linear(3, 2), L.Linear(2, 2))
    hook = Recorder()
    with hook:
        model(numpy.ones((1, 3), 'f'))
        with pytest.raises(KeyError), Recorder():
            pass
    pre = [e[1] for e in hook.events if e[0] == 'pre']
    assert pre == [model, model[0], model[1]]
    assert hook.events[0] == ('added', None) and hook.events[-1] == ('deleted', None)
    n = len(hook.events)
    model(numpy.ones((1, 3), 'f'))
    assert len(hook.events) == n


def test_lazy_module_attribute():
    assert chainer.LinkHook is LinkHook


def test_timer_hook_records_nested_calls():
    import io

    from chainer.link_hooks import TimerHook

    model = chainer.Sequential(L.Linear(3, 2), L.Linear(2, 2))
    with TimerHook() as hook:
        model(numpy.ones((1, 3), 'f'))
    assert [name for name, _ in hook.call_history] == ['Linear', 'Linear', 'Sequential']
    outer = hook.call_history[-1][1]
    assert hook.total_time() == outer
    assert outer >= hook.call_history[0][1] + hook.call_history[1][1]
    summary = hook.summary()
    assert summary['Linear']['occurrence'] == 2
    out = io.StringIO()
    hook.print_report(file=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ['LinkName', 'ElapsedTime', 'Occurrence']
    assert len(lines) == 3 and lines[1].split()[0] == 'Linear'
    out = io.StringIO()
    hook.print_report(unit='us', file=out)
    assert out.getvalue().splitlines()[1].split()[1].endswith('us')
    with pytest.raises(ValueError):
        hook.print_report(unit='hours')


def test_timer_hook_on_one_link():
    from chainer.link_hooks import TimerHook

    link = L.Linear(3, 2)
    hook = TimerHook()
    link.add_hook(hook)
    link(numpy.ones((1, 3), 'f'))
    link(numpy.ones((1, 3), 'f'))
    assert hook.summary()['Linear']['occurrence'] == 2
    assert chainer.link_hooks.TimerHook is TimerHook


def test_global_hook_refused_by_added_is_not_left_registered():
    from chainer.link_hook import LinkHook, get_link_hooks

    class LocalOnly(LinkHook):
        name = 'LocalOnly'

        def added(self, link):
            if link is None:
                raise NotImplementedError('local only')

    with pytest.raises(NotImplementedError), LocalOnly():
        pass
    assert 'LocalOnly' not in get_link_hooks()
