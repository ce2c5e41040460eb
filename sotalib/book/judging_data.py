"""Per-item predictions of a small set of real classifiers on several tasks.

The judging chapter needs per-item correctness of real classifiers (ranking
stability against test-set size, Figure 8 of {pavao2024judge}; within- and
between-task variance).  This module trains ``len(CLASSIFIERS)``
scikit-learn classifiers on ``N_TASKS`` synthetic binary tasks
(:func:`sklearn.datasets.make_classification`, different difficulty per task;
nothing is downloaded) and records, for each task, which of ``N_TEST``
fresh test items each classifier gets right.

:func:`build_task_predictions` regenerates everything deterministically
(about a minute on two cores); :func:`load_task_predictions` reads the cached
result shipped in ``sotalib/book/data/judging_tasks.npz`` (bit-packed).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from .._rng import int_seed

__all__ = [
    "CLASSIFIERS",
    "N_TASKS",
    "N_TEST",
    "N_TRAIN",
    "SEED",
    "TASKS",
    "TaskPredictions",
    "build_task_predictions",
    "load_task_predictions",
]

SEED = 20240707
N_TRAIN = 1000
N_TEST = 20000
#: Task parameters for make_classification: (name, n_informative, class_sep, flip_y).
TASKS = (
    ("easy", 6, 1.5, 0.01),
    ("medium", 5, 1.0, 0.02),
    ("noisy", 5, 1.0, 0.10),
    ("hard", 8, 0.6, 0.03),
    ("very hard", 10, 0.4, 0.05),
)
N_TASKS = len(TASKS)
#: Names of the classifiers ("candidates").
CLASSIFIERS = (
    "logistic C=0.01",
    "logistic C=1",
    "LDA",
    "QDA",
    "naive Bayes",
    "5-NN",
    "25-NN",
    "tree depth 3",
    "tree depth 8",
    "random forest",
    "gradient boosting",
    "RBF SVM",
    "MLP",
)
FILE = "judging_tasks.npz"


def _models(seed: int):
    # scikit-learn only to regenerate the cache: deliberately lazy (optional for readers of the book, and heavy)
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis
    from sklearn.ensemble import GradientBoostingClassifier, RandomForestClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler
    from sklearn.svm import SVC
    from sklearn.tree import DecisionTreeClassifier

    scaled = lambda est: make_pipeline(StandardScaler(), est)
    return [
        scaled(LogisticRegression(C=0.01)),
        scaled(LogisticRegression(C=1.0)),
        LinearDiscriminantAnalysis(),
        QuadraticDiscriminantAnalysis(reg_param=0.1),
        GaussianNB(),
        scaled(KNeighborsClassifier(5)),
        scaled(KNeighborsClassifier(25)),
        DecisionTreeClassifier(max_depth=3, random_state=seed),
        DecisionTreeClassifier(max_depth=8, random_state=seed),
        RandomForestClassifier(100, random_state=seed, n_jobs=1),
        GradientBoostingClassifier(random_state=seed),
        scaled(SVC()),
        scaled(MLPClassifier((32,), max_iter=500, random_state=seed)),
    ]


@dataclass(frozen=True, eq=False)
class TaskPredictions:
    """Per-item correctness: ``correct[t, j, i]`` is True if classifier ``j`` is right on item ``i`` of task ``t``."""

    correct: np.ndarray
    classifiers: tuple
    tasks: tuple

    def accuracy(self) -> np.ndarray:
        """Accuracies, shape (tasks, classifiers)."""
        return self.correct.mean(axis=2)


def build_task_predictions(n_train: int = N_TRAIN, n_test: int = N_TEST, rng=SEED) -> TaskPredictions:
    """Train every classifier on every task and record per-item correctness (deterministic for an int ``rng``).

    ``rng`` (SPEC 7) gives the master ``seed`` (see
    :func:`sotalib._rng.int_seed`); task ``t`` is drawn and its
    models seeded with ``seed + t``.  The default, ``SEED``, gives the cached predictions.
    """
    from sklearn.datasets import make_classification

    seed = int_seed(rng)
    out = np.zeros((N_TASKS, len(CLASSIFIERS), n_test), dtype=bool)
    for t, (_name, informative, sep, flip) in enumerate(TASKS):
        X, y = make_classification(
            n_samples=n_train + n_test,
            n_features=12,
            n_informative=informative,
            n_redundant=2,
            class_sep=sep,
            flip_y=flip,
            random_state=seed + t,
        )
        for j, model in enumerate(_models(seed + t)):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model.fit(X[:n_train], y[:n_train])
                out[t, j] = model.predict(X[n_train:]) == y[n_train:]
    return TaskPredictions(out, CLASSIFIERS, tuple(name for name, *_ in TASKS))


def save_task_predictions(tp: TaskPredictions, path: str | Path) -> None:
    np.savez_compressed(
        path,
        bits=np.packbits(tp.correct, axis=-1),
        n_items=tp.correct.shape[-1],
        classifiers=np.array(tp.classifiers),
        tasks=np.array(tp.tasks),
    )


@lru_cache(maxsize=1)
def load_task_predictions() -> TaskPredictions:
    """The cached per-item correctness (regenerate with ``python -m sotalib.book.cache judging_tasks --out sotalib/book/data``)."""
    with resources.files("sotalib.book").joinpath("data", FILE).open("rb") as fh:
        d = np.load(fh)
        correct = np.unpackbits(d["bits"], axis=-1, count=int(d["n_items"])).astype(bool)
        return TaskPredictions(correct, tuple(str(c) for c in d["classifiers"]), tuple(str(t) for t in d["tasks"]))
