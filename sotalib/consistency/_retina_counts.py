"""Per-image (or per-split) positives and negatives of the retinal test sets mlscorecheck bundles.

Copied from ``FalseNegativeLab/mlscorecheck``, commit
40ab6c9bc0416490c2d6a3882faadbff9d54864f, files
``mlscorecheck/experiments/retina/{stare,chase_db1,diaretdb0}/*.json``;
MIT licence, "Copyright (c) 2023 György Kovács".  The same files are kept
byte for byte in the project's ``data/mlscorecheck/retina/``.  Images are in
the order of their identifiers (the comment on each row); the counts are the
source's, unchanged.  Nothing downloads at run time.
"""

#: STARE, the 20 images, annotator AH: (vessel, background) pixels of all 700 x 605.
STARE_AH_ALL = (
    (33799, 389701),  # im0001
    (28205, 395295),  # im0002
    (25345, 398155),  # im0003
    (31395, 392105),  # im0004
    (38257, 385243),  # im0005
    (29496, 394004),  # im0044
    (33941, 389559),  # im0077
    (31615, 391885),  # im0081
    (33310, 390190),  # im0082
    (34057, 389443),  # im0139
    (30180, 393320),  # im0162
    (32751, 390749),  # im0163
    (37701, 385799),  # im0235
    (38360, 385140),  # im0236
    (36571, 386929),  # im0239
    (43243, 380257),  # im0240
    (37903, 385597),  # im0255
    (21418, 402082),  # im0291
    (18245, 405255),  # im0319
    (28261, 395239),  # im0324
)

#: STARE, the 20 images, annotator VK: (vessel, background) pixels of all 700 x 605.
STARE_VK_ALL = (
    (39171, 384329),  # im0001
    (23515, 399985),  # im0002
    (24407, 399093),  # im0003
    (30602, 392898),  # im0004
    (44485, 379015),  # im0005
    (48381, 375119),  # im0044
    (55012, 368488),  # im0077
    (58190, 365310),  # im0081
    (51894, 371606),  # im0082
    (64715, 358785),  # im0139
    (48502, 374998),  # im0162
    (49105, 374395),  # im0163
    (59757, 363743),  # im0235
    (56222, 367278),  # im0236
    (53071, 370429),  # im0239
    (64584, 358916),  # im0240
    (55534, 367966),  # im0255
    (26150, 397350),  # im0291
    (26581, 396919),  # im0319
    (42209, 381291),  # im0324
)

#: CHASE_DB1, the 28 images, observer 'manual1': (vessel, background) pixels of all 999 x 960.
CHASEDB1_MANUAL1_ALL = (
    (66885, 892155),  # 01L
    (72838, 886202),  # 01R
    (77820, 881220),  # 02L
    (74890, 884150),  # 02R
    (75196, 883844),  # 03L
    (72421, 886619),  # 03R
    (75168, 883872),  # 04L
    (73824, 885216),  # 04R
    (75941, 883099),  # 05L
    (81663, 877377),  # 05R
    (72636, 886404),  # 06L
    (71768, 887272),  # 06R
    (74699, 884341),  # 07L
    (72968, 886072),  # 07R
    (62026, 897014),  # 08L
    (60935, 898105),  # 08R
    (48524, 910516),  # 09L
    (48819, 910221),  # 09R
    (60076, 898964),  # 10L
    (59371, 899669),  # 10R
    (51119, 907921),  # 11L
    (51133, 907907),  # 11R
    (69032, 890008),  # 12L
    (70491, 888549),  # 12R
    (58984, 900056),  # 13L
    (60625, 898415),  # 13R
    (66013, 893027),  # 14L
    (56109, 902931),  # 14R
)

#: CHASE_DB1, the 28 images, observer 'manual2': (vessel, background) pixels of all 999 x 960.
CHASEDB1_MANUAL2_ALL = (
    (63058, 895982),  # 01L
    (60818, 898222),  # 01R
    (58992, 900048),  # 02L
    (60221, 898819),  # 02R
    (57670, 901370),  # 03L
    (57059, 901981),  # 03R
    (65066, 893974),  # 04L
    (54027, 905013),  # 04R
    (58734, 900306),  # 05L
    (65462, 893578),  # 05R
    (57258, 901782),  # 06L
    (64486, 894554),  # 06R
    (68439, 890601),  # 07L
    (71572, 887468),  # 07R
    (76741, 882299),  # 08L
    (64673, 894367),  # 08R
    (55822, 903218),  # 09L
    (52633, 906407),  # 09R
    (78037, 881003),  # 10L
    (66581, 892459),  # 10R
    (56262, 902778),  # 11L
    (58801, 900239),  # 11R
    (75826, 883214),  # 12L
    (78820, 880220),  # 12R
    (60697, 898343),  # 13L
    (64262, 894778),  # 13R
    (68040, 891000),  # 14L
    (62523, 896517),  # 14R
)

#: DIARETDB0 image labelling, one lesion class against the rest: (images with the label, images without)
#: in each of the 9 train/test splits ('batches' 1-9) of the 130 images.  As mlscorecheck counts them:
#: the label must be spelt exactly, so image 050, labelled 'Neovascularisation', is not a positive.
DIARETDB0 = {
    ("train", "neovascularisation"): (
        (2, 8),
        (4, 16),
        (6, 24),
        (8, 32),
        (10, 40),
        (12, 48),
        (14, 56),
        (16, 64),
        (18, 72),
    ),
    ("train", "hardexudates"): ((4, 6), (11, 9), (15, 15), (17, 23), (25, 25), (30, 30), (34, 36), (39, 41), (45, 45)),
    ("train", "softexudates"): ((3, 7), (8, 12), (10, 20), (14, 26), (16, 34), (20, 40), (25, 45), (27, 53), (28, 62)),
    ("train", "hemorrhages"): ((6, 4), (12, 8), (19, 11), (26, 14), (32, 18), (36, 24), (39, 31), (47, 33), (51, 39)),
    ("train", "redsmalldots"): ((7, 3), (15, 5), (23, 7), (32, 8), (39, 11), (48, 12), (53, 17), (61, 19), (69, 21)),
    ("test", "neovascularisation"): (
        (17, 103),
        (15, 95),
        (13, 87),
        (11, 79),
        (9, 71),
        (7, 63),
        (5, 55),
        (3, 47),
        (1, 39),
    ),
    ("test", "hardexudates"): (
        (67, 53),
        (60, 50),
        (56, 44),
        (54, 36),
        (46, 34),
        (41, 29),
        (37, 23),
        (32, 18),
        (26, 14),
    ),
    ("test", "softexudates"): (
        (38, 82),
        (33, 77),
        (31, 69),
        (27, 63),
        (25, 55),
        (21, 49),
        (16, 44),
        (14, 36),
        (13, 27),
    ),
    ("test", "hemorrhages"): ((74, 46), (68, 42), (61, 39), (54, 36), (48, 32), (44, 26), (41, 19), (33, 17), (29, 11)),
    ("test", "redsmalldots"): ((99, 21), (91, 19), (83, 17), (74, 16), (67, 13), (58, 12), (53, 7), (45, 5), (37, 3)),
}
