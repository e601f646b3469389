"""Print the ``RECORDED`` table of a seeded-draws test file, computed in this env.

Usage: ``python tools/compat/record_seeded.py TEST_FILE`` with Chainer 7.8.1's
interpreter (``.bench/chainer781/bin/python``, see tools/bench/envs.py) to record
reference values, or with this project's to see what it gives. The test file defines
``NAMES`` and ``summarize(name)``; it is loaded with a stand-in for pytest when the env
has none (only ``pytest.mark.*`` decorators are needed at import).
"""

from __future__ import annotations

import importlib.util
import sys
import types


def _pytest_stub() -> None:
    try:
        import pytest  # noqa: F401
    except ImportError:
        stub = types.ModuleType('pytest')

        class _Mark:
            def __getattr__(self, name):
                return lambda *args, **kwargs: (lambda f: f)

        stub.mark = _Mark()
        stub.fixture = lambda *args, **kwargs: (lambda f: f)
        sys.modules['pytest'] = stub


def main() -> None:
    _pytest_stub()
    spec = importlib.util.spec_from_file_location('seeded_cases', sys.argv[1])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    print('RECORDED = {')
    for name in module.NAMES:
        print(f'    {name!r}: {module.summarize(name)!r},')
    print('}')


if __name__ == '__main__':
    main()
