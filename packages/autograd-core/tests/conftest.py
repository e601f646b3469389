"""Test configuration of chainer-autograd-core: markers and a fixed random seed."""

import numpy
import pytest


def pytest_configure(config):
    config.addinivalue_line('markers', 'gpu: needs a CUDA device (run with nox -s gpu)')
    config.addinivalue_line('markers', 'slow: slow test')
    config.addinivalue_line('markers', 'chainerx: needs the chainerx distribution')


@pytest.fixture(autouse=True)
def _seed():
    numpy.random.seed(0)
    yield
