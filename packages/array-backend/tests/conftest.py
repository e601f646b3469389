"""Test configuration of chainer-array-backend."""


def pytest_configure(config):
    config.addinivalue_line('markers', 'gpu: needs a CUDA device (run with nox -s gpu)')
    config.addinivalue_line('markers', 'slow: slow test')
