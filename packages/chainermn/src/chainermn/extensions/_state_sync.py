"""Copying the serializable state of an object from one process to others."""

from __future__ import annotations

from typing import Any


def bcast_state(target: Any, mpi_comm: Any, root: int = 0) -> None:
    """Make ``target`` (anything with ``serialize``) on every process of ``mpi_comm`` a copy
    of the one on ``root``: its state is serialized to arrays, broadcast and loaded."""
    from chainer import serializers

    state = None
    if mpi_comm.rank == root:
        serializer = serializers.DictionarySerializer()
        serializer.save(target)
        state = serializer.target
    state = mpi_comm.bcast(state, root=root)
    if mpi_comm.rank != root:
        serializers.NpzDeserializer(state).load(target)
