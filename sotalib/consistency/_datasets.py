"""Named test sets: the positives and negatives of public benchmark test sets, so that nobody types counts.

``sotalib check --dataset NAME`` and :func:`sotalib.consistency.check_report`
(``dataset=NAME``) take their ``p`` and ``n`` -- or their folds -- from here;
``sotalib datasets`` lists them.  The counts ship inside the package (the
command line runs from an installed wheel and nothing downloads).

Sources
-------
* DRIVE (Staal et al. 2004), the 20 test images, annotator 1: vessel pixels
  (``p``) and background pixels (``n``) inside the field-of-view mask and over
  all 584 x 565 = 329,960 pixels of each image.  Counted by Kovács & Fazekas
  (Medical Image Analysis, 2024), repository ``gykovacs/retina_vessel_segmentation``,
  commit f544a0a90f543a36ff87459abca3afca710db7b9, MIT licence,
  "Copyright (c) 2020 György Kovács" (also vendored in the project's
  ``data/drive/drive_test_pn.csv``).  Each image is one evaluation set (a fold).
* TPEHG, the Term-Preterm EHG database (Fele-Žorž et al. 2008, PhysioNet):
  38 preterm (positive) and 262 term records, as used by Fazekas & Kovács (Section 5.2).
* ISIC 2016 (Gutman et al. 2016), the test set of part 3 (lesion classification): 75 melanoma and 304 benign images.
* ISIC 2017 (Codella et al. 2018), the test set of part 3, melanoma against the rest:
  117 melanoma and 483 other (nevus or seborrheic keratosis) images.
* STARE (Hoover et al. 2000), CHASE_DB1 (Fraz et al. 2012), DIARETDB0
  (Kauppi et al. 2007), HRF, DRISHTI-GS and DIARETDB1: the counts bundled by the consistency checker
  mlscorecheck (Fazekas & Kovács), repository ``FalseNegativeLab/mlscorecheck``,
  commit 40ab6c9bc0416490c2d6a3882faadbff9d54864f, MIT licence, "Copyright (c)
  2023 György Kovács": its JSON files, copied byte for byte into the package
  data ``sotalib/consistency/data/retina/`` (with the licence) and read at
  import by ``sotalib/consistency/_retina.py``; the same files are the
  project's ``data/mlscorecheck/retina/``.

  - ``stare-ah-all``, ``stare-vk-all``: the 20 STARE images, vessels marked by
    annotator AH (Adam Hoover) or VK (Valentina Kouznetsova), all 700 x 605
    pixels of each (mlscorecheck has no STARE field-of-view masks); one fold per image.
  - ``chasedb1-manual1-all``, ``chasedb1-manual2-all``: the 28 CHASE_DB1 images,
    first or second human observer, all 999 x 960 pixels; one fold per image.
  - ``diaretdb0-{train,test}-{neovascularisation,hardexudates,softexudates,hemorrhages,redsmalldots}``:
    image labelling, images with the lesion label (positives) against the rest,
    one fold per train/test split ("batch" 1-9) of the 130 images, as
    mlscorecheck's ``check_diaretdb0_class(subset, batch='all', class_name)``.
  - ``hrf-fov``, ``hrf-all``: the 45 HRF images (Budai et al. 2013; 15 healthy,
    15 glaucoma, 15 diabetic retinopathy), one vessel annotation, pixels inside
    the field-of-view mask or all 3504 x 2336 of each; ``hrf-{healthy,glaucoma,dr}-{fov,all}``
    the 15 images of one group (mlscorecheck takes any list of images); one fold per image.
  - ``drishtigs-{train,test}-{od,oc}-{1,2,3,4}of4``: the 50 training or 51 test
    images of DRISHTI-GS (Sivaswamy et al. 2014), optic disc or optic cup,
    positives the pixels marked by at least k of the 4 experts -- mlscorecheck's
    labelling at a confidence c in ((k-1) levels, k levels], a pixel being
    positive when its grey level (0, 64, 128, 191, 255) is >= 255 c; its
    examples' c = 0.75 is "4 of 4"; one fold per image.

  - ``diaretdb1-{train,test}-{lesion}-...of12``, lesion one of hardexudates,
    softexudates, hemorrhages, redsmalldots: the 28 training or 61 test images
    of DIARETDB1 (Kauppi et al. 2007).  Its ground-truth maps hold the grey
    levels 21 k, "level k of 12", k = 0..12; mlscorecheck counts a pixel
    positive when its grey level is >= 255 c, so "level >= k" is its labelling
    at a confidence c in (21 (k - 1)/255, 21 k/255] (k = ceil(255 c / 21);
    its typical c = 0.75 is level 10).
    ``-{K}of12`` or ``-{L}to{H}of12``: image labelling, as its
    ``check_diaretdb1_class``: an image is positive when a field-of-view pixel
    reaches the level; p and n count images (one test set); one name per run
    of levels that label the images alike.  ``-fov-{k}of12``: segmentation,
    the pixels at level >= k against the rest of the field of view, one fold
    per image, only the images that hold such a pixel (its ``only_valid=True``:
    an image without one has no sensitivity).  Only the field-of-view counts
    are used.  **No all-pixels set**: in the source file every all-pixels
    histogram repeats the grey levels as its counts (image 001, hard exudates:
    values [0, 63, 126, 189, 252], counts [0, 63, 126, 189, 252], beside
    field-of-view counts summing to 1,407,235); mlscorecheck's image labelling
    reads those histograms, but only which levels occur, the same as in the
    field of view, so it is reproduced exactly.  The 11 combinations of
    lesions it also takes are not offered.

  One set of HRF or DRISHTI-GS images holds 104-368 million pixels: the checks'
  wide path (above 2**26 items, see :mod:`sotalib.consistency._single_kernel`)
  decides them exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from .._json import json_safe
from .._result import Result
from .._validate import ParameterError
from . import _retina as _rc

__all__ = ["Dataset", "DATASETS", "get_dataset"]


@dataclass(frozen=True, repr=False)
class Dataset(Result):
    """A named test set.

    Attributes
    ----------
    name : str
        The name ``--dataset`` takes.
    description : str
        What it is, in a few words.
    source : str
        Where the counts come from (and their licence).
    folds : tuple of (int, int)
        ``(p_i, n_i)`` of each evaluation set: one for a single test set (DIARETDB1's image
        labelling too), one per image for DRIVE, STARE, CHASE_DB1, HRF, DRISHTI-GS and
        DIARETDB1's segmentation, one per train/test split for DIARETDB0.
    """

    name: str
    description: str
    source: str
    folds: tuple

    @property
    def p(self) -> int:
        """Positives over all evaluation sets."""
        return sum(f[0] for f in self.folds)

    @property
    def n(self) -> int:
        """Negatives over all evaluation sets."""
        return sum(f[1] for f in self.folds)

    @property
    def single(self) -> bool:
        """One test set (no folds)."""
        return len(self.folds) == 1

    def to_dict(self) -> dict:
        return json_safe(
            {
                "name": self.name,
                "description": self.description,
                "source": self.source,
                "p": self.p,
                "n": self.n,
                "folds": [list(f) for f in self.folds],
            }
        )


_DRIVE_SOURCE = (
    "Kovács & Fazekas 2024, github.com/gykovacs/retina_vessel_segmentation "
    "(commit f544a0a), MIT licence, Copyright (c) 2020 György Kovács"
)

#: DRIVE test images 1-20, annotator 1: (vessel, background) pixels inside the field-of-view mask.
DRIVE_TEST_FOV = (
    (29412, 194965),  # image 1
    (33723, 191364),  # image 2
    (32886, 192841),  # image 3
    (30343, 197234),  # image 4
    (30898, 196795),  # image 5
    (32105, 195394),  # image 6
    (30144, 197531),  # image 7
    (28311, 196937),  # image 8
    (26740, 200920),  # image 9
    (27152, 200180),  # image 10
    (29533, 198281),  # image 11
    (28490, 199115),  # image 12
    (32252, 195248),  # image 13
    (26631, 199223),  # image 14
    (23612, 203782),  # image 15
    (29791, 197903),  # image 16
    (27851, 198033),  # image 17
    (26144, 201468),  # image 18
    (27367, 200021),  # image 19
    (24264, 203259),  # image 20
)

#: DRIVE test images 1-20, annotator 1: (vessel, background) pixels over the whole 584 x 565 image.
DRIVE_TEST_ALL = (
    (29440, 300520),  # image 1
    (33790, 296170),  # image 2
    (32893, 297067),  # image 3
    (30354, 299606),  # image 4
    (30912, 299048),  # image 5
    (32116, 297844),  # image 6
    (30152, 299808),  # image 7
    (28389, 301571),  # image 8
    (26741, 303219),  # image 9
    (27156, 302804),  # image 10
    (29539, 300421),  # image 11
    (28490, 301470),  # image 12
    (32259, 297701),  # image 13
    (26677, 303283),  # image 14
    (23614, 306346),  # image 15
    (29791, 300169),  # image 16
    (27852, 302108),  # image 17
    (26144, 303816),  # image 18
    (27371, 302589),  # image 19
    (24265, 305695),  # image 20
)


_MLSCORECHECK_SOURCE = (
    "mlscorecheck (Fazekas & Kovács), github.com/FalseNegativeLab/mlscorecheck (commit 40ab6c9), "
    "MIT licence, Copyright (c) 2023 György Kovács"
)


_DIARETDB0_CLASSES = ("neovascularisation", "hardexudates", "softexudates", "hemorrhages", "redsmalldots")


def _mlscorecheck_datasets() -> tuple:
    out = [
        Dataset(
            f"stare-{a.lower()}-all",
            f"STARE retinal vessels, 20 images, annotator {a}, all 423,500 pixels of each (one fold per image)",
            _MLSCORECHECK_SOURCE,
            folds,
        )
        for a, folds in (("AH", _rc.STARE_AH_ALL), ("VK", _rc.STARE_VK_ALL))
    ]
    out += [
        Dataset(
            f"chasedb1-manual{k}-all",
            f"CHASE_DB1 retinal vessels, 28 images, observer manual{k}, all 959,040 pixels of each (one fold per image)",
            _MLSCORECHECK_SOURCE,
            folds,
        )
        for k, folds in ((1, _rc.CHASEDB1_MANUAL1_ALL), (2, _rc.CHASEDB1_MANUAL2_ALL))
    ]
    out += [
        Dataset(
            f"diaretdb0-{subset}-{label}",
            f"DIARETDB0 image labelling, {label} against the rest, the {subset} images of the 9 splits, "
            f"{sum(map(sum, _rc.DIARETDB0[subset, label])):,} in all (one fold per split)",
            _MLSCORECHECK_SOURCE,
            _rc.DIARETDB0[subset, label],
        )
        for subset in ("train", "test")
        for label in _DIARETDB0_CLASSES
    ]
    hrf_groups = (
        ("", "the 45 images", ("h", "g", "dr")),
        ("healthy-", "the 15 healthy images", ("h",)),
        ("glaucoma-", "the 15 glaucoma images", ("g",)),
        ("dr-", "the 15 diabetic retinopathy images", ("dr",)),
    )
    for prefix, which, kinds in hrf_groups:
        for region, counts, where in (
            ("fov", _rc.HRF_FOV, "pixels inside the field-of-view mask"),
            ("all", _rc.HRF_ALL, "all 3504 x 2336 = 8,185,344 pixels of each"),
        ):
            folds = tuple(c for ident, c in zip(HRF_IMAGES, counts) if ident.split("_")[1] in kinds)
            out.append(
                Dataset(
                    f"hrf-{prefix}{region}",
                    f"HRF retinal vessels, {which}, {where} (one fold per image)",
                    _MLSCORECHECK_SOURCE,
                    folds,
                )
            )
    for subset, size in (("train", 50), ("test", 51)):
        for target, part in (("od", "optic disc"), ("oc", "optic cup")):
            for k, (low, high) in enumerate(_DRISHTI_CONFIDENCE, start=1):
                out.append(
                    Dataset(
                        f"drishtigs-{subset}-{target}-{k}of4",
                        f"DRISHTI-GS {part} segmentation, the {size} {subset} images, positives the pixels "
                        f"marked by at least {k} of the 4 experts (mlscorecheck's confidence in "
                        f"({low}, {high}]) (one fold per image)",
                        _MLSCORECHECK_SOURCE,
                        drishti_gs_folds(subset, target, k),
                    )
                )
    out += _diaretdb1_datasets()
    return tuple(out)


_DIARETDB1_CLASSES = ("hardexudates", "softexudates", "hemorrhages", "redsmalldots")

#: DIARETDB1's ground-truth maps hold the grey levels 21 k, k = 0..12 (252 = 12 x 21): level k.
#: mlscorecheck counts a pixel positive when its grey level is >= 255 * confidence, so "level >= k"
#: is its labelling for the confidences in (21 (k - 1) / 255, 21 k / 255]; its typical 0.75
#: (191.25) is level >= 10 (grey level 210).
_DIARETDB1_STEP = 21


def _diaretdb1_confidence(low: int, high: int) -> str:
    """The confidences at which mlscorecheck labels "level >= k", for every k in ``low..high``."""
    lo = "0" if low == 1 else f"{_DIARETDB1_STEP * (low - 1)}/255"
    return f"({lo}, {_DIARETDB1_STEP * high}/255]"


def diaretdb1_maps(subset: str, lesion: str) -> tuple:
    """Per-image pixel counts in the field of view at the levels 0..12 of one lesion's DIARETDB1 map.

    ``subset`` is ``"train"`` (28 images) or ``"test"`` (61 images); the rows follow the
    identifiers' order.
    """
    images = _rc.DIARETDB1_TRAIN if subset == "train" else _rc.DIARETDB1_TEST
    rows = dict(zip(sorted(_rc.DIARETDB1_TRAIN + _rc.DIARETDB1_TEST), _rc.DIARETDB1_FOV[lesion]))
    return tuple(rows[i] for i in images)


def diaretdb1_image_labels(subset: str, lesion: str, k: int) -> tuple:
    """``(p, n)``: images with a field-of-view pixel at level >= ``k`` (mlscorecheck's ``check_diaretdb1_class``)."""
    p = sum(1 for row in diaretdb1_maps(subset, lesion) if any(row[k:]))
    return p, len(diaretdb1_maps(subset, lesion)) - p


def diaretdb1_segmentation_folds(subset: str, lesion: str, k: int) -> tuple:
    """``(p_i, n_i)`` of each image with a field-of-view pixel at level >= ``k``: those pixels, the rest.

    Images without such a pixel are left out (mlscorecheck's ``only_valid=True``).
    """
    folds = ((sum(row[k:]), sum(row[:k])) for row in diaretdb1_maps(subset, lesion))
    return tuple(f for f in folds if f[0] > 0 and f[1] > 0)


def _diaretdb1_datasets() -> list:
    out = []
    for subset in ("train", "test"):
        size = len(_rc.DIARETDB1_TRAIN if subset == "train" else _rc.DIARETDB1_TEST)
        for lesion in _DIARETDB1_CLASSES:
            # image labelling: one set per run of levels that label the images alike
            runs: list = []
            for k in range(1, 13):
                pn = diaretdb1_image_labels(subset, lesion, k)
                if runs and runs[-1][2] == pn:
                    runs[-1][1] = k
                else:
                    runs.append([k, k, pn])
            for low, high, (p, n) in runs:
                levels = f"{low}of12" if low == high else f"{low}to{high}of12"
                at = f"{low} of 12" if low == high else f"{low} of 12 (the same images up to >= {high})"
                out.append(
                    Dataset(
                        f"diaretdb1-{subset}-{lesion}-{levels}",
                        f"DIARETDB1 image labelling, {lesion} against the rest, the {size} {subset} images: "
                        f"{p} positive, those with a field-of-view pixel at level >= {at} "
                        f"(mlscorecheck's confidence in {_diaretdb1_confidence(low, high)})",
                        _MLSCORECHECK_SOURCE,
                        ((p, n),),
                    )
                )
            # segmentation: one fold per image that holds the lesion at that level
            for k in range(1, 13):
                folds = diaretdb1_segmentation_folds(subset, lesion, k)
                if folds:
                    out.append(
                        Dataset(
                            f"diaretdb1-{subset}-{lesion}-fov-{k}of12",
                            f"DIARETDB1 {lesion} segmentation, pixels inside the field of view, positives "
                            f"those at level >= {k} of 12 (mlscorecheck's confidence in "
                            f"{_diaretdb1_confidence(k, k)}), the {len(folds)} of the {size} {subset} images "
                            "that hold one (one fold per image)",
                            _MLSCORECHECK_SOURCE,
                            folds,
                        )
                    )
    return out


#: HRF image identifiers in the order of ``_retina.HRF_FOV`` / ``HRF_ALL``.
HRF_IMAGES = tuple(sorted(f"{i:02d}_{g}" for g in ("h", "g", "dr") for i in range(1, 16)))

#: DRISHTI-GS soft maps hold the grey levels 0, 64, 128, 191, 255 (marked by 0-4 of the 4 experts);
#: mlscorecheck counts a pixel positive when its level is >= 255 * confidence, so "at least k of 4"
#: is its labelling for the confidences in these ranges (0.75 -- its examples' value -- gives 4 of 4:
#: 191 < 191.25).
_DRISHTI_CONFIDENCE = (("0", "64/255"), ("64/255", "128/255"), ("128/255", "191/255"), ("191/255", "1"))


def drishti_gs_folds(subset: str, target: str, k: int) -> tuple:
    """``(p_i, n_i)`` of each DRISHTI-GS image: pixels marked by at least ``k`` of the 4 experts, the rest."""
    maps = _rc.DRISHTI_GS[subset, target.upper()]
    return tuple((sum(c[k:]), sum(c[:k])) for c in maps)


class _Datasets(dict):
    """The named test sets that ``check_report(dataset=...)`` and ``sotalib check --dataset`` take, by name.

    Each value is a :class:`Dataset`; ``sotalib datasets`` prints them.
    """


#: The named test sets, by name.
DATASETS = _Datasets(
    {
        d.name: d
        for d in (
            Dataset(
                "drive-test-fov",
                "DRIVE retinal vessels, 20 test images, pixels inside the field of view (one fold per image)",
                _DRIVE_SOURCE,
                DRIVE_TEST_FOV,
            ),
            Dataset(
                "drive-test-all",
                "DRIVE retinal vessels, 20 test images, all 329,960 pixels of each (one fold per image)",
                _DRIVE_SOURCE,
                DRIVE_TEST_ALL,
            ),
            Dataset(
                "tpehg",
                "Term-Preterm EHG database: 38 preterm and 262 term deliveries",
                "Fele-Zorz et al. 2008 (PhysioNet); counts as in Fazekas & Kovacs, Section 5.2",
                ((38, 262),),
            ),
            Dataset(
                "isic2016-test",
                "ISIC 2016 lesion classification test set: 75 melanoma, 304 benign",
                "Gutman et al. 2016 (ISBI 2016 challenge, part 3)",
                ((75, 304),),
            ),
            Dataset(
                "isic2017-test",
                "ISIC 2017 lesion classification test set, melanoma against the rest: 117 melanoma, 483 others",
                "Codella et al. 2018 (ISBI 2017 challenge, part 3)",
                ((117, 483),),
            ),
            *_mlscorecheck_datasets(),
        )
    }
)


def get_dataset(name: str) -> Dataset:
    """A named test set, so that nobody types its counts (``sotalib check --dataset NAME``).

    Parameters
    ----------
    name : str
        One of the names of :data:`DATASETS` (``sotalib datasets`` lists them).

    Returns
    -------
    Dataset
        Its counts per evaluation set and where they come from.

    Raises
    ------
    ValueError
        An unknown name (the message names the closest names and where all are listed).

    References
    ----------
    Fazekas & Kovacs, Section 5 (the TPEHG study); Kovács & Fazekas 2024 (the DRIVE counts).

    Examples
    --------
    >>> from sotalib.consistency import get_dataset
    >>> d = get_dataset("tpehg")
    >>> d.p, d.n, d.single
    (38, 262, True)
    """
    key = str(name).strip().lower()
    if key not in DATASETS:
        raise ValueError(f"dataset must be a named test set, got {name!r}; {_suggest(key)}")
    return DATASETS[key]


def _suggest(key: str) -> str:
    """The names closest to a name that is none (by spelling, else by its first word), and where the rest are."""
    import difflib

    close = difflib.get_close_matches(key, DATASETS, n=4, cutoff=0.75)
    if not close:  # 'hrf' or 'diaretdb1-test': the sets whose name starts with its first word
        head = key.split("-")[0]
        family = [d for d in DATASETS if d.split("-")[0] == head]
        close = [d for d in family if d.startswith(key)][:4] or family[:4]
    shown = f"did you mean {', '.join(close)}? " if close else ""
    return f"{shown}{len(DATASETS)} names: sotalib.consistency.DATASETS (sotalib datasets NAME lists those containing NAME)"


def dataset_experiment(name: str, p=None, n=None, folds=None, k=None) -> tuple:
    """``(p, n, folds)`` for :func:`sotalib.consistency.check_report` from a named test set.

    A single test set gives ``p`` and ``n`` (``folds`` None; it may still be
    split by ``k``-fold cross-validation); a set of images (DRIVE, STARE, ...) gives its folds.
    Giving ``p``, ``n`` or ``folds`` as well (or ``k`` with a dataset that has
    folds) is a ``ValueError`` naming them.
    """
    d = get_dataset(name)
    clash = (("p", p), ("n", n), ("folds", folds)) + ((("k", k),) if not d.single else ())
    given = [what for what, v in clash if v is not None]
    if given:
        raise ParameterError(f"dataset {d.name!r} fixes the experiment: drop {', '.join(given)}", "dataset", *given)
    if d.single:
        return d.p, d.n, None
    return d.p, d.n, d.folds
