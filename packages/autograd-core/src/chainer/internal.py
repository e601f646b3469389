"""chainer-autograd-core's internal API: what the other ``chainer`` distributions may use
of autograd-core beyond Chainer's public v7 API.

Not for user programs (it is not part of Chainer v7's API). The other distributions
(chainer-links today) import these names from here, never from autograd-core's private
modules (``chainer._cpu_blas``, ``chainer.functions._util``, ...), which may change in
any release; ``tools/check_layout.py`` enforces that.

The contract is the names in ``__all__`` (each re-exported from the private module that
defines it): their signatures and behaviour change only with a minor version of
chainer-autograd-core (8.0 -> 8.1), never in a patch release, and each change is listed
under "Internal API" in autograd-core's CHANGELOG. A distribution that imports this
module therefore declares ``chainer-autograd-core>=8.N,<8.(N+1)``.

Names:

- :func:`blas_dot`: the CPU matrix product that keeps NumPy's OpenBLAS threads from
  spinning (``chainer._cpu_blas.dot``); any other backend's ``a @ b``.
- :func:`cpu_pool`, :func:`cpu_thread_count`: the project's one pool of CPU worker
  threads (``pool.run(jobs)``) and how many threads CPU work may use
  (``CHAINER_CPU_THREADS``; ``chainer._threads``).
- :func:`jit_kernel`, :func:`jit_enabled`, :data:`jit_dtypes`: compiled CPU kernels
  through Numba, whether they run now (``chainer.config.use_numba``) and the dtypes
  they take (``chainer._jit``).
- :func:`deferred_grad_wanted`, :class:`DeferredProductSum`: a backward that returns a
  weight gradient as factors, summed by the backward pass in one product when it ends
  (``chainer._deferred_grad``).
- :func:`gpu_blas_capture_stream`, :func:`gpu_blas_end_capture`: point cuBLAS at the
  stream of a CUDA graph capture before it begins, and call it directly until the
  capture ends (``chainer._gpu_blas``).
- :func:`first_axis_sum`: ``a.sum(axis=0)`` of a matrix, one kernel launch on a GPU
  (bias gradients; ``chainer.functions._util``).
- :func:`grad_by_recompute`: the differentiable backward of a fused node, through a
  recomputation of its forward with differentiable functions (double backprop).
- :func:`v7_type_error`: the ``InvalidType`` v7's own type check raises for some inputs.
- :func:`lstm_kernels_usable`, :func:`lstm_forward_kernel`, :func:`lstm_backward_kernel`:
  the fused CUDA kernels of the LSTM cell update (``chainer.functions.rnn._lstm_kernels``).
- :func:`report_choose_unit`, :func:`report_format_value`, :func:`report_print_table`:
  the tables of the profiling hooks (``chainer.function_hooks._report``).
- :func:`chainerx_fallback`, :func:`chainerx_sync`: the Variable over the NumPy/CuPy
  arrays behind a Variable on a ChainerX device (the same array objects), for updates
  that run there, and the adoption of arrays such an update assigned
  (``chainer._chainerx_bridge``).
"""

from __future__ import annotations

from chainer._chainerx_bridge import fallback as chainerx_fallback
from chainer._chainerx_bridge import sync as chainerx_sync
from chainer._cpu_blas import dot as blas_dot
from chainer._deferred_grad import ProductSum as DeferredProductSum
from chainer._deferred_grad import wanted as deferred_grad_wanted
from chainer._gpu_blas import end_capture as gpu_blas_end_capture
from chainer._gpu_blas import set_stream_for_capture as gpu_blas_capture_stream
from chainer._jit import FLOAT_DTYPES as jit_dtypes
from chainer._jit import enabled as jit_enabled
from chainer._jit import kernel as jit_kernel
from chainer._threads import pool as cpu_pool
from chainer._threads import thread_count as cpu_thread_count
from chainer.function_hooks._report import choose_unit as report_choose_unit
from chainer.function_hooks._report import format_value as report_format_value
from chainer.function_hooks._report import print_table as report_print_table
from chainer.functions._util import first_axis_sum, grad_by_recompute, v7_type_error
from chainer.functions.rnn._lstm_kernels import backward as lstm_backward_kernel
from chainer.functions.rnn._lstm_kernels import forward as lstm_forward_kernel
from chainer.functions.rnn._lstm_kernels import usable as lstm_kernels_usable

__all__ = [
    'DeferredProductSum',
    'blas_dot',
    'chainerx_fallback',
    'chainerx_sync',
    'cpu_pool',
    'cpu_thread_count',
    'deferred_grad_wanted',
    'first_axis_sum',
    'gpu_blas_capture_stream',
    'gpu_blas_end_capture',
    'grad_by_recompute',
    'jit_dtypes',
    'jit_enabled',
    'jit_kernel',
    'lstm_backward_kernel',
    'lstm_forward_kernel',
    'lstm_kernels_usable',
    'report_choose_unit',
    'report_format_value',
    'report_print_table',
    'v7_type_error',
]
