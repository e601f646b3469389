"""Visualization of the computational graph as Graphviz DOT.

``build_computational_graph(outputs)`` collects the variable and function
nodes backward-reachable from ``outputs``; ``ComputationalGraph.dump()``
writes them in the DOT language (render with ``dot -Tpng``).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from chainer import function_node, variable

if TYPE_CHECKING:
    from typing import TypeAlias

    # where the walk of build_computational_graph starts
    GraphOutput: TypeAlias = variable.Variable | variable.VariableNode | function_node.FunctionNode

__all__ = ['ComputationalGraph', 'DotNode', 'build_computational_graph']

_DEFAULT_VARIABLE_STYLE = {'shape': 'octagon', 'fillcolor': '#E0E0E0', 'style': 'filled'}
_DEFAULT_FUNCTION_STYLE = {'shape': 'record', 'fillcolor': '#6495ED', 'style': 'filled'}
_RANKDIRS = ('TB', 'BT', 'LR', 'RL')


def _quote(value: Any) -> str:
    """A DOT double-quoted string (newlines become ``\\n`` escapes)."""
    text = str(value).replace('\\', '\\\\').replace('"', '\\"')
    text = text.replace('\r\n', '\n').replace('\n', '\\n')
    return f'"{text}"'


def _is_function(node: Any) -> bool:
    return isinstance(node, function_node.FunctionNode)


def _node_label(node: Any, show_name: bool) -> str:
    label = node.label
    if _is_function(node):
        # Old-style functions run through an adapter: show the function's own label.
        label = getattr(getattr(node, 'function', None), 'label', label)
    name = getattr(node, 'name', None)
    if show_name and name is not None:
        return f'{name}: {label}'  # v7's form
    return label


def _escape_record(text: str) -> str:
    # In a "record" shape, these characters delimit fields.
    for ch in '{}|<>':
        text = text.replace(ch, '\\' + ch)
    return text


class DotNode:
    """A node of the graph with its DOT representation.

    Args:
        node: a :class:`~chainer.variable.VariableNode` or a
            :class:`~chainer.FunctionNode`.
        attribute: DOT attributes (e.g. ``{'shape': 'box'}``) added to the label.
        show_name: prefix the label with the node's name when it has one.
    """

    def __init__(self, node: variable.VariableNode | function_node.FunctionNode,
                 attribute: Mapping[str, Any] | None = None, show_name: bool = True) -> None:
        if not isinstance(node, (variable.VariableNode, function_node.FunctionNode)):
            raise TypeError('node must be a VariableNode or a FunctionNode, not '
                            f'{type(node).__name__}')
        self.node = node
        self.id_ = id(node)
        label = _node_label(node, show_name)
        attr = dict(attribute or {})
        if attr.get('shape') == 'record':
            label = _escape_record(label)
        self.attribute = {'label': label, **attr}

    @property
    def label(self) -> str:
        """The DOT statement of the node: ``<id> [label="...",...];``."""
        attrs = ','.join(f'{k}={_quote(v)}' for k, v in self.attribute.items())
        return f'{self.id_} [{attrs}];'


def _style(style: Any, default: dict[str, str], what: str) -> dict[str, Any] | None:
    if isinstance(style, str) and style == 'default':
        return dict(default)
    if style is None:
        return None
    if isinstance(style, Mapping):
        return dict(style)
    raise TypeError(f'{what} must be a dict, None or "default", not {type(style).__name__}')


class ComputationalGraph:
    """A computational graph: its nodes and edges, dumped in DOT.

    Args:
        nodes: the nodes (VariableNode and FunctionNode objects).
        edges: pairs ``(from, to)`` of nodes.
        variable_style: DOT attributes of variable nodes; ``'default'`` is
            ``{'shape': 'octagon', 'fillcolor': '#E0E0E0', 'style': 'filled'}``,
            None for none.
        function_style: DOT attributes of function nodes; ``'default'`` is
            ``{'shape': 'record', 'fillcolor': '#6495ED', 'style': 'filled'}``.
        rankdir: ``'TB'``, ``'BT'``, ``'LR'`` or ``'RL'``.
        remove_variable: show only function nodes, with an edge from a
            function to each function consuming one of its outputs.
        show_name: put the names of named nodes into their labels.

    Raises:
        ValueError: for an unknown ``rankdir``.
    """

    def __init__(self, nodes: Iterable[Any], edges: Iterable[tuple[Any, Any]],
                 variable_style: Mapping[str, Any] | str | None = 'default',
                 function_style: Mapping[str, Any] | str | None = 'default', rankdir: str = 'TB',
                 remove_variable: bool = False, show_name: bool = True) -> None:
        if rankdir not in _RANKDIRS:
            raise ValueError(f'rankdir must be one of {_RANKDIRS}, not {rankdir!r}')
        self.nodes = list(nodes)
        self.edges = list(edges)
        self.variable_style = _style(variable_style, _DEFAULT_VARIABLE_STYLE,
                                     'variable_style')
        self.function_style = _style(function_style, _DEFAULT_FUNCTION_STYLE,
                                     'function_style')
        self.rankdir = rankdir
        self.remove_variable = remove_variable
        self.show_name = show_name

    def _function_edges(self) -> list[tuple[Any, Any]]:
        """Function-to-function edges through the variables between them."""
        producers: dict[Any, list[Any]] = {}
        consumers: dict[Any, list[Any]] = {}
        for head, tail in self.edges:
            if _is_function(head) and not _is_function(tail):
                producers.setdefault(tail, []).append(head)
            elif not _is_function(head) and _is_function(tail):
                consumers.setdefault(head, []).append(tail)
        edges = []
        seen = set()
        for var, funcs in producers.items():
            for f in funcs:
                for g in consumers.get(var, ()):
                    if (f, g) not in seen:
                        seen.add((f, g))
                        edges.append((f, g))
        return edges

    def _to_dot(self) -> str:
        lines = [f'digraph graphname{{rankdir={self.rankdir};']
        nodes = self.nodes
        edges = self.edges
        if self.remove_variable:
            nodes = [n for n in nodes if _is_function(n)]
            edges = self._function_edges()
        for node in nodes:
            style = self.function_style if _is_function(node) else self.variable_style
            lines.append(DotNode(node, style, self.show_name).label)
        for head, tail in edges:
            lines.append(f'{id(head)} -> {id(tail)};')
        lines.append('}')
        return '\n'.join(lines)

    def dump(self, format: str = 'dot') -> str:
        """The graph as text in ``format`` (only ``'dot'`` is supported).

        Raises:
            NotImplementedError: for another format.
        """
        if format != 'dot':
            raise NotImplementedError(f'format {format!r} is not supported: only "dot" is')
        return self._to_dot()

    def __repr__(self) -> str:
        return (f'<ComputationalGraph {len(self.nodes)} nodes, {len(self.edges)} edges, '
                f'rankdir={self.rankdir}>')


def _start_nodes(outputs: Any
                 ) -> list[variable.VariableNode | function_node.FunctionNode]:
    if isinstance(outputs, (variable.Variable, variable.VariableNode,
                            function_node.FunctionNode)):
        outputs = [outputs]
    starts: list[variable.VariableNode | function_node.FunctionNode] = []
    for o in outputs:
        if isinstance(o, variable.Variable):
            starts.append(o.node)
        elif isinstance(o, (variable.VariableNode, function_node.FunctionNode)):
            starts.append(o)
        elif hasattr(o, 'node') and isinstance(o.node, function_node.FunctionNode):
            starts.append(o.node)  # an old-style Function
        else:
            raise TypeError('outputs must be Variables, VariableNodes or FunctionNodes, not '
                            f'{type(o).__name__}')
    return starts


def build_computational_graph(outputs: GraphOutput | Iterable[GraphOutput],
                              remove_split: bool = True,
                              variable_style: Mapping[str, Any] | str | None = 'default',
                              function_style: Mapping[str, Any] | str | None = 'default',
                              rankdir: str = 'TB', remove_variable: bool = False,
                              show_name: bool = True) -> ComputationalGraph:
    """Build the graph of functions and variables backward-reachable from ``outputs``.

    The walk goes from each output to its creator, from a function to its
    inputs, and so on; it stops at variables without a creator (leaves, or
    variables after ``unchain_backward``). Outputs of a function that are not
    themselves backward-reachable from ``outputs`` are left out.

    Args:
        outputs: a Variable, VariableNode or FunctionNode, or a list of them.
        remove_split: must be True (kept for compatibility: there are no split
            nodes since Chainer v2).
        variable_style, function_style, rankdir, remove_variable, show_name:
            see :class:`ComputationalGraph`.

    Returns:
        The :class:`ComputationalGraph`.

    Raises:
        ValueError: when ``remove_split`` is False.
    """
    if not remove_split:
        raise ValueError('remove_split=False is not supported anymore: split nodes do not '
                         'exist since Chainer v2')
    nodes: list[Any] = []
    edges: list[tuple[Any, Any]] = []
    seen: set[int] = set()
    seen_edges: set[tuple[int, int]] = set()
    heap: list[tuple[int, int, Any]] = []
    counter = 0

    def push(node: Any) -> None:
        nonlocal counter
        if id(node) in seen:
            return
        seen.add(id(node))
        nodes.append(node)
        # Visit higher ranks first: outputs before their creators.
        heapq.heappush(heap, (-node.rank, counter, node))
        counter += 1

    def edge(head: Any, tail: Any) -> None:
        key = (id(head), id(tail))
        if key not in seen_edges:
            seen_edges.add(key)
            edges.append((head, tail))

    for start in _start_nodes(outputs):
        push(start)
    while heap:
        _, _, node = heapq.heappop(heap)
        if _is_function(node):
            for input_node in node.inputs or ():
                edge(input_node, node)
                push(input_node)
        else:
            creator = node.creator_node
            if creator is not None:
                edge(creator, node)
                push(creator)
    return ComputationalGraph(nodes, edges, variable_style, function_style, rankdir,
                              remove_variable, show_name)
