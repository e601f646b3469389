"""Test configuration of chainerx: the markers shared by the packages' test suites."""


def pytest_configure(config):
    config.addinivalue_line('markers', 'gpu: needs a CUDA device (run with nox -s gpu)')
