"""Import modules and check that ``chainer`` comes from the installed distributions.

Usage: ``python tools/check_installed.py [MODULE ...]``. Run it from a folder outside
the source tree: it fails when any folder of the ``chainer`` package lies outside
site-packages (for example a ``packages/*/src`` that leaked onto ``sys.path``).
"""

from __future__ import annotations

import importlib
import os
import sys
import sysconfig


def check(modules: list[str]) -> list[str]:
    """Import ``chainer`` and *modules*; return the problems found."""
    lib = os.path.realpath(sysconfig.get_paths()["purelib"])
    chainer = importlib.import_module("chainer")
    where = [os.path.realpath(p) for p in chainer.__path__]
    problems = [f"chainer folder outside {lib}: {p}" for p in where if not p.startswith(lib)]
    print("chainer from", *where)
    for name in modules:
        module = importlib.import_module(name)
        print(f"imported {name} ({getattr(module, '__file__', None) or 'namespace'})")
    return problems


def main() -> int:
    problems = check(sys.argv[1:])
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
