import io
import threading

import numpy
import pytest

import chainer
from chainer import configuration


def test_documented_defaults():
    c = chainer.config
    assert c.train is True
    assert c.enable_backprop is True
    assert c.type_check is True
    assert c.debug is False
    assert c.keep_graph_on_report is False
    assert c.lazy_grad_sum is False
    assert c.use_cudnn == 'auto'
    assert c.use_ideep == 'never'
    assert c.autotune is False
    assert c.dtype == numpy.float32
    assert chainer.get_dtype() == numpy.float32


def test_using_config_restores():
    with chainer.using_config('train', False):
        assert chainer.config.train is False
        with chainer.using_config('train', True):
            assert chainer.config.train is True
        assert chainer.config.train is False
    assert chainer.config.train is True
    with chainer.using_config('new_key', 3):
        assert chainer.config.new_key == 3
    with pytest.raises(AttributeError):
        chainer.config.new_key


def test_global_config_change_seen_by_local():
    g = configuration.GlobalConfig()
    local = configuration.LocalConfig(g)
    g.x = 1
    assert local.x == 1
    local.x = 2
    assert local.x == 2 and g.x == 1
    del local.x
    assert local.x == 1
    g.x = 5
    assert local.x == 5


def test_thread_local_values():
    seen = {}
    barrier = threading.Barrier(2)

    def worker(name, value):
        with chainer.using_config('train', value):
            barrier.wait()
            seen[name] = chainer.config.train
            barrier.wait()

    threads = [threading.Thread(target=worker, args=('a', False)),
               threading.Thread(target=worker, args=('b', 'x'))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {'a': False, 'b': 'x'}
    assert chainer.config.train is True


def test_new_thread_sees_global_not_local_override():
    result = []
    chainer.config.train = False
    try:
        t = threading.Thread(target=lambda: result.append(chainer.config.train))
        t.start()
        t.join()
    finally:
        del chainer.config.train
    assert result == [True]


def test_show():
    out = io.StringIO()
    chainer.config.show(out)
    text = out.getvalue()
    assert 'enable_backprop' in text and 'train' in text


def test_get_dtype_mixed16():
    assert chainer.get_dtype('mixed16') == numpy.float16
    assert chainer.get_dtype('mixed16', map_mixed16=numpy.float32) == numpy.float32
    with chainer.using_config('dtype', numpy.float64):
        assert chainer.get_dtype() == numpy.float64


def test_env_variables(monkeypatch):
    import subprocess
    import sys

    code = ('import chainer; print(chainer.config.debug, chainer.config.type_check, '
            'chainer.config.dtype)')
    env = dict(__import__('os').environ, CHAINER_DEBUG='1', CHAINER_TYPE_CHECK='0',
               CHAINER_DTYPE='float16')
    out = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True,
                         text=True, check=True).stdout
    assert out.split() == ['True', 'False', 'float16']
    env['CHAINER_DTYPE'] = 'int32'
    proc = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True)
    assert proc.returncode != 0 and 'CHAINER_DTYPE' in proc.stderr


def test_cuda_module_exposes_the_config():
    from chainer.backends import cuda

    assert cuda.config is chainer.config
