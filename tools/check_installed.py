"""Import modules and check that ``chainer`` (and ``chainerx``) come from the installed
distributions.

Usage: ``python tools/check_installed.py [MODULE ...]``. Run it from a folder outside
the source tree: it fails when any folder of the installed top-level packages lies
outside site-packages (for example a ``packages/*/src`` that leaked onto ``sys.path``),
or when neither is installed.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import sysconfig

#: The top-level packages of the distributions (chainerx installs without chainer).
TOP_LEVEL = ("chainer", "chainerx")


def check(modules: list[str]) -> list[str]:
    """Import the installed top-level packages and *modules*; return the problems found."""
    lib = os.path.realpath(sysconfig.get_paths()["purelib"])
    problems = []
    found = [name for name in TOP_LEVEL if importlib.util.find_spec(name) is not None]
    if not found:
        problems.append(f"none of {', '.join(TOP_LEVEL)} is installed")
    for name in found:
        package = importlib.import_module(name)
        where = [os.path.realpath(p) for p in package.__path__]
        problems += [f"{name} folder outside {lib}: {p}" for p in where if not p.startswith(lib)]
        print(name, "from", *where)
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
