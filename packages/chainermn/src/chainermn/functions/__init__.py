"""Differentiable communication between processes, as Chainer functions."""

from chainermn.functions.collective_communication import (
    allgather,
    alltoall,
    bcast,
    gather,
    scatter,
)
from chainermn.functions.point_to_point_communication import recv, send
from chainermn.functions.pseudo_connect import pseudo_connect
