"""Chainer v7's static-graph optimizations (``chainer.graph_optimizations``).

v7 could trace a chain's forward once and replay it (``static_graph``). Here every
forward runs define-by-run, with the same results; the decorators are accepted, and a
decorated chain records its schedules for inspection (``chain.schedule_manager``), so
that code written for v7 imports and runs unchanged.
"""

from chainer.graph_optimizations import static_graph, static_graph_utilities
