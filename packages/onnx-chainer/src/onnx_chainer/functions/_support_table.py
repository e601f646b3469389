"""The README's table of what exports: every converter with its first opset and the
opsets where its output changes, and the function nodes of ``chainer.functions`` that
do not export, with the reason.

``python -m onnx_chainer.functions._support_table README.md`` rewrites the table between
the README's ``converters-table`` markers; a test checks the README is current.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

import chainer
import chainer.functions
from onnx_chainer.functions import _MODULES, converters

START = '<!-- converters-table-start -->'
END = '<!-- converters-table-end -->'

# Function nodes with no converter, by the reason. Gradient nodes (backward only), base
# classes and private helpers are left out of the table.
NOT_EXPORTED: dict[str, str] = {
    'no ONNX operator computes it': (
        'DiGamma Erfc ErfcInv ErfInv Erfcx LGamma LogNdtr Ndtr Ndtri PolyGamma Zeta '
        'Cholesky FFT Inv BatchInv Cumprod Cumprodsum'),
    'wraps a Python function whose inner graph is not recorded (use replace_func)': 'Forget',
    'training-only (a loss of sampled or structured targets, or a metric)': (
        'Accuracy BinaryAccuracy ClassificationSummary ConnectionistTemporalClassification '
        'Contrastive CrossCovariance DeCov Hinge NegativeSamplingFunction R2_score Triplet '
        'PairLoss'),
    'depends on random draws that ONNX cannot reproduce': 'Gaussian SimplifiedDropconnect Zoneout',
    'v7 module-path names only: the functions make other nodes, which export': (
        'Dstack Hstack Vstack Log2 Log10'),
    'nodes of the backward pass or of internal bookkeeping, never in a forward graph': (
        'AdjointNode Assign BackwardNode CompositeNode DiagEinSum LinearGradWeight MapNode '
        'MaxPoolingNDWithIndexes StorageMap'),
    'training mode needs an eigendecomposition (the batch\'s whitening matrix), which no '
    'ONNX operator computes; test mode (FixedDecorrelatedBatchNormalization) exports': (
        'DecorrelatedBatchNormalization'),
    'ONNX RoiAlign\'s max mode (as onnxruntime computes it) takes the largest weighted '
    'neighbour of each sample, not the largest bilinear sample: up to 0.6 off Chainer on '
    'random inputs': 'ROIMaxAlign2D',
    'its window indexes come from the max pooling of the traced input and are stored in '
    'the node, not given as an input: an export would be right only for that input': (
        'Upsampling2D'),
}


def _function_nodes() -> tuple[set[str], set[str]]:
    """The names of chainer.functions' node classes, and of those that are base classes
    of others (never applied themselves)."""
    for info in pkgutil.walk_packages(chainer.functions.__path__, 'chainer.functions.'):
        try:
            importlib.import_module(info.name)
        except ImportError:
            continue
    found: set[str] = set()
    bases: set[str] = set()
    stack = list(chainer.FunctionNode.__subclasses__())
    while stack:
        cls = stack.pop()
        subs = cls.__subclasses__()
        stack.extend(subs)
        if cls.__module__.startswith('chainer.functions') and not cls.__name__.startswith('_'):
            found.add(cls.__name__)
            if any(sub.__module__.startswith('chainer.functions') for sub in subs):
                bases.add(cls.__name__)
    return found, bases


def markdown_table() -> str:
    """The table (Markdown) of converters and of the function nodes that do not export."""
    lines = ['| category | function node | from opset | output changes at |',
             '| --- | --- | --- | --- |']
    for module in _MODULES:
        category = module.__name__.rsplit('.', 1)[-1]
        for attr in sorted(vars(module)):
            if not attr.startswith('convert_'):
                continue
            versions = getattr(getattr(module, attr), 'opset_versions', (7,))
            changes = ', '.join(str(v) for v in versions[1:]) or '-'
            lines.append(f'| {category} | `{attr[len("convert_"):]}` | {versions[0]} | '
                         f'{changes} |')
    lines += ['', f'{len(converters)} converters.', '',
              '| does not export | function nodes |', '| --- | --- |']
    known, bases = _function_nodes()
    listed: set[str] = set(bases)
    for reason, names in NOT_EXPORTED.items():
        present = sorted(n for n in names.split() if n in known and n not in converters)
        listed.update(present)
        if present:
            lines.append(f'| {reason} | {", ".join(f"`{n}`" for n in present)} |')
    rest = sorted(n for n in known - set(converters) - listed
                  if not n.endswith(('Grad', 'GradW', 'GradData', 'Grad2', 'GradSP')))
    if rest:
        lines.append('| not written yet (each would need a composition of several ONNX '
                     f'operators) | {", ".join(f"`{n}`" for n in rest)} |')
    return '\n'.join(lines) + '\n'


def current(readme: str) -> bool:
    """Whether the README text holds the current table."""
    return _replaced(readme) == readme


def _replaced(readme: str) -> str:
    head, sep, tail = readme.partition(START)
    if not sep or END not in tail:
        raise ValueError(f'the README has no {START} ... {END} section')
    _, _, rest = tail.partition(END)
    return f'{head}{START}\n\n{markdown_table()}\n{END}{rest}'


def main(argv: list[str]) -> int:
    path = Path(argv[0] if argv else 'README.md')
    path.write_text(_replaced(path.read_text()))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
