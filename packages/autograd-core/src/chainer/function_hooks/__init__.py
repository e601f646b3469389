"""Function hooks: timing, printing and CUDA profiling around every function call.

Use a hook globally with ``with hook:`` or on one node with
``FunctionNode.add_hook(hook)``.
"""

from chainer.function_hooks import cuda_profile, cupy_memory_profile, debug_print, timer
from chainer.function_hooks.cuda_profile import CUDAProfileHook
from chainer.function_hooks.cupy_memory_profile import CupyMemoryProfileHook
from chainer.function_hooks.debug_print import PrintHook
from chainer.function_hooks.timer import TimerHook
