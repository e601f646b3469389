"""Chainer v7's static-graph optimizations (``chainer.graph_optimizations``).

A chain whose forward is decorated with ``static_graph`` is traced on its first call
(per configuration and input signature) and replayed afterwards: one function node runs
the recorded functions' forward and backward on arrays, without building the graph of
each function again (``_trace`` records, ``_replay`` runs, ``static_graph`` decides).
"""

from chainer.graph_optimizations import static_graph, static_graph_utilities
