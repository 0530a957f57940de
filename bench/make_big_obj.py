#!/usr/bin/env python3
"""Writes a grid OBJ with about TRIANGLES triangles (two per quad) for the
robustness figures of bench/README.md (issue 47: a 10M-triangle OBJ must be
refused by the pre-scan, not read). Never commit its output.

usage: bench/make_big_obj.py TRIANGLES OUT.obj
"""
import math
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    triangles, out = int(sys.argv[1]), sys.argv[2]
    side = max(2, math.isqrt(triangles // 2) + 1)  # vertices per grid row
    quads = math.ceil(triangles / 2)
    with open(out, "w", buffering=1 << 22) as f:
        rows = quads // (side - 1) + 2
        for i in range(rows):
            f.write("".join(f"v {i * 0.01:.2f} {j * 0.01:.2f} 0\n" for j in range(side)))
        written = 0
        for q in range(quads):
            i, j = divmod(q, side - 1)
            a = i * side + j + 1
            f.write(f"f {a} {a + 1} {a + side + 1}\nf {a} {a + side + 1} {a + side}\n")
            written += 2
    print(f"{out}: {rows * side} vertices, {written} triangles")


if __name__ == "__main__":
    main()
