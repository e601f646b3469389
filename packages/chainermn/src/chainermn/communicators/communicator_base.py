"""The interface every ChainerMN communicator implements, and its configuration store."""

from __future__ import annotations

import abc
import contextlib
import warnings
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mpi4py import MPI

    from chainer.link import Link
    from chainer.types import DTypeSpec, NdArray


class CommunicatorBase(abc.ABC):
    """Interface of all communicators (methods named after the MPI functions they mirror).

    Methods with the ``_obj`` suffix move picklable Python objects; the others move
    NumPy/CuPy arrays. Besides the transfers, a communicator averages the gradients of
    a model over the processes (:meth:`multi_node_mean_grad`) and broadcasts its
    parameters (:meth:`bcast_data`).

    Configuration values (:meth:`set_config` / :meth:`get_config`) also read as
    attributes: ``comm.batched_copy``.
    """

    _config_defaults: dict[str, Any] = {'batched_copy': True}

    def __init__(self) -> None:
        object.__setattr__(self, '_configs', dict(self._config_defaults))
        object.__setattr__(self, '_in_config_scope', False)

    # -- configuration -----------------------------------------------------------------
    def set_config(self, name: str, value: bool | DTypeSpec = True, **kwargs: Any) -> None:
        """Set the configuration ``name`` to ``value`` (True when not given).

        Raises:
            ValueError: for a name this communicator does not know, or a bad value.
        """
        if name not in self._config_defaults:
            raise ValueError(f'{type(self).__name__} has no configuration {name!r}; it has '
                             f'{sorted(self._config_defaults)}')
        self._configs[name] = self._check_config(name, value, **kwargs)

    def _check_config(self, name: str, value: Any, **kwargs: Any) -> Any:
        """Validate a configuration value (subclasses check their own names)."""
        if kwargs:
            raise TypeError(f'configuration {name!r} takes no keyword arguments, got '
                            f'{sorted(kwargs)}')
        if name == 'batched_copy':
            return bool(value)
        return value

    def get_config(self, name: str | None = None) -> Any:
        """The value of the configuration ``name``, or a dict of all when ``name`` is None.

        Raises:
            ValueError: for a name this communicator does not know.
        """
        if name is None:
            return dict(self._configs)
        if name not in self._configs:
            raise ValueError(f'{type(self).__name__} has no configuration {name!r}')
        return self._configs[name]

    @contextlib.contextmanager
    def config_scope(self) -> Iterator[None]:
        """Context in which attribute assignments on the communicator set configurations."""
        old = self._in_config_scope
        object.__setattr__(self, '_in_config_scope', True)
        try:
            yield
        finally:
            object.__setattr__(self, '_in_config_scope', old)

    def __setattr__(self, name: str, value: Any) -> None:
        if self.__dict__.get('_in_config_scope'):
            self._configs[name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:
        configs = self.__dict__.get('_configs')
        if configs is not None and name in configs:
            return configs[name]
        raise AttributeError(f'{type(self).__name__!r} object has no attribute {name!r}')

    def __copy__(self) -> CommunicatorBase:
        return self  # a handle on shared MPI/NCCL resources: copies of links share it

    def __deepcopy__(self, memo: dict[int, Any]) -> CommunicatorBase:
        return self

    # -- topology ----------------------------------------------------------------------
    @property
    @abc.abstractmethod
    def rank(self) -> int:
        """Rank (process id in the communicator) of this process."""

    @property
    @abc.abstractmethod
    def size(self) -> int:
        """Number of processes of the communicator."""

    @property
    @abc.abstractmethod
    def intra_rank(self) -> int:
        """Rank of this process among the processes of its node (machine)."""

    @property
    @abc.abstractmethod
    def intra_size(self) -> int:
        """Number of processes on this process's node."""

    @property
    @abc.abstractmethod
    def inter_rank(self) -> int:
        """Rank of this process's node among the nodes."""

    @property
    @abc.abstractmethod
    def inter_size(self) -> int:
        """Number of nodes."""

    @abc.abstractmethod
    def split(self, color: int, key: int) -> CommunicatorBase:
        """A communicator over the processes that pass the same ``color`` (``MPI_Comm_split``);
        ``key`` orders the ranks of the new communicator."""

    # -- arrays --------------------------------------------------------------------------
    @abc.abstractmethod
    def send(self, data: NdArray | Sequence[NdArray], dest: int, tag: int) -> None:
        """Send an array, or a tuple/list of arrays, to process ``dest``."""

    @abc.abstractmethod
    def recv(self, source: int, tag: int) -> NdArray | tuple[NdArray, ...]:
        """Receive what :meth:`send` sent from ``source``: an array or a tuple of arrays."""

    @abc.abstractmethod
    def bcast(self, data: NdArray | None, max_buf_len: int | None = None,
              root: int = 0) -> NdArray:
        """Broadcast an array from ``root`` (the others pass None); returns it everywhere."""

    @abc.abstractmethod
    def gather(self, data: NdArray, root: int = 0) -> tuple[NdArray, ...] | None:
        """Gather one array per process on ``root`` (a tuple there, None elsewhere)."""

    @abc.abstractmethod
    def allgather(self, x: NdArray) -> tuple[NdArray, ...]:
        """Gather one array per process on every process (a tuple, by rank)."""

    @abc.abstractmethod
    def alltoall(self, xs: Sequence[NdArray]) -> tuple[NdArray, ...]:
        """Send ``xs[i]`` to process ``i``; returns what each process sent here, by rank."""

    @abc.abstractmethod
    def scatter(self, xs: Sequence[NdArray] | NdArray | None, root: int = 0) -> NdArray:
        """Send ``xs[i]`` of ``root`` to process ``i``; returns this process's array."""

    @abc.abstractmethod
    def allreduce(self, data: NdArray) -> NdArray:
        """The elementwise sum of ``data`` over all processes, on every process."""

    # -- objects ---------------------------------------------------------------------------
    @abc.abstractmethod
    def send_obj(self, obj: Any, dest: int, tag: int = 0) -> None:
        """Send a picklable object to ``dest``."""

    @abc.abstractmethod
    def recv_obj(self, source: int, status: MPI.Status | None = None,
                 tag: int | None = None) -> Any:
        """Receive an object sent by :meth:`send_obj` (any tag when ``tag`` is None)."""

    @abc.abstractmethod
    def bcast_obj(self, obj: Any, max_buf_len: int | None = None, root: int = 0) -> Any:
        """Broadcast a picklable object from ``root`` to every process."""

    @abc.abstractmethod
    def gather_obj(self, obj: Any, root: int = 0) -> Any:
        """Gather one object per process on ``root`` (a list by rank; None elsewhere)."""

    @abc.abstractmethod
    def allreduce_obj(self, obj: Any) -> Any:
        """The sum (``+``) of ``obj`` over all processes, on every process."""

    # -- models ----------------------------------------------------------------------------
    @abc.abstractmethod
    def bcast_data(self, model: Link) -> None:
        """Overwrite the parameters of ``model`` everywhere with those of rank 0."""

    @abc.abstractmethod
    def multi_node_mean_grad(self, model: Link, zero_fill: bool = False) -> None:
        """Replace every parameter gradient of ``model`` by its mean over the processes.

        Args:
            model: a :class:`chainer.Link`; the same parameters on every process.
            zero_fill: a parameter without gradient (unused in this step) takes part
                with zeros; when False it is skipped (it must then be skipped on
                every process). Uninitialized parameters are always skipped.
        """

    def allreduce_grad(self, model: Link, zero_fill: bool = False) -> None:
        """Deprecated name of :meth:`multi_node_mean_grad` (v7)."""
        warnings.warn('allreduce_grad is deprecated: use multi_node_mean_grad',
                      DeprecationWarning, stacklevel=2)
        self.multi_node_mean_grad(model, zero_fill)

    def finalize(self) -> None:  # noqa: B027 - optional: most communicators hold nothing
        """Release the resources of the communicator (not usable afterwards)."""
