"""chainer.computational_graph: graph building, DOT output, rendering with Graphviz."""

import re
import shutil
import subprocess

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import computational_graph as c

DOT = shutil.which('dot')
needs_dot = pytest.mark.skipif(
    DOT is None, reason='Graphviz "dot" is not installed (apt-get install graphviz); '
                        'the DOT text is still checked by the other tests')


def _mlp():
    x = chainer.Variable(numpy.ones((2, 3), numpy.float32), name='x')
    W = chainer.Variable(numpy.ones((4, 3), numpy.float32), name='W')
    h = F.linear(x, W)
    h.name = 'h'
    y = F.relu(h)
    loss = F.sum(y)
    loss.name = 'loss'
    return x, W, h, y, loss


def _render(dot_text, tmp_path):
    src = tmp_path / 'g.dot'
    src.write_text(dot_text)
    out = tmp_path / 'g.png'
    done = subprocess.run([DOT, '-Tpng', str(src), '-o', str(out)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:8] == b'\x89PNG\r\n\x1a\n'
    return done


def test_nodes_and_edges():
    x, W, h, y, loss = _mlp()
    g = c.build_computational_graph([loss])
    variables = [n for n in g.nodes if isinstance(n, chainer.variable.VariableNode)]
    functions = [n for n in g.nodes if isinstance(n, chainer.FunctionNode)]
    assert {v.name for v in variables} == {'x', 'W', 'h', None, 'loss'}
    assert sorted(f.label for f in functions) == sorted(
        [h.creator.label, y.creator.label, loss.creator.label])
    assert len(g.edges) == 7  # x, W -> linear -> h -> relu -> y -> sum -> loss
    assert (x.node, h.creator) in g.edges and (h.creator, h.node) in g.edges
    # One Variable (not a list) is accepted too.
    assert len(c.build_computational_graph(loss).nodes) == len(g.nodes)


def test_dump_is_dot_with_styles_and_names():
    *_, loss = _mlp()
    text = c.build_computational_graph([loss]).dump()
    assert text.startswith('digraph graphname{rankdir=TB;') and text.endswith('}')
    assert 'label="x: (2, 3), float32"' in text
    assert 'shape="octagon",fillcolor="#E0E0E0",style="filled"' in text
    assert 'shape="record",fillcolor="#6495ED",style="filled"' in text
    assert len(re.findall(r'^\d+ -> \d+;$', text, flags=re.M)) == 7


@needs_dot
def test_dot_renders_the_graph(tmp_path):
    *_, loss = _mlp()
    _render(c.build_computational_graph([loss]).dump(), tmp_path)


@needs_dot
@pytest.mark.parametrize('kwargs', [
    {'rankdir': 'LR'}, {'remove_variable': True}, {'show_name': False},
    {'variable_style': None, 'function_style': None},
    {'variable_style': {'shape': 'box', 'color': 'red'}, 'rankdir': 'BT'},
])
def test_dot_renders_every_option(tmp_path, kwargs):
    *_, loss = _mlp()
    _render(c.build_computational_graph([loss], **kwargs).dump(), tmp_path)


@needs_dot
def test_awkward_names_render(tmp_path):
    x = chainer.Variable(numpy.ones(3, numpy.float32), name='say "hi" {a|b} <c> \\ end')
    y = F.sigmoid(x)
    text = c.build_computational_graph([y]).dump()
    _render(text, tmp_path)
    done = subprocess.run([DOT, '-Tplain'], input=text, capture_output=True, text=True,
                          timeout=60)
    assert 'hi' in done.stdout


def test_options_in_text():
    *_, loss = _mlp()
    text = c.build_computational_graph([loss], rankdir='LR', variable_style=None,
                                       function_style={'shape': 'box'},
                                       show_name=False).dump()
    assert 'rankdir=LR;' in text
    assert 'octagon' not in text and 'shape="box"' in text
    assert 'label="x:' not in text and 'loss' not in text


def test_remove_variable_connects_functions():
    x, W, h, y, loss = _mlp()
    g = c.build_computational_graph([loss], remove_variable=True)
    text = g.dump()
    assert 'float32' not in text  # no variable node is drawn
    lin, relu, s = h.creator, y.creator, loss.creator
    edges = set(re.findall(r'^(\d+) -> (\d+);$', text, flags=re.M))
    assert edges == {(str(id(lin)), str(id(relu))), (str(id(relu)), str(id(s)))}


def test_only_backward_reachable_nodes():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    y = F.relu(x)
    z = F.sigmoid(x)
    g = c.build_computational_graph([y])
    assert z.creator not in g.nodes and z.node not in g.nodes
    both = c.build_computational_graph([y, z])
    assert z.creator in both.nodes and sum(n is x.node for n in both.nodes) == 1


def test_unchain_backward_stops_the_walk():
    x, W, h, y, loss = _mlp()
    h.unchain_backward()
    g = c.build_computational_graph([loss])
    assert x.node not in g.nodes and h.node in g.nodes


def test_multiple_output_function():
    x = chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    a, b = F.split_axis(x, 2, axis=0) if hasattr(F, 'split_axis') else (x * 1, x * 2)
    g = c.build_computational_graph([a, b])
    assert a.node in g.nodes and b.node in g.nodes


def test_old_style_function_label():
    class Twice(chainer.Function):
        def forward(self, inputs):
            return (inputs[0] * 2,)

        def backward(self, inputs, grad_outputs):
            return (grad_outputs[0] * 2,)

    x = chainer.Variable(numpy.ones(2, numpy.float32))
    y = Twice()(x)
    text = c.build_computational_graph([y]).dump()
    assert 'label="Twice"' in text


def test_errors():
    *_, loss = _mlp()
    with pytest.raises(ValueError, match='remove_split'):
        c.build_computational_graph([loss], remove_split=False)
    with pytest.raises(ValueError, match='rankdir'):
        c.build_computational_graph([loss], rankdir='XY')
    with pytest.raises(NotImplementedError):
        c.build_computational_graph([loss]).dump(format='png')
    with pytest.raises(TypeError):
        c.build_computational_graph([numpy.ones(2)])
    with pytest.raises(TypeError):
        c.build_computational_graph([loss], variable_style='fancy')


def test_dot_node():
    x = chainer.Variable(numpy.ones((2,), numpy.float64), name='x')
    node = c.DotNode(x.node, {'shape': 'box'})
    assert node.id_ == id(x.node)
    assert node.label == f'{id(x.node)} [label="x: (2), float64",shape="box"];'
    assert 'x' not in c.DotNode(x.node, show_name=False).label.split('label=')[1][:3]
    with pytest.raises(TypeError):
        c.DotNode(x)
