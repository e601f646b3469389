"""v7's ``chainer.training._updater`` and ``computational_graph.is_return_code_zero``."""

import subprocess
import sys

import chainer
from chainer import training
from chainer.training.extensions import computational_graph


def test_updater_module_gives_the_updater_interface():
    from chainer.training import _updater
    assert _updater.Updater is training.Updater is training.updater.Updater


def test_updater_module_is_reachable_after_import_chainer():
    code = 'import chainer; assert chainer.training._updater.Updater is chainer.training.Updater'
    subprocess.run([sys.executable, '-c', code], check=True)
    assert chainer.training._updater.__name__ == 'chainer.training._updater'


def test_is_return_code_zero():
    assert computational_graph.is_return_code_zero([sys.executable, '-c', 'pass'])
    assert not computational_graph.is_return_code_zero(
        [sys.executable, '-c', 'import sys; sys.exit(3)'])
    # the output is discarded, and a command that does not exist counts as failing
    assert computational_graph.is_return_code_zero(
        [sys.executable, '-c', 'print("x" * 100000)'])
    assert not computational_graph.is_return_code_zero(['no-such-command-here-at-all'])
