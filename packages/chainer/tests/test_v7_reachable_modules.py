"""With every component installed, v7's module paths that Chainer 7.8.1 made attributes
of their parents on ``import chainer`` are attributes here too, in a fresh interpreter."""

import json
import subprocess
import sys

# the paths (outside chainer.functions) that were not reachable before; each names the
# module itself
PATHS = [
    'chainer._backend', 'chainer._backprop_utils', 'chainer._environment_check',
    'chainer._version', 'chainer.backends._chainerx', 'chainer.backends._cpu',
    'chainer.dataset.tabular._concat', 'chainer.dataset.tabular._join',
    'chainer.dataset.tabular._slice', 'chainer.dataset.tabular._transform',
    'chainer.dataset.tabular._with_converter', 'chainer.datasets._mnist_helper',
    'chainer.memory_layouts', 'chainer.training._updater', 'chainer.types',
    'chainer.utils._collections', 'chainer.utils.conv_nd_kernel', 'chainer.utils.precision',
]

CODE = '''
import json, sys, types
import chainer
gone = []
for path in sys.argv[1:]:
    obj = chainer
    try:
        for part in path.split('.')[1:]:
            obj = getattr(obj, part)
    except AttributeError:
        gone.append(path)
        continue
    if not isinstance(obj, types.ModuleType) or obj.__name__ != path:
        gone.append(path)
print(json.dumps(gone))
'''


def test_v7_module_paths_reachable_after_bare_import():
    out = subprocess.run([sys.executable, '-c', CODE, *PATHS], check=True,
                         capture_output=True, text=True).stdout
    assert json.loads(out) == []
