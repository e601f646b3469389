"""ChainerMN timings, run as an MPI job (``nox -s mnbench`` runs the standard set).

``mpiexec -n 2 python tools/bench/mn.py allreduce [--params 25000000]``
    ``multi_node_mean_grad`` of a model of ``--params`` float32 parameters (in 10
    arrays) with the naive and flat communicators, against the floor: one
    ``MPI_Allreduce`` of a buffer of the same size from mpi4py.

``mpiexec -n N python tools/bench/mn.py mlp [--batch 100]``
    The step (forward, cleargrads, backward, gradient averaging, Adam update) of the
    ``mlp`` workload of ``nox -s bench`` (784-1000-1000-10) with the multi-node
    optimizer, ``--batch`` examples per process.

Times are medians over ``--repeat`` runs after warm-up; each run is timed as the
slowest process, between barriers. Rank 0 prints one line per measurement.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))


def _timed(mpi_comm, run: Callable[[], None], repeat: int, warmup: int) -> float:
    """Median over ``repeat`` runs of the slowest process's time of ``run()``, in seconds."""
    from mpi4py import MPI

    times = []
    for i in range(warmup + repeat):
        mpi_comm.Barrier()
        start = time.perf_counter()
        run()
        elapsed = mpi_comm.allreduce(time.perf_counter() - start, op=MPI.MAX)
        if i >= warmup:
            times.append(elapsed)
    return statistics.median(times)


def allreduce(args: argparse.Namespace) -> None:
    from mpi4py import MPI

    import chainer
    import chainermn

    world = MPI.COMM_WORLD
    n_arrays = 10
    side = int(round((args.params / n_arrays) ** 0.5))
    model = chainer.ChainList(*[chainer.links.Linear(side, side, nobias=True)
                                for _ in range(n_arrays)])
    n_params = sum(p.size for p in model.params())
    for p in model.params():
        p.grad = np.full_like(p.array, world.rank)
    buf = np.ones(n_params, np.float32)

    def floor() -> None:
        world.Allreduce(MPI.IN_PLACE, buf, op=MPI.SUM)

    results = {'MPI_Allreduce of one buffer (mpi4py)': _timed(world, floor, args.repeat, 2)}
    for name in ('naive', 'flat'):
        comm = chainermn.create_communicator(name)
        results[f'multi_node_mean_grad ({name})'] = _timed(
            world, lambda c=comm: c.multi_node_mean_grad(model), args.repeat, 2)
    if world.rank == 0:
        base = results['MPI_Allreduce of one buffer (mpi4py)']
        print(f'{n_params / 1e6:.1f}M float32 parameters ({n_params * 4 / 2**20:.0f} MiB) '
              f'in {n_arrays} arrays, {world.size} processes, median of {args.repeat}:')
        for label, t in results.items():
            print(f'  {label:40s} {t * 1e3:8.1f} ms  {t / base:5.2f}x the floor')


def mlp(args: argparse.Namespace) -> None:
    import bench_data
    import chainer_workloads
    from mpi4py import MPI

    import chainer
    import chainermn

    world = MPI.COMM_WORLD
    comm = chainermn.create_communicator(args.communicator)
    model, actual = chainer_workloads._mlp()
    x_all, t_all = bench_data.make('mlp')
    rng = np.random.default_rng(world.rank)
    take = rng.integers(0, len(x_all), args.batch)
    x, t = x_all[take], t_all[take]
    optimizer = chainermn.create_multi_node_optimizer(actual, comm).setup(model)
    optimizer.update()  # the initial broadcast

    def step() -> None:
        optimizer.update(model, x, t)

    seconds = _timed(world, step, args.repeat, 3)
    if world.rank == 0:
        print(f'mlp step, {world.size} process(es) x {args.batch} examples '
              f'({args.communicator}, {chainer.backend.get_array_module(x).__name__}): '
              f'{seconds * 1e3:.1f} ms, {world.size * args.batch / seconds:.0f} examples/s')


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('what', choices=('allreduce', 'mlp'))
    parser.add_argument('--params', type=int, default=25_000_000)
    parser.add_argument('--batch', type=int, default=100, help='examples per process (mlp)')
    parser.add_argument('--communicator', default='naive')
    parser.add_argument('--repeat', type=int, default=10)
    args = parser.parse_args(argv)
    (allreduce if args.what == 'allreduce' else mlp)(args)


if __name__ == '__main__':
    main()
