"""Compatibility cases: datasets, iterators and converters (orders under fixed seeds)."""

NO_GRAD = {'backward': False}


def case_split_dataset_random(F, np, rng):
    import chainer

    def run():
        data = chainer.datasets.TupleDataset(np.arange(20), np.arange(20) * 2)
        a, b = chainer.datasets.split_dataset_random(data, 13, seed=5)
        return np.array([x for x, _ in a]), np.array([x for x, _ in b])
    return run, (), {}, NO_GRAD


def case_serial_iterator_shuffle_orders(F, np, rng):
    import chainer

    def run():
        np.random.seed(7)
        it = chainer.iterators.SerialIterator(np.arange(10), 4, shuffle=True)
        batches = [np.array(next(it)) for _ in range(6)]
        return np.concatenate(batches), np.array([it.epoch, it.current_position])
    return run, (), {}, NO_GRAD


def case_serial_iterator_no_repeat(F, np, rng):
    import chainer

    def run():
        it = chainer.iterators.SerialIterator(np.arange(10), 4, repeat=False, shuffle=False)
        sizes = [len(b) for b in it]
        return np.array(sizes), np.array([it.epoch_detail, it.previous_epoch_detail])
    return run, (), {}, NO_GRAD


def case_concat_examples_padding(F, np, rng):
    import chainer

    def run():
        batch = [(np.ones((2, 3), 'f'), np.array([1, 2], 'i')),
                 (np.zeros((3, 2), 'f'), np.array([3], 'i'))]
        x, t = chainer.dataset.concat_examples(batch, padding=-1)
        return x, t
    return run, (), {}, NO_GRAD


def case_concat_examples_dict(F, np, rng):
    import chainer

    def run():
        batch = [{'a': np.ones(2, 'f'), 'b': 1}, {'a': np.zeros(2, 'f'), 'b': 2}]
        out = chainer.dataset.concat_examples(batch)
        return out['a'], out['b']
    return run, (), {}, NO_GRAD


def case_transform_dataset(F, np, rng):
    import chainer

    def run():
        data = chainer.datasets.TransformDataset(np.arange(5), lambda x: x * 3)
        return np.array(data[1:4]), np.array([len(data)])
    return run, (), {}, NO_GRAD
