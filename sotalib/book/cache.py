"""The book's cached experiments, and the one command that regenerates each.

Some results of the book take minutes to hours to compute (Monte Carlo checks,
the ground-truth challenge, the property search of the judging chapter).  Their results
ship as small files in ``sotalib/book/data/`` and the chapters read them; the
library never writes there at run time.  To recompute one, from a checkout::

    python -m sotalib.book.cache NAME --out sotalib/book/data     # or: make cache NAME=NAME
    python -m sotalib.book.cache --list                            # the names, with what each holds

``--out`` is required: the command writes where it is told, never into an
installed package on its own.  Each entry states its seed and replications;
rerunning it with the pinned versions of ``requirements.lock`` reproduces the
committed file.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CACHES", "Cache", "regenerate", "main"]


@dataclass(frozen=True)
class Cache:
    """One cached experiment: its file in ``sotalib/book/data``, what it holds, and how it is made."""

    name: str
    file: str
    chapter: int
    description: str
    make: Callable[[Path], None]


# Each maker imports its experiment when it runs (deliberate lazy loading): ``--list`` stays instant and
# regenerating one cache loads only what it needs (scikit-learn for the ground truth, matplotlib for none).
def _noniid_table1_mc(out: Path) -> None:
    from .ch03_noniid import table1_mc_cached

    table1_mc_cached(out=out)


def _noniid_figure5(out: Path) -> None:
    from .ch03_noniid import figure5_cached

    figure5_cached(out=out)


def _auc_max_direct(out: Path) -> None:
    from .ch05_auc import direct

    direct(out)


def _auc_rho(out: Path) -> None:
    from .ch05_auc import rho

    rho(out)


def _fig3_power(out: Path) -> None:
    from .ch06_consistency import fig3_power

    fig3_power(out=out)


def _ranking_properties(out: Path) -> None:
    from ..judging import property_table
    from .ch07_judging import (
        PROPERTY_SEED,
        PROPERTY_TRIALS,
        TABLE_FILE,
        save_property_table,
    )

    table = property_table(n_resamples=PROPERTY_TRIALS, rng=PROPERTY_SEED)
    save_property_table(
        table, out / TABLE_FILE, PROPERTY_TRIALS, PROPERTY_SEED
    )


def _judging_tasks(out: Path) -> None:
    from .ch07_judging import (
        FILE,
        SEED,
        build_task_predictions,
        save_task_predictions,
    )

    save_task_predictions(build_task_predictions(rng=SEED), out / FILE)


def _groundtruth(out: Path) -> None:
    from .groundtruth import SEED, build_groundtruth, save_groundtruth

    save_groundtruth(
        build_groundtruth(rng=SEED, verbose=True), out / "groundtruth.npz"
    )


def _sota_results(out: Path) -> None:
    from .sota_results import regenerate as sota_regenerate

    sota_regenerate(out / "sota_results.json")


def _real_boards(out: Path) -> None:
    from .ch04_real_challenges import regenerate as boards_regenerate

    boards_regenerate(out / "real_boards.json")


def _drive(out: Path) -> None:
    from .ch06b_drive import TOLERANCES, figure_verdicts

    for tolerance in TOLERANCES:
        figure_verdicts(tolerance, cache=out / "drive_verdicts.json")


def _kaggle_survey(out: Path) -> None:
    from .ch04b_kaggle_survey import load_survey

    load_survey(out, recompute=True)


def _kaggle_split(out: Path) -> None:
    from .ch04b_kaggle_survey import load_split

    load_split(out, recompute=True)


CACHES: dict[str, Cache] = {
    c.name: c
    for c in (
        Cache(
            "noniid_table1_mc",
            "noniid_table1_mc.json",
            3,
            "Table 1 by Monte Carlo: 100,000 replications per row, rng 2025 + row",
            _noniid_table1_mc,
        ),
        Cache(
            "noniid_figure5",
            "noniid_figure5.json",
            3,
            "Figure 5: bias and sd against the spread d and rho_0 (exact)",
            _noniid_figure5,
        ),
        Cache(
            "auc_max_direct",
            "auc_max_direct.npz",
            7,
            "10,000 simulated best AUCs of m = 1,000 classifiers (Figure 10c), rng 20240510",
            _auc_max_direct,
        ),
        Cache(
            "auc_rho",
            "auc_rho.json",
            7,
            "best AUC against rho: 400 replications per rho, rng 1000 + i",
            _auc_rho,
        ),
        Cache(
            "ch6_fig3_power",
            "ch6_fig3_power.json",
            8,
            "Figure 3: power against decimals, 200 replications per point, rng 20240607 + decimals",
            _fig3_power,
        ),
        Cache(
            "ranking_properties",
            "ranking_properties.json",
            9,
            "the property search behind the table of ranking properties: 6,000 trials per cell, rng 2024",
            _ranking_properties,
        ),
        Cache(
            "judging_tasks",
            "judging_tasks.npz",
            9,
            "per-item correctness of 13 classifiers on 5 tasks (scikit-learn), rng 20240707",
            _judging_tasks,
        ),
        Cache(
            "groundtruth",
            "groundtruth.npz",
            4,
            "the ground-truth challenge: 240 classifiers scored on 340 fresh test sets, rng 20240601",
            _groundtruth,
        ),
        Cache(
            "sota_results",
            "sota_results.json",
            4,
            "SOTA estimates on the Melanoma reconstruction and 60 ground-truth leaderboards (needs groundtruth)",
            _sota_results,
        ),
        Cache(
            "real_boards",
            "real_boards.json",
            4,
            "exact SOTA estimates on the real Obesity, Cassava and ImageNet boards; crop, cap and shrink "
            "on 60 ground-truth leaderboards (needs groundtruth)",
            _real_boards,
        ),
        Cache(
            "drive",
            "drive_verdicts.json",
            8,
            "consistency of 227 figures of 100 DRIVE papers with the FoV and all-pixels evaluations (exact)",
            _drive,
        ),
        Cache(
            "kaggle_survey",
            "kaggle_survey.json",
            5,
            "shrinkage estimates of every vendored Kaggle board (data/kaggle), three sizes where n is unknown",
            _kaggle_survey,
        ),
        Cache(
            "kaggle_split",
            "kaggle_split.json",
            5,
            "public against private board of every competition with a known split: the difference of "
            "the maxima against its distribution (Monte Carlo, 10,000 replications, rng 0)",
            _kaggle_split,
        ),
    )
}


def regenerate(name: str, out: str | Path) -> Path:
    """Recompute the cached experiment ``name`` and write its file into the folder ``out``."""
    if name not in CACHES:
        raise ValueError(
            f"name must be one of {', '.join(CACHES)}, got {name!r}"
        )
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    CACHES[name].make(out)
    return out / CACHES[name].file


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m sotalib.book.cache",
        description=__doc__.split("\n\n")[0],
    )
    parser.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="cached experiments to recompute",
    )
    parser.add_argument(
        "--out", help="folder to write into (sotalib/book/data in a checkout)"
    )
    parser.add_argument(
        "--list", action="store_true", help="list the cached experiments"
    )
    args = parser.parse_args(argv)
    if args.list or not args.names:
        for c in CACHES.values():
            print(
                f"{c.name:20s} chapter {c.chapter}  {c.file:26s} {c.description}"
            )
        return 0
    if args.out is None:
        parser.error(
            "--out FOLDER is required (sotalib/book/data in a checkout)"
        )
    unknown = [n for n in args.names if n not in CACHES]
    if unknown:
        parser.error(
            f"unknown cached experiment(s): {', '.join(unknown)}; --list names them"
        )
    for name in args.names:
        t0 = time.perf_counter()
        path = regenerate(name, args.out)
        print(
            f"{name}: wrote {path} in {time.perf_counter() - t0:.0f} s",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
