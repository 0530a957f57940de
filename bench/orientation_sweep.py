#!/usr/bin/env python3
"""Tables of up and facing detection from orientation_sweep's CSV (issue 48).

Usage: orientation_sweep.py SWEEP.csv [--data ../shared/rignet-val] [--failures]

Every rignet-val character is upright along +Y in its file; its front is read
from its skeleton where the skeleton shows it: the offsets of toe joints from
their parents, of the joints below joints named foot or ankle, and of eye,
nose and jaw joints from the head, projected on the ground and summed; the
front is the signed horizontal axis of the sum when it lies within 30 degrees
of it. Aggregates only (the data's terms): --failures lists the failing
characters on stderr for a developer's eyes, never for the repository.
"""
import csv
import json
import math
import os
import sys
from collections import defaultdict


def skeleton_front(meta):
    names = [n.lower() for n in meta["joint_names"]]
    parents = meta["parents"]
    pos = meta["joint_rest_positions"]
    sx = sz = 0.0

    def add(child, parent):
        nonlocal sx, sz
        dx, dz = pos[child][0] - pos[parent][0], pos[child][2] - pos[parent][2]
        n = math.hypot(dx, dz)
        if n > 1e-6:
            sx += dx / n
            sz += dz / n

    head = [i for i, n in enumerate(names) if "head" in n and "end" not in n and "nub" not in n]
    for i, n in enumerate(names):
        p = parents[i]
        if p < 0:
            continue
        if "toe" in n or "ball" in n or any(k in names[p] for k in ("foot", "ankle")) and "heel" not in n:
            add(i, p)
        elif any(k in n for k in ("eye", "nose", "jaw")) and head:
            add(i, head[0])
    n = math.hypot(sx, sz)
    if n < 1e-9:
        return None
    if abs(sz) >= n * math.cos(math.radians(30)):
        return "+z" if sz > 0 else "-z"
    if abs(sx) >= n * math.cos(math.radians(30)):
        return "+x" if sx > 0 else "-x"
    return None


def main():
    args = sys.argv[1:]
    data = "../shared/rignet-val"
    if "--data" in args:
        data = args[args.index("--data") + 1]
    failures = "--failures" in args
    rows = list(csv.DictReader(open(args[0])))
    kind = {}
    for k in ("humanoid", "other"):
        for i in open(os.path.join(data, k + ".txt")).read().split():
            kind[i] = k
    front = {}
    for i in kind:
        front[i] = skeleton_front(json.load(open(os.path.join(data, "models", i + ".json"))))
    # Where the file's +Y lands in each frame: group the 24 frames by it.
    by = defaultdict(lambda: defaultdict(list))
    up_us = []
    for r in rows:
        i = os.path.splitext(os.path.basename(r["file"]))[0]
        k = kind.get(i, "other")
        by[k][int(r["frame"])].append((i, r))
        up_us.append((int(r["vertices"]), float(r["up_us"]) + float(r["front_us"])))

    for k in ("humanoid", "other"):
        frames = by[k]
        if not frames:
            continue
        allr = [x for f in frames.values() for x in f]
        n = len({i for i, _ in allr})
        print(f"\n{k} ({n} characters x {len(frames)} frames)\n")
        print("| rule | up right | min over frames | conf >= 0.9: n, right | conf >= 0.5: n, right | facing right (front shown) |")
        print("|---|---|---|---|---|---|")
        for rule in ("auto", "default"):
            ok = [r[f"{rule}_up"] == "+y" for _, r in allr]
            per_frame = [sum(r[f"{rule}_up"] == "+y" for _, r in f) / len(f) for f in frames.values()]
            conf = [float(r[f"{rule}_up_conf"]) if r[f"{rule}_up_source"] == "detected" else None for _, r in allr]

            def band(t):
                sel = [o for o, c in zip(ok, conf) if c is not None and c >= t]
                return f"{len(sel) / len(ok):.1%}, {sum(sel) / max(1, len(sel)):.1%} ({len(sel) - sum(sel)} wrong)"

            shown = [(i, r) for i, r in allr if front.get(i) and r[f"{rule}_up"] == "+y"]
            fr = sum(r[f"{rule}_front"] == front[i] for i, r in shown)
            facing = f"{fr / max(1, len(shown)):.1%} of {len(shown)}" if rule == "auto" else "-"
            print(f"| {rule} | {sum(ok) / len(ok):.1%} | {min(per_frame):.1%} | {band(0.9)} | {band(0.5)} | {facing} |")
            if failures:
                for i, r in allr:
                    if r[f"{rule}_up"] != "+y" and conf[allr.index((i, r))] is not None and float(r[f"{rule}_up_conf"]) >= 0.5:
                        print(f"{rule} {k} {i} frame {r['frame']} up {r[f'{rule}_up']} conf {r[f'{rule}_up_conf']}", file=sys.stderr)
        # Calibration of auto: right per confidence band.
        print("\n| auto confidence | share | up right |\n|---|---|---|")
        edges = [0.0, 0.25, 0.5, 0.75, 0.9, 0.99, 1.01]
        for lo, hi in zip(edges, edges[1:]):
            sel = [r["auto_up"] == "+y" for _, r in allr if lo <= float(r["auto_up_conf"]) < hi]
            if sel:
                print(f"| {lo:.2f}-{min(hi, 1.0):.2f} | {len(sel) / len(allr):.1%} | {sum(sel) / len(sel):.1%} |")
    if up_us:
        us = sorted(t for _, t in up_us)
        print(f"\ndetection (up + front): median {us[len(us) // 2]:.0f} us, max {us[-1]:.0f} us over {len(us)} runs")


if __name__ == "__main__":
    main()
