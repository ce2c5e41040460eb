"""The cached per-item predictions behind the judging chapter, read as the chapter reads them."""

from importlib import resources

import numpy as np

from sotalib.book.ch07_judging import CLASSIFIERS, FILE, N_TASKS, N_TEST, TASKS


def _load():
    # the chapter's visible code: np.load and np.unpackbits of the shipped file
    with resources.files("sotalib.book").joinpath("data", FILE).open("rb") as fh, np.load(fh) as f:
        correct = np.unpackbits(f["bits"], axis=-1, count=int(f["n_items"]))
        return correct, tuple(f["classifiers"].tolist()), tuple(f["tasks"].tolist())


def test_cache_shape_and_plausible_accuracies():
    correct, classifiers, tasks = _load()
    assert correct.shape == (N_TASKS, len(CLASSIFIERS), N_TEST) and set(np.unique(correct)) == {0, 1}
    assert classifiers == CLASSIFIERS and tasks == tuple(t[0] for t in TASKS)
    acc = correct.mean(axis=2)
    # every classifier beats chance on every task, none is perfect (label noise flip_y > 0)
    assert np.all(acc > 0.55) and np.all(acc < 0.99)
    # the tasks get harder down the list: the best accuracy falls from "easy" to "very hard"
    assert acc[0].max() > acc[-1].max()
    # different classifiers make different errors
    assert np.mean(correct[1, 0] != correct[1, -1]) > 0.05
