"""The retinal counts shipped as package data: the vendored files, declared for the wheel, the published sizes."""

import glob
import hashlib
import json
from pathlib import Path

import pytest

from sotalib.consistency import _retina as retina  # private: the reader of the package data is the subject
from sotalib.consistency import get_dataset

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "sotalib" / "consistency"
SHIPPED = PACKAGE / "data" / "retina"
VENDORED = ROOT / "data" / "mlscorecheck"


def _files(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_package_data_is_the_vendored_files_byte_for_byte():
    vendored = _files(VENDORED / "retina")
    assert len(vendored) == 10 and _files(SHIPPED) == sorted(vendored + ["LICENSE", "README.md"])
    for rel in vendored:
        assert (SHIPPED / rel).read_bytes() == (VENDORED / "retina" / rel).read_bytes(), rel
    assert (SHIPPED / "LICENSE").read_bytes() == (VENDORED / "LICENSE").read_bytes()
    assert "Copyright (c) 2023 György Kovács" in (SHIPPED / "LICENSE").read_text(encoding="utf-8")


def test_every_shipped_file_is_declared_for_the_wheel():
    # pip install . (not -e) carries only what [tool.setuptools.package-data] names
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["sotalib.consistency"]
    declared = {
        m
        for pat in patterns
        for m in glob.glob(pat, root_dir=PACKAGE, recursive=True)  # setuptools reads ** recursively
        if (PACKAGE / m).is_file() and "__pycache__" not in m
    }
    assert declared == {f"data/retina/{rel}" for rel in _files(SHIPPED)}


def _digest(tables):
    plain = {
        name: sorted([list(k) if isinstance(k, tuple) else k, v] for k, v in t.items()) if isinstance(t, dict) else t
        for name, t in tables.items()
    }
    return hashlib.sha256(json.dumps(plain, sort_keys=True).encode()).hexdigest()


def test_tables_are_those_the_python_module_held():
    # sha256 of the 11 tables of the deleted sotalib/consistency/_retina_counts.py (the counts written as
    # Python), computed from that module before it was deleted; every table was also compared with the new
    # reading entry by entry (same values, same int/tuple types) and all 202 named sets' to_dict() were equal.
    tables = {name: getattr(retina, name) for name in retina.TABLES}
    assert len(tables) == 11
    assert _digest(tables) == "f8d23870483c5c0db2935461583f3ef6d6c1970c3c92d605cc4ef9bd0eb6fb8d"


# Sizes stated by the data sets' papers and distributions: (images, pixels of each image, or None
# where each image's field of view differs).
PUBLISHED = {
    # DRIVE, Staal et al., IEEE TMI 2004: 20 test images of 565 x 584
    "drive-test-all": (20, 584 * 565),
    # STARE, Hoover et al., IEEE TMI 2000: 20 images of 700 x 605
    "stare-ah-all": (20, 423_500),
    "stare-vk-all": (20, 423_500),
    # CHASE_DB1, Fraz et al., IEEE TBME 2012: 28 images (both eyes of 14 children), files of 999 x 960
    "chasedb1-manual1-all": (28, 959_040),
    "chasedb1-manual2-all": (28, 959_040),
    # HRF, Budai et al. 2013: 45 images of 3504 x 2336, 15 healthy, 15 glaucoma, 15 diabetic retinopathy
    "hrf-all": (45, 8_185_344),
    "hrf-healthy-all": (15, 8_185_344),
    "hrf-glaucoma-all": (15, 8_185_344),
    "hrf-dr-all": (15, 8_185_344),
    "hrf-fov": (45, None),
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_image_sets_have_the_published_sizes(name):
    images, pixels = PUBLISHED[name]
    folds = get_dataset(name).folds
    assert len(folds) == images and all(p > 0 and n > 0 for p, n in folds)
    if pixels is not None:
        assert all(p + n == pixels for p, n in folds)


def test_published_totals():
    assert sum(map(sum, get_dataset("drive-test-all").folds)) == 20 * 329_960 == 6_599_200
    assert sum(map(sum, get_dataset("hrf-all").folds)) == 45 * 3504 * 2336 == 368_340_480
    assert sum(map(sum, get_dataset("stare-ah-all").folds)) == 20 * 423_500
    assert sum(map(sum, get_dataset("chasedb1-manual2-all").folds)) == 28 * 959_040
    # HRF's field of view: inside each image's 8,185,344 pixels, no more vessels than over the whole image
    for (p, n), (q, m) in zip(get_dataset("hrf-fov").folds, get_dataset("hrf-all").folds):
        assert p + n < q + m and p <= q
    # DIARETDB0, Kauppi et al. 2007: 130 images, each split into 10 b training and 130 - 10 b test images
    for label in ("neovascularisation", "hardexudates", "softexudates", "hemorrhages", "redsmalldots"):
        train = get_dataset(f"diaretdb0-train-{label}").folds
        test = get_dataset(f"diaretdb0-test-{label}").folds
        assert [sum(f) for f in train] == [10 * b for b in range(1, 10)]
        assert [sum(f) for f in test] == [130 - 10 * b for b in range(1, 10)]
    # DIARETDB1, Kauppi et al. 2007 (BMVC): 89 images, 28 training and 61 test; one field of view of 1,407,235
    assert len(retina.DIARETDB1_TRAIN) == 28 and len(retina.DIARETDB1_TEST) == 61
    assert sorted(retina.DIARETDB1_TRAIN + retina.DIARETDB1_TEST) == [f"{i:03d}" for i in range(1, 90)]
    for rows in retina.DIARETDB1_FOV.values():
        assert len(rows) == 89 and {sum(r) for r in rows} == {1_407_235} and all(len(r) == 13 for r in rows)
    # DRISHTI-GS, Sivaswamy et al., ISBI 2014: 50 training and 51 test images, each image's disc and cup
    # maps of one size
    for subset, count in (("train", 50), ("test", 51)):
        od, oc = retina.DRISHTI_GS[subset, "OD"], retina.DRISHTI_GS[subset, "OC"]
        assert len(od) == len(oc) == count and [sum(r) for r in od] == [sum(r) for r in oc]
        assert get_dataset(f"drishtigs-{subset}-od-1of4").p + get_dataset(f"drishtigs-{subset}-od-1of4").n == sum(
            map(sum, od)
        )
