"""Tests of tools/api_coverage.py: checklist parser, signature comparison, the report."""

from __future__ import annotations

import inspect
import sys
import textwrap
import types

import pytest
from api_coverage import (
    Entry,
    compare_signatures,
    is_incidental,
    main,
    parse_checklist,
    parse_signature,
)

SAMPLE = textwrap.dedent("""\
    # A comment line.

    ## fakechainer
    class fakechainer.Thing(a, b=2, *, c='x') -> None
    fakechainer.func(x, y=1e-05, *args, **kwargs)
    fakechainer.sub  (module)
    fakechainer.np  (module)
    fakechainer.flag  = <bool>
    fakechainer.printer(sep=None, end='\\n', file=<_io.Wrapper name='<stdout>' mode='w'>, flush=1)
    class fakechainer.Error(...)
    fakechainer.missing_one(a)

    ## fakechainer.sub
    fakechainer.sub.helper(dtype=<class 'float'>, converter=<obj.Conv object at 0x7f>)

    ## methods and properties of core classes

    class fakechainer.Thing(a, b=2, *, c='x') -> None
        .size  (property)
        .run(self, n, verbose=False)
        .__len__(self)
        .absent(self)
    """)


def _install_fake(monkeypatch):
    pkg = types.ModuleType('fakechainer')
    pkg.__path__ = []
    sub = types.ModuleType('fakechainer.sub')

    class Thing:
        def __init__(self, a, b=2, *, c='x'):
            pass

        @property
        def size(self):
            return 0

        def run(self, n, verbose=True):  # default differs from v7
            pass

        def __len__(self):
            return 0

    def func(x, y=0.00001, *args, **kwargs):
        pass

    def printer(sep=None, end='\n', file=None, flush=True):
        pass

    def helper(dtype=float, converter=None, extra=3):
        pass

    class Error(Exception):
        pass

    pkg.Thing, pkg.func, pkg.printer, pkg.Error = Thing, func, printer, Error
    pkg.flag = True
    pkg.np = sys  # an imported module, as v7 modules import numpy
    pkg.sub = sub
    sub.helper = helper
    monkeypatch.setitem(sys.modules, 'fakechainer', pkg)
    monkeypatch.setitem(sys.modules, 'fakechainer.sub', sub)


def test_parse_checklist_kinds():
    entries = parse_checklist(SAMPLE)
    kinds = [(e.name, e.kind) for e in entries]
    assert kinds == [
        ('fakechainer.Thing', 'class'), ('fakechainer.func', 'function'),
        ('fakechainer.sub', 'module'), ('fakechainer.np', 'module'),
        ('fakechainer.flag', 'attribute'), ('fakechainer.printer', 'function'),
        ('fakechainer.Error', 'class'), ('fakechainer.missing_one', 'function'),
        ('fakechainer.sub.helper', 'function'),
        ('fakechainer.Thing.size', 'property'), ('fakechainer.Thing.run', 'method'),
        ('fakechainer.Thing.__len__', 'method'), ('fakechainer.Thing.absent', 'method'),
    ]
    assert entries[0].signature == "a, b=2, *, c='x'" and entries[0].section == 'fakechainer'
    assert entries[4].value == '<bool>'
    assert entries[8].section == 'fakechainer.sub'
    assert entries[10].section == 'fakechainer.Thing'
    assert entries[6].signature == '...'


def test_parse_checklist_errors():
    with pytest.raises(ValueError, match='line 2'):
        parse_checklist('## m\nthis is not an entry\n')
    with pytest.raises(ValueError, match='outside a class'):
        parse_checklist('## methods and properties of core classes\n    .f(self)\n')


def test_the_real_checklist_parses():
    from api_coverage import DEFAULT_CHECKLIST
    entries = parse_checklist(DEFAULT_CHECKLIST.read_text(encoding='utf-8'))
    assert len(entries) > 1000
    unparsable = [e for e in entries if e.signature not in (None, '...')
                  and parse_signature(e.signature) is None]
    assert unparsable == []


def test_parse_signature_with_reprs_and_kinds():
    params = parse_signature(
        "a, /, b: Optional[int] = None, *rest, c=<class 'float'>, d='<x>', **kw")
    assert [(p.name, p.kind.name, p.default) for p in params] == [
        ('a', 'POSITIONAL_ONLY', None),
        ('b', 'POSITIONAL_OR_KEYWORD', 'None'),
        ('rest', 'VAR_POSITIONAL', None),
        ('c', 'KEYWORD_ONLY', '<repr>'),
        ('d', 'KEYWORD_ONLY', "'<x>'"),
        ('kw', 'VAR_KEYWORD', None),
    ]
    nested = parse_signature("file=<_io.TextIOWrapper name='<stdout>' mode='w'>, flush=True")
    assert [p.name for p in nested] == ['file', 'flush']
    assert parse_signature('...') is None and parse_signature(None) is None
    assert parse_signature('') == []


def _cmp(expected, func):
    return compare_signatures(parse_signature(expected), inspect.signature(func))


def test_compare_match_and_compatible():
    def f(x, y=1e-5, *, z='a'):
        pass
    assert _cmp("x, y=1e-05, *, z='a'", f).status == 'match'

    def g(x, y=1e-5, *, z='a', extra=None, **kwargs):
        pass
    result = _cmp("x, y=1e-05, *, z='a'", g)
    assert result.status == 'compatible'
    assert 'extra optional parameter extra' in result.notes

    def h(x=0, *args, **kwargs):
        pass
    result = _cmp('x, y, *, z', h)
    assert result.status == 'compatible'  # y and z are still accepted


@pytest.mark.parametrize('expected, source, note', [
    ('x, y=1', 'def f(x, y): pass', 'y has no default'),
    ('x, y=1', 'def f(x, y=2): pass', 'y defaults to 2'),
    ('x, y', 'def f(y, x): pass', 'x is parameter 2'),
    ('x, y', 'def f(x, *, y): pass', 'keyword-only'),
    ('x, y', 'def f(x, y, z): pass', 'extra required parameter z'),
    ('x, *, flag=False', 'def f(x): pass', 'no keyword parameter flag'),
    ('*args', 'def f(): pass', 'no *args'),
    ('x', 'def f(x, /): pass', 'positional-only'),
    ("mode='auto'", "def f(mode='fast'): pass", 'mode defaults to'),
])
def test_compare_mismatch(expected, source, note):
    namespace = {}
    exec(source, namespace)
    result = _cmp(expected, namespace['f'])
    assert result.status == 'mismatch'
    assert any(note in n for n in result.notes), result.notes


def test_loose_defaults():
    def f(a=0.0001, b=(1, 2), c=None, d=float, e=True):
        pass
    assert _cmp('a=1e-4, b=[1, 2], c=None, d=numpy.float, e=True', f).status == 'match'

    def g(e=1):
        pass
    assert _cmp('e=True', g).status == 'match'  # 1 == True: loose on purpose


def test_report(monkeypatch, tmp_path, capsys):
    _install_fake(monkeypatch)
    checklist = tmp_path / 'api.txt'
    checklist.write_text(SAMPLE)
    assert main(['--checklist', str(checklist), '--missing', '--mismatches']) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    row = next(line for line in lines if line.startswith('fakechainer ')).split()
    # names present missing checked match compatible mismatch
    assert row[1:8] == ['7', '6', '1', '3', '3', '0', '0']
    sub = next(line for line in lines if line.startswith('fakechainer.sub ')).split()
    assert sub[1:8] == ['1', '1', '0', '1', '0', '1', '0']
    methods = next(line for line in lines if line.startswith('fakechainer.Thing (methods)'))
    assert methods.split()[2:9] == ['4', '3', '1', '1', '0', '0', '1']
    assert any(line.startswith('TOTAL') for line in lines)
    assert '1 module names that v7 modules merely import are not counted' in out
    assert 'fakechainer.missing_one' in out and 'fakechainer.Thing.absent' in out
    assert 'mismatch   fakechainer.Thing.run' in out and 'verbose defaults to True' in out


def test_report_module_filter_and_all(monkeypatch, tmp_path, capsys):
    _install_fake(monkeypatch)
    checklist = tmp_path / 'api.txt'
    checklist.write_text(SAMPLE)
    main(['--checklist', str(checklist), '--module', 'fakechainer.sub'])
    out = capsys.readouterr().out
    assert 'fakechainer.sub ' in out and '\nfakechainer ' not in out
    main(['--checklist', str(checklist), '--module', 'fakechainer', '--all'])
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith('fakechainer ')).split()
    assert row[1] == '8'  # the imported module alias is counted too
    assert main(['--checklist', str(checklist), '--module', 'nothing']) == 0
    assert 'no checklist entries' in capsys.readouterr().out


def test_missing_checklist_is_reported_not_fatal(tmp_path, capsys):
    assert main(['--checklist', str(tmp_path / 'absent.txt')]) == 0
    assert 'cannot read the checklist' in capsys.readouterr().out


def test_incidental_modules(monkeypatch):
    _install_fake(monkeypatch)
    assert is_incidental(Entry('fakechainer', 'fakechainer.np', 'module'))
    assert not is_incidental(Entry('fakechainer', 'fakechainer.sub', 'module'))
    # A missing submodule of a package is a real gap, unless named like a top-level module.
    assert not is_incidental(Entry('fakechainer', 'fakechainer.nosuchsub', 'module'))
    assert is_incidental(Entry('fakechainer', 'fakechainer.numpy', 'module'))
    assert not is_incidental(Entry('fakechainer', 'fakechainer.func', 'function'))
