"""Named test sets: their counts against the vendored sources, and check_report(dataset=...)."""

import csv
import json
import random
import re
from fractions import Fraction
from pathlib import Path

import pytest

from sotalib.consistency import DATASETS, check_batch, check_report, get_dataset

DATA = Path(__file__).resolve().parents[2] / "data" / "drive" / "drive_test_pn.csv"
# adapa2020's primary figures as printed (Kovács & Fazekas 2024: consistent with the FoV evaluation under MoS)
ADAPA = {"acc": "0.945", "sens": "0.6994", "spec": "0.9811"}


def test_drive_counts_are_the_vendored_file():
    rows = list(csv.DictReader(DATA.open()))
    for fov, name in (("True", "drive-test-fov"), ("False", "drive-test-all")):
        want = tuple((int(r["p"]), int(r["n"])) for r in sorted(rows, key=lambda r: int(r["id"])) if r["fov"] == fov)
        assert get_dataset(name).folds == want
    # every image has 584 x 565 pixels
    assert all(p + n == 584 * 565 for p, n in get_dataset("drive-test-all").folds)
    assert all(p + n < 584 * 565 for p, n in get_dataset("drive-test-fov").folds)


def test_the_issue_counts():
    assert (get_dataset("tpehg").p, get_dataset("tpehg").n) == (38, 262)
    assert (get_dataset("isic2016-test").p, get_dataset("isic2016-test").n) == (75, 304)
    assert (get_dataset("isic2017-test").p, get_dataset("isic2017-test").n) == (117, 483)
    assert len(get_dataset("drive-test-fov").folds) == 20
    assert get_dataset("DRIVE-test-FOV").name == "drive-test-fov"
    assert set(DATASETS) >= {"drive-test-fov", "drive-test-all", "tpehg", "isic2016-test", "isic2017-test"}


def test_adapa2020_as_the_authors_found():
    fov = check_report(scores=ADAPA, eps=1e-4, dataset="drive-test-fov", aggregation="mos")
    assert fov.consistent and fov.aggregation == "mos"
    assert not check_report(scores=ADAPA, eps=1e-4, dataset="drive-test-all", aggregation="mos").consistent
    both = check_report(scores=ADAPA, eps=1e-4, dataset="drive-test-fov")
    assert both.fits == ["mos"]  # not Score of Means


def test_dataset_equals_explicit_folds():
    folds = get_dataset("drive-test-fov").folds
    a = check_report(scores=ADAPA, eps=1e-4, dataset="drive-test-fov", aggregation="som").to_dict()
    b = check_report(scores=ADAPA, eps=1e-4, folds=folds, aggregation="som").to_dict()
    assert a == b
    s = check_report(scores={"acc": "0.8", "sens": "0.5"}, decimals=4, dataset="isic2016-test").to_dict()
    assert s == check_report(75, 304, {"acc": "0.8", "sens": "0.5"}, decimals=4).to_dict()


def test_single_dataset_takes_k():
    v = check_report(scores={"acc": "0.9", "sens": "0.8"}, decimals=2, dataset="tpehg", k=5, stratified=True)
    w = check_report(38, 262, {"acc": "0.9", "sens": "0.8"}, decimals=2, k=5, stratified=True)
    assert v.to_dict() == w.to_dict()


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (dict(dataset="mnist"), r"^dataset must be a named (benchmark or )?test set, got 'mnist'"),
        (dict(dataset="tpehg", p=38), r"dataset 'tpehg' fixes the experiment: drop p"),
        (dict(dataset="drive-test-fov", k=5), r"drop k"),
        (dict(dataset="drive-test-all", folds="1:2"), r"drop folds"),
    ],
)
def test_bad_dataset(kwargs, match):
    with pytest.raises(ValueError, match=match):
        check_report(scores={"acc": "0.9"}, eps=1e-4, **kwargs)


def test_batch_dataset_column(tmp_path):
    f = tmp_path / "b.csv"
    f.write_text(
        "id,dataset,aggregation,eps,acc,sens,spec\n"
        "adapa-fov,drive-test-fov,mos,1e-4,0.945,0.6994,0.9811\n"
        "adapa-all,drive-test-all,mos,1e-4,0.945,0.6994,0.9811\n"
        "nope,cifar,mos,1e-4,0.945,0.6994,0.9811\n"
    )
    rows = check_batch(f).reports
    assert [r["verdict"] for r in rows] == ["consistent", "INCONSISTENT", "error"]
    assert re.search("dataset must be a named (benchmark or )?test set", rows[2]["error"])


# ---------------------------------------------------------------------------
# The test sets mlscorecheck bundles (FalseNegativeLab/mlscorecheck, commit 40ab6c9, MIT),
# vendored byte for byte in data/mlscorecheck/retina/; the tests below read those files themselves.
RETINA = Path(__file__).resolve().parents[2] / "data" / "mlscorecheck" / "retina"
DIARETDB0_LABELS = ("neovascularisation", "hardexudates", "softexudates", "hemorrhages", "redsmalldots")
MLSCORECHECK_NAMES = ["stare-ah-all", "stare-vk-all", "chasedb1-manual1-all", "chasedb1-manual2-all"] + [
    f"diaretdb0-{s}-{c}" for s in ("train", "test") for c in DIARETDB0_LABELS
]


def _images(rel):
    """``{identifier: (p, n)}`` of one of mlscorecheck's per-image files."""
    return {i["identifier"]: (i["p"], i["n"]) for i in json.loads((RETINA / rel).read_text())["images"]}


@pytest.mark.parametrize(
    "name,rel",
    [
        ("stare-ah-all", "stare/ah.json"),
        ("stare-vk-all", "stare/vk.json"),
        ("chasedb1-manual1-all", "chase_db1/manual1.json"),
        ("chasedb1-manual2-all", "chase_db1/manual2.json"),
    ],
)
def test_vessel_counts_are_the_vendored_files(name, rel):
    src = _images(rel)
    assert get_dataset(name).folds == tuple(src[k] for k in sorted(src))


def test_diaretdb0_counts_are_the_vendored_file():
    d = json.loads((RETINA / "diaretdb0" / "diaretdb0.json").read_text())
    labels = d["classes"]
    for subset in ("train", "test"):
        splits = d[subset + "sets"]
        for c in DIARETDB0_LABELS:
            want = []
            for b in sorted(splits, key=int):
                pos = sum(c in labels[i] for i in splits[b])
                want.append((pos, len(splits[b]) - pos))
            assert get_dataset(f"diaretdb0-{subset}-{c}").folds == tuple(want)


def test_stare_and_chasedb1_sizes_as_published():
    # STARE: Hoover, Kouznetsova & Goldbaum, IEEE TMI 19(3) 2000 -- 20 images of 700 x 605 pixels,
    # vessels hand-labelled by two observers (AH, VK)
    for a in ("ah", "vk"):
        folds = get_dataset(f"stare-{a}-all").folds
        assert len(folds) == 20 and all(p + n == 700 * 605 for p, n in folds)
    # CHASE_DB1: Fraz et al., IEEE TBME 59(9) 2012 -- 28 images, both eyes of 14 children, two observers;
    # the distributed image files are 999 x 960 pixels
    for k in (1, 2):
        folds = get_dataset(f"chasedb1-manual{k}-all").folds
        assert len(folds) == 28 and all(p + n == 999 * 960 for p, n in folds)
    assert sorted(_images("chase_db1/manual1.json")) == [f"{i:02d}{e}" for i in range(1, 15) for e in "LR"]


def test_diaretdb0_as_published():
    # Kauppi et al. 2007, "DIARETDB0: Evaluation database and methodology for diabetic retinopathy
    # algorithms": 130 colour fundus images, 20 normal and 110 with signs of diabetic retinopathy.
    d = json.loads((RETINA / "diaretdb0" / "diaretdb0.json").read_text())
    assert len(d["classes"]) == 130
    # Each of the 9 splits divides all 130 images into train (10, 20, ..., 90) and test (120, ..., 40).
    for b in map(str, range(1, 10)):
        train, test = set(d["trainsets"][b]), set(d["testsets"][b])
        assert not train & test and len(train | test) == 130 and len(train) == 10 * int(b)
        assert len(get_dataset("diaretdb0-test-hardexudates").folds[int(b) - 1]) == 2
        assert sum(get_dataset("diaretdb0-train-redsmalldots").folds[int(b) - 1]) == 10 * int(b)
    # DISAGREES with the paper: 22 images carry none of the 5 lesion labels, not 20.
    assert sum(1 for v in d["classes"].values() if not v) == 22
    # Image 050 is labelled 'Neovascularisation' (capital N); mlscorecheck matches labels exactly, so it is a
    # negative for neovascularisation, and so it is here: 19 positives, not 20.
    assert [i for i, v in d["classes"].items() if "Neovascularisation" in v] == ["050"]
    assert sum("neovascularisation" in v for v in d["classes"].values()) == 19


HRF_NAMES = [f"hrf-{g}{r}" for g in ("", "healthy-", "glaucoma-", "dr-") for r in ("fov", "all")]
DRISHTI_NAMES = [f"drishtigs-{s}-{t}-{k}of4" for s in ("train", "test") for t in ("od", "oc") for k in range(1, 5)]


def test_hrf_counts_are_the_vendored_files_and_the_paper():
    # HRF: Budai et al., Int J Biomed Imaging 2013 -- 45 images of 3504 x 2336 pixels,
    # 15 healthy (_h), 15 glaucoma (_g), 15 diabetic retinopathy (_dr), one manual vessel segmentation each
    fov, every = _images("hrf/with_fov.json"), _images("hrf/without_fov.json")
    assert sorted(fov) == sorted(every) == sorted(f"{i:02d}_{g}" for g in ("h", "g", "dr") for i in range(1, 16))
    assert all(sum(every[i]) == 3504 * 2336 == 8_185_344 and sum(fov[i]) < 3504 * 2336 for i in every)
    assert all(fov[i][0] <= every[i][0] for i in every)  # vessels inside the field of view are a subset
    for region, src in (("fov", fov), ("all", every)):
        assert get_dataset(f"hrf-{region}").folds == tuple(src[k] for k in sorted(src))
        for group, g in (("healthy", "h"), ("glaucoma", "g"), ("dr", "dr")):
            want = tuple(src[k] for k in sorted(src) if k.endswith("_" + g))
            assert len(want) == 15 and get_dataset(f"hrf-{group}-{region}").folds == want
    # the totals: 45 and 15 images of 8,185,344 pixels; the field of view of all 45 holds 311,107,207
    assert get_dataset("hrf-all").p + get_dataset("hrf-all").n == 45 * 8_185_344 == 368_340_480
    assert get_dataset("hrf-dr-all").p + get_dataset("hrf-dr-all").n == 15 * 8_185_344
    assert (get_dataset("hrf-fov").p, get_dataset("hrf-fov").n) == (28_395_044, 282_712_163)


def test_drishti_gs_counts_are_the_vendored_files():
    # DRISHTI-GS: Sivaswamy et al., ISBI 2014 -- 101 images, 50 training and 51 test, soft maps of 4 experts.
    # DISAGREES with the paper's image size (2896 x 1944): the soft maps hold 3.58-4.35 million pixels,
    # fewer than the 5.63 million of a full image (the source does not say how they were cropped).
    sizes = []
    for subset, count in (("train", 50), ("test", 51)):
        maps = json.loads((RETINA / "drishti_gs" / f"drishti_gs_{subset}.json").read_text())["distributions"]
        assert len(maps) == count
        for m in maps.values():
            assert m["OD"]["values"] == m["OC"]["values"] == [0, 64, 128, 191, 255]
            assert sum(m["OD"]["counts"]) == sum(m["OC"]["counts"])
            sizes.append(sum(m["OD"]["counts"]))
        for target in ("OD", "OC"):
            for k in range(1, 5):
                # mlscorecheck's labelling: a pixel is positive when its level is >= 255 * confidence;
                # "at least k of 4" is that labelling for confidence in ((k - 1) levels, k levels]
                conf = (0.2, 0.5, 0.7, 0.75)[k - 1]  # 0.75 (its examples' value) is 4 of 4: 191 < 191.25
                want = []
                for ident in sorted(maps):
                    m = maps[ident][target]
                    pos = sum(c for c, v in zip(m["counts"], m["values"]) if v >= 255 * conf)
                    want.append((pos, sum(m["counts"]) - pos))
                d = get_dataset(f"drishtigs-{subset}-{target.lower()}-{k}of4")
                assert d.folds == tuple(want) and len(d.folds) == count
    assert 3_500_000 < min(sizes) and max(sizes) < 2896 * 1944
    # every optic cup lies inside its optic disc: fewer cup than disc pixels at every agreement level
    for subset in ("train", "test"):
        for k in range(1, 5):
            disc = get_dataset(f"drishtigs-{subset}-od-{k}of4").folds
            cup = get_dataset(f"drishtigs-{subset}-oc-{k}of4").folds
            assert all(c[0] < d[0] for c, d in zip(cup, disc))


def test_hrf_and_drishti_gs_exceed_the_old_float_limit():
    # one set's images hold 182-368 million pixels: beyond 2**26, the wide path of the checks
    for name in HRF_NAMES + DRISHTI_NAMES:
        d = get_dataset(name)
        assert 2**26 < d.p + d.n <= 2**31 and "40ab6c9" in d.source and "MIT" in d.source


def _som_report(d, picked):
    """Scores of the pooled confusion matrix of per-image (tp, tn), as exact fractions."""
    tp, tn = sum(c[0] for c in picked), sum(c[1] for c in picked)
    fp, fn = d.n - tn, d.p - tp
    out = {
        "acc": Fraction(tp + tn, d.p + d.n),
        "sens": Fraction(tp, d.p),
        "spec": Fraction(tn, d.n),
        "f1": Fraction(2 * tp, 2 * tp + fp + fn),
    }
    return out


def _picked(d, seed):
    rng = random.Random(seed)
    return [(p * rng.randint(60, 85) // 100, n - n * rng.randint(1, 5) // 100) for p, n in d.folds]


@pytest.mark.parametrize("name", ["hrf-fov", "hrf-dr-all", "drishtigs-test-oc-4of4"])
def test_large_sets_consistent_from_true_counts_and_not_when_perturbed(name):
    d = get_dataset(name)
    exact = _som_report(d, _picked(d, 7))
    scores = {k: f"{float(v):.4f}" for k, v in exact.items()}
    r = check_report(scores=scores, decimals=4, dataset=name, aggregation="som")
    assert r.consistent and r.n_solutions > 0
    # accuracy one unit off in its 4th decimal: no pooled (tp, tn) gives it with the other three
    for delta in (-1, 1):
        bad = dict(scores, acc=f"{float(exact['acc']) + delta * 1e-4:.4f}")
        assert not check_report(scores=bad, decimals=4, dataset=name, aggregation="som").consistent, (delta, bad)


def test_hrf_mean_of_scores_from_true_counts():
    d = get_dataset("hrf-glaucoma-fov")
    picked = _picked(d, 3)
    mean = {
        "acc": sum(Fraction(t + u, p + n) for (t, u), (p, n) in zip(picked, d.folds)) / 15,
        "sens": sum(Fraction(t, p) for (t, _), (p, _) in zip(picked, d.folds)) / 15,
        "spec": sum(Fraction(u, n) for (_, u), (_, n) in zip(picked, d.folds)) / 15,
    }
    scores = {k: f"{float(v):.4f}" for k, v in mean.items()}
    assert check_report(scores=scores, decimals=4, dataset="hrf-glaucoma-fov", aggregation="mos").consistent
    # specificity 0.02 above what any image set's accuracy allows: each image is over 90% negatives
    scores["spec"] = f"{float(mean['spec']) + 0.02:.4f}"
    assert not check_report(scores=scores, decimals=4, dataset="hrf-glaucoma-fov", aggregation="mos").consistent


@pytest.mark.parametrize("name", MLSCORECHECK_NAMES)
def test_every_mlscorecheck_name_resolves(name):
    d = get_dataset(name.upper())
    assert d.name == name and "40ab6c9" in d.source and "MIT" in d.source
    # a report computed from counts picked on this set: Score of Means over its folds, 4 decimals
    tp, tn = d.p * 2 // 3, d.n * 9 // 10
    scores = {"acc": f"{(tp + tn) / (d.p + d.n):.4f}", "sens": f"{tp / d.p:.4f}", "spec": f"{tn / d.n:.4f}"}
    assert check_report(scores=scores, decimals=4, dataset=name, aggregation="som").consistent
    # acc off by 0.01 cannot come from any (tp, tn) that gives these sens and spec
    scores["acc"] = f"{(tp + tn) / (d.p + d.n) + 0.01:.4f}"
    assert not check_report(scores=scores, decimals=4, dataset=name, aggregation="som").consistent


def test_stare_mean_of_scores_from_picked_counts():
    folds = get_dataset("stare-ah-all").folds
    picked = [(p * 3 // 4, n - n // 50) for p, n in folds]  # (tp, tn) of each image
    mean = {
        "acc": sum((tp + tn) / (p + n) for (tp, tn), (p, n) in zip(picked, folds)) / 20,
        "sens": sum(tp / p for (tp, _), (p, _) in zip(picked, folds)) / 20,
        "spec": sum(tn / n for (_, tn), (_, n) in zip(picked, folds)) / 20,
    }
    scores = {k: f"{v:.4f}" for k, v in mean.items()}
    assert check_report(scores=scores, decimals=4, dataset="stare-ah-all", aggregation="mos").consistent
    scores["acc"] = f"{mean['acc'] - 0.02:.4f}"
    assert not check_report(scores=scores, decimals=4, dataset="stare-ah-all", aggregation="mos").consistent


# ---------------------------------------------------------------------------
# DIARETDB1: the field-of-view histograms of mlscorecheck's file (its 'all' histograms are broken)
DIARETDB1_LESIONS = {"hardexudates": "he", "softexudates": "se", "hemorrhages": "hr", "redsmalldots": "rsd"}


def _diaretdb1():
    return json.loads((RETINA / "diaretdb1" / "diaretdb1.json").read_text())


def test_diaretdb1_vendored_file_as_the_code_expects():
    d = _diaretdb1()
    maps = d["distributions"]
    # Kauppi et al. 2007 (BMVC): 89 images; the file's train/test lists, 28 + 61, cover them once
    assert len(maps) == 89 and sorted(maps) == [f"{i:03d}" for i in range(1, 90)]
    assert len(d["train"]) == 28 and len(d["test"]) == 61 and sorted(d["train"] + d["test"]) == sorted(maps)
    for ident, m in maps.items():
        # the 4 lesions and their 11 combinations, each with a field-of-view histogram of one total
        assert len(m) == 15 and {"he", "se", "hr", "rsd", "he-hr-rsd-se"} <= set(m)
        assert {sum(e["fov"]["counts"]) for e in m.values()} == {1_407_235}, ident
        for e in m.values():
            # grey levels 21 k, k = 0..12, each listed once with a pixel count > 0
            assert all(v % 21 == 0 and 0 <= v <= 252 for v in e["fov"]["values"])
            assert e["fov"]["values"] == sorted(set(e["fov"]["values"])) and min(e["fov"]["counts"]) > 0
            # THE DEFECT: every 'all' histogram's counts repeat its grey levels (same levels as 'fov')
            assert e["all"]["counts"] == e["all"]["values"] == e["fov"]["values"]
    assert maps["001"]["he"]["all"] == {"values": [0, 63, 126, 189, 252], "counts": [0, 63, 126, 189, 252]}
    assert maps["001"]["he"]["fov"]["counts"] == [1330043, 42319, 4907, 8823, 21143]


def _levels(entry):
    """Pixels at the levels 0..12 of one 'fov' histogram, computed here from the file."""
    h = dict(zip(entry["values"], entry["counts"]))
    return [h.get(21 * k, 0) for k in range(13)]


def test_diaretdb1_counts_are_the_vendored_file():
    d = _diaretdb1()
    maps = d["distributions"]
    names = {n for n in DATASETS if n.startswith("diaretdb1-")}
    seen = set()
    for subset in ("train", "test"):
        for lesion, key in DIARETDB1_LESIONS.items():
            rows = [_levels(maps[i][key]["fov"]) for i in sorted(d[subset])]
            previous = None
            for k in range(1, 13):
                # segmentation: images with a pixel at level >= k, (pixels at >= k, the rest of the FoV)
                want = tuple((sum(r[k:]), sum(r[:k])) for r in rows if sum(r[k:]))
                name = f"diaretdb1-{subset}-{lesion}-fov-{k}of12"
                assert get_dataset(name).folds == want and all(p + n == 1_407_235 for p, n in want)
                seen.add(name)
                # image labelling: images with a pixel at level >= k; one name per run of equal labellings
                pos = sum(1 for r in rows if sum(r[k:]))
                labelling = ((pos, len(rows) - pos),)
                runs = [x for x in names if x.startswith(f"diaretdb1-{subset}-{lesion}-") and "-fov-" not in x]
                hits = [x for x in runs if _covers(x, k)]
                assert len(hits) == 1 and get_dataset(hits[0]).folds == labelling, (subset, lesion, k)
                assert (hits[0] == previous) == (previous is not None and get_dataset(previous).folds == labelling)
                previous = hits[0]
                seen.add(hits[0])
    assert seen == names  # nothing else is offered under DIARETDB1's name
    # the 4 single lesions only: image labelling at the levels where it changes, segmentation at every level
    assert len(names) == 2 * 4 * 12 + 63


def _covers(name, k):
    """Whether the image-labelling set ``name`` (``...-Kof12`` or ``...-LtoHof12``) is the one for level k."""
    levels = name.rsplit("-", 1)[1].removesuffix("of12")
    low, _, high = levels.partition("to")
    return int(low) <= k <= int(high or low)


def _mlscorecheck_diaretdb1(d, subset, class_name, pixel_level, assumption, confidence, only_valid=False):
    """mlscorecheck's ``_prepare_configuration_diaretdb1`` (commit 40ab6c9), rewritten plainly."""
    key = "-".join(sorted(DIARETDB1_LESIONS[c] for c in class_name))
    testsets, testset = [], {"p": 0, "n": 0}
    for ident in d[subset]:
        entry = d["distributions"][ident][key][assumption]
        p = sum(c for c, v in zip(entry["counts"], entry["values"]) if v >= confidence * 255)
        n = sum(c for c, v in zip(entry["counts"], entry["values"]) if v < confidence * 255)
        testsets.append({"identifier": ident, "p": p, "n": n})
        testset["p"] += p > 0
        testset["n"] += p == 0
    if only_valid:
        testsets = [t for t in testsets if t["p"] > 0 and t["n"] > 0]
    return testsets if pixel_level else [testset]


def test_diaretdb1_as_mlscorecheck_prepares_it():
    d = _diaretdb1()
    # its check_diaretdb1_class uses the broken 'all' histograms; a listed grey level counts as present
    # there (count = level > 0), as in the field of view, so the image labelling comes out the same
    for subset in ("train", "test"):
        for lesion in DIARETDB1_LESIONS:
            for conf, k in ((0.05, 1), (0.5, 7), (0.75, 10), (0.9, 11), (0.98, 12)):
                (want,) = _mlscorecheck_diaretdb1(d, subset, [lesion], False, "all", conf)
                got = [get_dataset(x) for x in DATASETS if x.startswith(f"diaretdb1-{subset}-{lesion}-")]
                got = [x for x in got if "-fov-" not in x.name and _covers(x.name, k)]
                assert len(got) == 1 and got[0].folds == ((want["p"], want["n"]),), (subset, lesion, conf)
    # its own example: test images, hard or soft exudates, confidence 0.75 -> 17 positives of 61,
    # and its scores acc 0.3115, sens 1.0, spec 0.0455, f1 0.4474 come from tp = 17, tn = 2
    (ex,) = _mlscorecheck_diaretdb1(d, "test", ["hardexudates", "softexudates"], False, "all", 0.75)
    assert (ex["p"], ex["n"]) == (17, 44)
    assert (f"{19 / 61:.4f}", f"{2 / 44:.4f}", f"{34 / 76:.4f}") == ("0.3115", "0.0455", "0.4474")
    # segmentation in the field of view, only_valid=True: its folds are this package's, image by image
    for subset, lesion, conf, k in (("test", "hardexudates", 0.5, 7), ("train", "redsmalldots", 0.75, 10)):
        sets = _mlscorecheck_diaretdb1(d, subset, [lesion], True, "fov", conf, only_valid=True)
        want = tuple((t["p"], t["n"]) for t in sorted(sets, key=lambda t: t["identifier"]))
        assert get_dataset(f"diaretdb1-{subset}-{lesion}-fov-{k}of12").folds == want


@pytest.mark.parametrize("name", ["diaretdb1-test-hardexudates-fov-10of12", "diaretdb1-test-hardexudates-fov-7of12"])
def test_diaretdb1_segmentation_consistent_from_true_counts_and_not_when_perturbed(name):
    # hard exudates, mlscorecheck's confidences 0.75 (level 10) and 0.5 (level 7, its example's): 0.72 and 1.25
    # million positives.  (Red small dots hold a few thousand positives among 28 million pixels: there acc and
    # spec nearly coincide and a one-unit nudge of acc can be absorbed by spec's own rounding.)
    d = get_dataset(name)
    exact = _som_report(d, _picked(d, 5))
    scores = {k: f"{float(v):.4f}" for k, v in exact.items()}
    assert check_report(scores=scores, decimals=4, dataset=name, aggregation="som").consistent
    for delta in (-1, 1):
        bad = dict(scores, acc=f"{float(exact['acc']) + delta * 1e-4:.4f}")
        assert not check_report(scores=bad, decimals=4, dataset=name, aggregation="som").consistent, (delta, bad)


def test_diaretdb1_image_labelling_consistent_from_true_counts_and_not_when_perturbed():
    # the 61 test images, hard exudates, mlscorecheck's typical confidence 0.75 (level >= 10)
    (name,) = [
        x for x in DATASETS if x.startswith("diaretdb1-test-hardexudates-") and "-fov-" not in x and _covers(x, 10)
    ]
    d = get_dataset(name)
    assert d.single and (d.p, d.n) == (16, 45)
    tp, tn = 13, 41
    scores = {"acc": f"{(tp + tn) / 61:.4f}", "sens": f"{tp / 16:.4f}", "spec": f"{tn / 45:.4f}"}
    assert check_report(scores=scores, decimals=4, dataset=name).consistent
    bad = dict(scores, acc=f"{(tp + tn) / 61 + 1e-4:.4f}")
    assert not check_report(scores=bad, decimals=4, dataset=name).consistent
