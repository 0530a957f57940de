#!/usr/bin/env python3
"""Writes a long BVH clip for the robustness figures of bench/README.md
(issue 47: 10^6 frames of a 31-joint CMU-like skeleton must retarget in
<= 10 s and <= 1 GB). The hierarchy is the CMU one of 01_01.bvh (31 joints);
the frames are a walk-like sway, different in every frame. Never commit its
output (10^6 frames: about 600 MB).

usage: bench/make_long_bvh.py FRAMES OUT.bvh [TEMPLATE.bvh]
TEMPLATE defaults to /usr/share/assimp/models/BVH/01_01.bvh (its HIERARCHY is copied).
"""
import math
import sys


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    frames, out = int(sys.argv[1]), sys.argv[2]
    template = sys.argv[3] if len(sys.argv) == 4 else "/usr/share/assimp/models/BVH/01_01.bvh"
    text = open(template).read()
    hierarchy = text[: text.index("MOTION")]
    channels = sum(int(line.split()[1]) for line in hierarchy.splitlines() if line.strip().startswith("CHANNELS"))
    with open(out, "w", buffering=1 << 22) as f:
        f.write(hierarchy + f"MOTION\nFrames: {frames}\nFrame Time: 0.008333\n")
        base = [((k * 37) % 23 - 11) * 1.5 for k in range(channels)]
        for i in range(frames):
            s = math.sin(i * 0.05)
            row = [b * s for b in base]
            row[0], row[1], row[2] = i * 0.01 % 100.0, 17.0 + s, 0.0  # root position: walks along x
            f.write(" ".join(f"{v:.3f}" for v in row) + "\n")
    print(f"{out}: {frames} frames of {channels} channels")


if __name__ == "__main__":
    main()
