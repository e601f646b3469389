"""Compatibility cases: trainer snapshots and printed reports."""

NO_GRAD = {'backward': False}


def _trainer(np, out, extensions_to_add):
    import chainer
    import chainer.links as L
    from chainer import training

    r = np.random.RandomState(0)
    model = L.Classifier(L.Linear(4, 3, initialW=r.randn(3, 4).astype('f')))
    data = chainer.datasets.TupleDataset(r.randn(12, 4).astype('f'),
                                         r.randint(0, 3, 12).astype('i'))
    it = chainer.iterators.SerialIterator(data, 4, shuffle=False)
    opt = chainer.optimizers.Adam().setup(model)
    trainer = training.Trainer(training.StandardUpdater(it, opt), (2, 'epoch'), out=out)
    for ext in extensions_to_add:
        trainer.extend(ext)
    return trainer


def case_trainer_snapshot_keys(F, np, rng):
    import tempfile

    from chainer.training import extensions

    def run():
        with tempfile.TemporaryDirectory() as out:
            trainer = _trainer(np, out, [extensions.LogReport(),
                                         extensions.snapshot(filename='snap')])
            trainer.run()
            with np.load(f'{out}/snap', allow_pickle=True) as data:
                keys = sorted(k for k in data.files if 'elapsed' not in k)
                it = int(data['updater/iteration'])
        return np.array(keys), np.array([it])
    return run, (), {}, NO_GRAD


def case_print_report_text(F, np, rng):
    import io
    import tempfile

    from chainer.training import extensions

    def run():
        buf = io.StringIO()
        with tempfile.TemporaryDirectory() as out:
            trainer = _trainer(np, out, [
                extensions.LogReport(),
                extensions.PrintReport(['epoch', 'iteration', 'main/loss', 'main/accuracy'],
                                       out=buf)])
            trainer.run()
        return np.array(buf.getvalue().replace('\x1b[J', '').splitlines())
    return run, (), {}, NO_GRAD
