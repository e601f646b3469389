"""A small training run that resumes itself and can kill itself at a chosen point.

Run as ``python _resume_worker.py OUT [KILL]``; ``main(out)`` runs it in-process. The run
(40 iterations of a tiny MLP with dropout, shuffled batches over unaligned epochs, Adam
with weight decay and a decaying step size, a log every 5 iterations, a snapshot every 4
with ``autoload=True``) loads the newest complete snapshot of OUT when there is one, and
writes its final parameters to ``OUT/final.npz`` when it completes.

KILL names where the process sends itself SIGKILL (``POINT:ITERATION``, the iteration
counted before the update in progress):

- ``forward:N``: inside the model's forward pass of update N + 1 (the iterator has moved);
- ``rule:N``: inside the optimizer's update N + 1, after two of the four parameters were
  updated;
- ``snapshot-write:N``: while writing snapshot N, half of the file written;
- ``snapshot-rename:N``: with snapshot N written and flushed, before its rename;
- ``after-snapshot:N``: just after snapshot N was renamed into place;
- ``log-rename:N``: with the log of iteration N written, before its rename.

It prints ``start N`` when training starts at iteration N (N > 0: resumed from a snapshot).
"""

from __future__ import annotations

import io
import os
import signal
import sys

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

STOP = 40
POINTS = ('forward', 'rule', 'snapshot-write', 'snapshot-rename', 'after-snapshot',
          'log-rename')


class Net(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 8)
            self.l2 = L.Linear(8, 3)

    def forward(self, x):
        _maybe_kill('forward')
        return self.l2(F.dropout(F.relu(self.l1(x)), 0.3))


_kill: tuple[str, int] | None = None
_updater = None


def _die() -> None:
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def _maybe_kill(point: str, iteration: int | None = None) -> None:
    if _kill is None or _kill[0] != point:
        return
    if iteration is None:
        iteration = _updater.iteration
    if iteration == _kill[1]:
        _die()


def _install_file_hooks() -> None:
    """Kill points inside the atomic writes: around os.replace and numpy's savez."""
    real_replace = os.replace
    real_savez = numpy.savez_compressed

    def replace(src, dst, *args, **kwargs):
        name = os.path.basename(os.fspath(dst))
        if name.startswith('snapshot_iter_'):
            _maybe_kill('snapshot-rename', int(name.rpartition('_')[2]))
        elif name == 'log':
            _maybe_kill('log-rename')
        real_replace(src, dst, *args, **kwargs)
        if name.startswith('snapshot_iter_'):
            _maybe_kill('after-snapshot', int(name.rpartition('_')[2]))

    def savez_compressed(file, *args, **kwds):
        name = os.path.basename(getattr(file, 'name', ''))
        if (_kill is not None and _kill[0] == 'snapshot-write'
                and name == f'snapshot_iter_{_kill[1]}'):
            buffer = io.BytesIO()
            real_savez(buffer, *args, **kwds)
            data = buffer.getvalue()
            file.write(data[:len(data) // 2])
            file.flush()
            os.fsync(file.fileno())
            _die()
        real_savez(file, *args, **kwds)

    os.replace = replace
    numpy.savez_compressed = savez_compressed


def _data() -> chainer.datasets.TupleDataset:
    rng = numpy.random.RandomState(1)
    x = rng.randn(60, 4).astype(numpy.float32)
    t = (x[:, 0] + x[:, 1] > 0).astype(numpy.int32) + (x[:, 2] > 1).astype(numpy.int32)
    return chainer.datasets.TupleDataset(x, t)


def _report_start(trainer: training.Trainer) -> None:
    print(f'start {trainer.updater.iteration}', flush=True)


def build(out: str) -> tuple[training.Trainer, chainer.Link]:
    """The trainer of the run (the same at every start) and its model."""
    global _updater
    numpy.random.seed(0)
    model = L.Classifier(Net())
    optimizer = chainer.optimizers.Adam(alpha=0.01).setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(1e-4))
    iterator = chainer.iterators.SerialIterator(_data(), 8, shuffle=True)
    updater = training.StandardUpdater(iterator, optimizer)
    _updater = updater
    trainer = training.Trainer(updater, (STOP, 'iteration'), out=out)
    trainer.extend(extensions.ExponentialShift('alpha', 0.9), trigger=(5, 'iteration'))
    trainer.extend(extensions.LogReport(trigger=(5, 'iteration')))
    trainer.extend(extensions.snapshot(autoload=True, n_retains=3), trigger=(4, 'iteration'))
    starter = training.make_extension(trigger=(1, 'iteration'), initializer=_report_start)(
        lambda trainer: None)
    trainer.extend(starter, name='starter')

    params = [p for _, p in sorted(model.namedparams())]

    def rule_hook(rule, param):
        if param is params[2]:  # two parameters already updated in this step
            _maybe_kill('rule')

    for param in params:
        param.update_rule.add_hook(rule_hook)
    return trainer, model


def main(out: str, kill: str = 'none') -> dict[str, numpy.ndarray]:
    """Run (or resume) the training in ``out``; return the final parameters."""
    global _kill
    if kill != 'none':
        point, _, iteration = kill.partition(':')
        if point not in POINTS:
            raise ValueError(f'unknown kill point {point!r}: one of {POINTS}')
        _kill = (point, int(iteration))
        _install_file_hooks()
    trainer, model = build(out)
    trainer.run(show_loop_exception_msg=True)
    final = {name: p.array for name, p in model.namedparams()}
    tmp = os.path.join(out, 'final.npz.tmp')
    with open(tmp, 'wb') as f:
        numpy.savez(f, **final)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, os.path.join(out, 'final.npz'))
    return final


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else 'none')
