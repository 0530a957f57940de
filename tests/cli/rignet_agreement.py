#!/usr/bin/python3
"""rigsmith evaluate against the benchmark's reference scorer (issue 38).

Runs `rigsmith evaluate @LIST --keep` on 20 models of ../shared/rignet-val
(every 13th id of ids.txt, so the same 20 every run), then scores the rigs and
weights it wrote with reference/score.py and checks that the report's skeleton
metrics (CD-J2J, CD-J2B, CD-B2B, IoU, precision, recall) and skinning precision,
recall and L1 agree within 1e-3. The deformation error is left out: the product
draws its own seeded poses (core/eval/skin_metrics.h).

Usage: rignet_agreement.py RIGSMITH RIGNET_VAL_DIR WORK_DIR
Exits 77 (ctest's skip) when the data or numpy/scipy are missing.
"""
import json
import os
import subprocess
import sys

TOL = 1e-3
SKELETON = [("cd_j2j", "cd_j2j"), ("cd_j2b", "cd_j2b"), ("cd_b2b", "cd_b2b"), ("iou", "iou"),
            ("precision", "precision"), ("recall", "recall")]
SKIN = [("precision", "precision_005"), ("recall", "recall_005"), ("l1", "l1_sum")]


def skip(why):
    print("skipped: " + why)
    sys.exit(77)


def main():
    rigsmith, data, work = (os.path.abspath(p) for p in sys.argv[1:4])
    if not os.path.isfile(os.path.join(data, "ids.txt")):
        skip(data + " is absent (it exists only where ../shared/rignet-val is laid)")
    try:
        import numpy  # noqa: F401
        import scipy  # noqa: F401
    except ImportError:
        skip("the reference scorer needs numpy and scipy (python3-numpy, python3-scipy)")
    ids = [l.strip() for l in open(os.path.join(data, "ids.txt")) if l.strip()][::13][:20]
    os.makedirs(work, exist_ok=True)
    lst = os.path.join(work, "agreement.txt")
    with open(lst, "w") as f:
        f.writelines(os.path.join(data, "models", i + ".glb") + "\n" for i in ids)
    out = os.path.join(work, "agreement")
    subprocess.run([rigsmith, "evaluate", "@" + lst, "--out", out, "--keep", "--jobs", "2"], check=True,
                   stdout=subprocess.DEVNULL)
    scorer = os.path.join(data, "reference", "score.py")
    checked, bad = 0, []
    for i in ids:
        report = json.load(open(os.path.join(out, i + ".json")))
        std = report.get("standard") or {}
        glb = os.path.join(data, "models", i + ".glb")
        rig = os.path.join(out, i + ".rig.json")
        if std.get("skeleton") and os.path.exists(rig):
            ref = json.loads(subprocess.run(["/usr/bin/python3", scorer, "skeleton", glb, rig], check=True,
                                            capture_output=True, text=True).stdout)
            for ours, theirs in SKELETON:
                checked += 1
                if abs(std["skeleton"][ours] - ref[theirs]) > TOL:
                    bad.append("model %d skeleton %s: rigsmith %.6f, reference %.6f"
                               % (ids.index(i), ours, std["skeleton"][ours], ref[theirs]))
        for row in std.get("skinning") or []:
            path = os.path.join(out, "%s.weights.%s.json" % (i, row["method"]))
            if "error" in row or not os.path.exists(path):
                continue
            ref = json.loads(subprocess.run(["/usr/bin/python3", scorer, "weights", glb, path], check=True,
                                            capture_output=True, text=True).stdout)
            for ours, theirs in SKIN:
                checked += 1
                if abs(row[ours] - ref[theirs]) > TOL:
                    bad.append("model %d skinning %s %s: rigsmith %.6f, reference %.6f"
                               % (ids.index(i), row["method"], ours, row[ours], ref[theirs]))
    print("%d figures of %d models compared with the reference scorer, %d disagree beyond %g"
          % (checked, len(ids), len(bad), TOL))
    for b in bad:
        print("  " + b)
    if checked < 100:
        print("too few figures compared (%d): the reports lack the standard section" % checked)
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
