"""Per-image (or per-split) positives and negatives of the retinal test sets mlscorecheck bundles.

Read at import from the package data ``sotalib/consistency/data/retina/``:
the files ``mlscorecheck/experiments/retina/{stare,chase_db1,diaretdb0,diaretdb1,hrf,drishti_gs}/*.json``
of ``FalseNegativeLab/mlscorecheck``, commit 40ab6c9bc0416490c2d6a3882faadbff9d54864f,
copied byte for byte (MIT licence, "Copyright (c) 2023 György Kovács"; the
licence file and a README travel with them; the same files are the project's
``data/mlscorecheck/retina/``).  Nothing downloads at run time.

The tables below lay the files out as :mod:`sotalib.consistency._datasets`
needs them; the counts are the source's, unchanged.  Images are in the order
of their identifiers.  DIARETDB0's splits become (positives, negatives) per
split, counted as mlscorecheck counts them (the label spelt exactly);
DIARETDB1's and DRISHTI-GS's grey-level histograms become one count per
level, zero where the source lists no such level.
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any

#: The tables this module defines (private to the package: no ``__all__``, nothing is re-exported).
TABLES = (
    "STARE_AH_ALL",
    "STARE_VK_ALL",
    "CHASEDB1_MANUAL1_ALL",
    "CHASEDB1_MANUAL2_ALL",
    "DIARETDB0",
    "HRF_FOV",
    "HRF_ALL",
    "DRISHTI_GS",
    "DIARETDB1_TRAIN",
    "DIARETDB1_TEST",
    "DIARETDB1_FOV",
)

_DIARETDB0_CLASSES = ("neovascularisation", "hardexudates", "softexudates", "hemorrhages", "redsmalldots")
#: DRISHTI-GS soft maps: the grey levels 0, 64, 128, 191, 255 (marked by 0-4 of the 4 experts).
_DRISHTI_LEVELS = (0, 64, 128, 191, 255)
#: DIARETDB1 ground-truth maps: the grey levels 21 k, k = 0..12.
_DIARETDB1_LEVELS = tuple(21 * k for k in range(13))
_DIARETDB1_LESIONS = {"hardexudates": "he", "softexudates": "se", "hemorrhages": "hr", "redsmalldots": "rsd"}


def _load(rel: str) -> Any:
    """One file of the package data ``data/retina/``, parsed."""
    return json.loads(files(__package__).joinpath("data", "retina", *rel.split("/")).read_text(encoding="utf-8"))


def _images(rel: str) -> tuple:
    """``(p, n)`` of each image of one per-image file, in the order of the identifiers."""
    rows = {i["identifier"]: (int(i["p"]), int(i["n"])) for i in _load(rel)["images"]}
    return tuple(rows[k] for k in sorted(rows))


def _histogram(entry: dict, levels: tuple) -> tuple:
    """Pixels at each of ``levels`` of one ``{"values": ..., "counts": ...}`` histogram (0 where not listed)."""
    h = dict(zip(entry["values"], entry["counts"]))
    if not set(h) <= set(levels):  # a level the tables cannot hold: the file is not the one vendored
        raise ValueError(f"histogram levels {sorted(h)} outside {levels}")
    return tuple(int(h.get(v, 0)) for v in levels)


def _diaretdb0() -> dict:
    d = _load("diaretdb0/diaretdb0.json")
    out = {}
    for subset in ("train", "test"):
        splits = d[subset + "sets"]
        for label in _DIARETDB0_CLASSES:
            rows = []
            for batch in sorted(splits, key=int):
                pos = sum(label in d["classes"][i] for i in splits[batch])
                rows.append((pos, len(splits[batch]) - pos))
            out[subset, label] = tuple(rows)
    return out


def _drishti_gs() -> dict:
    out = {}
    for subset in ("train", "test"):
        maps = _load(f"drishti_gs/drishti_gs_{subset}.json")["distributions"]
        for target in ("OD", "OC"):
            out[subset, target] = tuple(_histogram(maps[i][target], _DRISHTI_LEVELS) for i in sorted(maps))
    return out


_d1 = _load("diaretdb1/diaretdb1.json")

#: STARE, the 20 images, annotator AH: (vessel, background) pixels of all 700 x 605.
STARE_AH_ALL = _images("stare/ah.json")
#: STARE, the 20 images, annotator VK: (vessel, background) pixels of all 700 x 605.
STARE_VK_ALL = _images("stare/vk.json")
#: CHASE_DB1, the 28 images, observer 'manual1': (vessel, background) pixels of all 999 x 960.
CHASEDB1_MANUAL1_ALL = _images("chase_db1/manual1.json")
#: CHASE_DB1, the 28 images, observer 'manual2': (vessel, background) pixels of all 999 x 960.
CHASEDB1_MANUAL2_ALL = _images("chase_db1/manual2.json")

#: DIARETDB0 image labelling, one lesion class against the rest, by ``(subset, label)``: (images with
#: the label, images without) in each of the 9 train/test splits ('batches' 1-9) of the 130 images.
#: As mlscorecheck counts them: the label must be spelt exactly, so image 050, labelled
#: 'Neovascularisation', is not a positive.
DIARETDB0 = _diaretdb0()

#: HRF, the 45 images (15 healthy '_h', 15 glaucoma '_g', 15 diabetic retinopathy '_dr'), one
#: annotation: (vessel, background) pixels inside the field-of-view mask (file ``hrf/with_fov.json``).
HRF_FOV = _images("hrf/with_fov.json")
#: HRF, the same 45 images: (vessel, background) pixels of all 3504 x 2336 (file ``hrf/without_fov.json``).
HRF_ALL = _images("hrf/without_fov.json")

#: DRISHTI-GS soft maps, by ``(subset, "OD" or "OC")``: pixels at the grey levels 0, 64, 128, 191, 255
#: (marked by 0, 1, 2, 3, 4 of the 4 experts) of the optic-disc and optic-cup maps of each image
#: (files ``drishti_gs/drishti_gs_{train,test}.json``).
DRISHTI_GS = _drishti_gs()

#: DIARETDB1, the 89 images (Kauppi et al. 2007): identifiers of the 28 training and 61 test images
#: (file ``diaretdb1/diaretdb1.json``, keys 'train' and 'test'; here in the order of the identifiers).
DIARETDB1_TRAIN = tuple(sorted(_d1["train"]))
DIARETDB1_TEST = tuple(sorted(_d1["test"]))

#: DIARETDB1 ground-truth maps, by lesion: pixels inside the field-of-view mask at each grey level 0, 21,
#: 42, ..., 252 (level k = grey level / 21, k = 0..12) of each of the 89 images (the single-class 'fov'
#: histograms of ``diaretdb1/diaretdb1.json``: 'he', 'se', 'hr', 'rsd').  Every row sums to 1,407,235.
#: The file's 'all' histograms are not read: their counts repeat the grey levels.
DIARETDB1_FOV = {
    lesion: tuple(
        _histogram(_d1["distributions"][i][key]["fov"], _DIARETDB1_LEVELS) for i in sorted(_d1["distributions"])
    )
    for lesion, key in _DIARETDB1_LESIONS.items()
}
del _d1
