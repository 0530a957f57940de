#!/usr/bin/env bash
# Paired bench against a peer (issue 46): Pinocchio's whole auto-rig (Baran & Popovic 2007: its
# autorig() with the built-in human skeleton, the weights written; ../shared/peers/pinocchio's
# pinocchio_rig) against Rigsmith's (`rigsmith rig MESH.obj --ends auto --out OUT.glb`: skeleton,
# labels, fit, segmentation, weights, glTF export) on the same OBJ meshes: HUMAN.blend subdivided
# flat to 4,282 / 17,122 / 68,482 / 154,082 vertices (`pipeline_bench --runs 0`). The two programs
# run interleaved, A B A B, PAIRS pairs per size; of each run wait4() gives the CPU time (user +
# sys, the importer child included), the peak resident memory (the larger of the process and its
# waited children) and the wall time around it. Prints per size the medians, the ratios Pinocchio / Rigsmith (of the
# medians, and the range of the per-pair ratios) and the 1-minute load average around the runs.
#
# usage: bench/peers.sh [--pairs N] [--factors 1,2,4,6] [--keep DIR]
#   --keep DIR: the meshes, outputs and every run (runs.tsv) stay in DIR (default: a temporary
#   folder, removed). RIGSMITH_PEERS (default ../shared/peers beside the checkout) and
#   RIGSMITH_BUILD_DIR (default build) as elsewhere; Pinocchio is built once into
#   BUILD_DIR/peers/pinocchio (again when its sources are newer).
# Without ../shared/peers/pinocchio it says so and exits 0.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pairs=5
factors=1,2,4,6
keep=
while [ $# -gt 0 ]; do
  case "$1" in
    --pairs) pairs=$2; shift 2 ;;
    --factors) factors=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "usage: bench/peers.sh [--pairs N] [--factors 1,2,4,6] [--keep DIR]" >&2; exit 2 ;;
  esac
done
peer=${RIGSMITH_PEERS:-$root/../shared/peers}/pinocchio
if [ ! -f "$peer/build.sh" ] || [ ! -f "$peer/pinocchio_rig.cpp" ]; then
  echo "bench/peers.sh: skipped: no Pinocchio at $peer (lay ../shared/peers/pinocchio beside the checkout)"
  exit 0
fi
build=${RIGSMITH_BUILD_DIR:-build}
case "$build" in /*) ;; *) build=$root/$build ;; esac
rigsmith=$build/app/rigsmith
meshes=$build/bench/pipeline_bench
for f in "$rigsmith" "$meshes"; do
  [ -x "$f" ] || { echo "bench/peers.sh: $f is missing (build first: scripts/build.sh)" >&2; exit 1; }
done
pin=$build/peers/pinocchio/pinocchio_rig
if [ ! -x "$pin" ] || [ -n "$(find "$peer" -type f -newer "$pin" -print -quit)" ]; then
  echo "building Pinocchio into $build/peers/pinocchio (about a minute)" >&2
  bash "$peer/build.sh" "$build/peers/pinocchio" >&2
fi

if [ -n "$keep" ]; then
  work=$keep
  mkdir -p "$work"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/rigsmith-peers.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
"$meshes" --runs 0 --keep "$work" --factors "$factors" >"$work/meshes.txt"

load() { cut -d' ' -f1 /proc/loadavg; }
# One run of "$@": prints "wall_s cpu_s peak_kib" from wait4() (microseconds; /usr/bin/time
# prints hundredths, a fifth of Rigsmith's CPU time at 4k vertices).
timed() {
  python3 - "$work/stderr.txt" "$@" <<'PY' || { echo "bench/peers.sh: failed: $* ($(tail -1 "$work/stderr.txt"))" >&2; exit 1; }
import os, sys, time
err, argv = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    out = os.open(os.devnull, os.O_WRONLY)
    os.dup2(out, 1)
    os.dup2(os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
    try:
        os.execv(argv[0], argv)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = time.monotonic() - t0
if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
    sys.exit(1)
print(f"{wall:.4f} {ru.ru_utime + ru.ru_stime:.4f} {ru.ru_maxrss}")
PY
}

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$root" diff --quiet HEAD 2>/dev/null || commit="$commit+changes"
echo "bench/peers.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit, $(nproc) cores, $pairs pairs per size"
echo "  A: $pin MESH.obj TIMES.json WEIGHTS.out"
echo "  B: $rigsmith rig MESH.obj --ends auto --out OUT.glb"
runs=$work/runs.tsv
printf 'vertices\tpair\tprogram\twall_s\tcpu_s\tpeak_kib\tload1\n' >"$runs"
IFS=, read -ra ks <<<"$factors"
for k in "${ks[@]}"; do
  mesh=$work/human_x$k.obj
  vertices=$(grep -c '^v ' "$mesh")
  for ((p = 1; p <= pairs; p++)); do
    l=$(load)
    a=$(timed "$pin" "$mesh" "$work/pinocchio_times.json" "$work/pinocchio_weights.out")
    b=$(timed "$rigsmith" rig "$mesh" --ends auto --out "$work/rigsmith.glb")
    printf '%s\t%s\tpinocchio\t%s\t%s\n%s\t%s\trigsmith\t%s\t%s\n' "$vertices" "$p" "${a// /$'\t'}" "$l" \
      "$vertices" "$p" "${b// /$'\t'}" "$(load)" >>"$runs"
    echo "  $vertices vertices, pair $p: Pinocchio $a; Rigsmith $b (wall s, CPU s, peak KiB)" >&2
  done
done

echo
echo "| vertices | CPU s, Pinocchio / Rigsmith | CPU ratio (pairs) | wall s, Pinocchio / Rigsmith | wall ratio (pairs) | peak MiB, Pinocchio / Rigsmith | load |"
echo "|---|---|---|---|---|---|---|"
awk -F'\t' '
  function median(s,    n, a, i, j, t) {
    n = split(s, a, " ")
    for (i = 2; i <= n; ++i) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; --j) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  NR == 1 { next }
  {
    v = $1; if (!(v in seen)) { seen[v] = 1; order[++n] = v; lo[v] = 1e9; hi[v] = 0 }
    key = v SUBSEP $3
    wall[key] = wall[key] " " $4; cpu[key] = cpu[key] " " $5; peak[key] = peak[key] " " $6
    if ($7 < lo[v]) lo[v] = $7; if ($7 > hi[v]) hi[v] = $7
    if ($3 == "pinocchio") { pw[v, $2] = $4; pc[v, $2] = $5 }
    else { cr = pc[v, $2] / $5; wr = pw[v, $2] / $4
      crs[v] = crs[v] " " cr; wrs[v] = wrs[v] " " wr
      if (!(v in cmin) || cr < cmin[v]) cmin[v] = cr; if (cr > cmax[v]) cmax[v] = cr
      if (!(v in wmin) || wr < wmin[v]) wmin[v] = wr; if (wr > wmax[v]) wmax[v] = wr }
  }
  END {
    for (i = 1; i <= n; ++i) {
      v = order[i]; a = v SUBSEP "pinocchio"; b = v SUBSEP "rigsmith"
      ca = median(cpu[a]); cb = median(cpu[b]); wa = median(wall[a]); wb = median(wall[b])
      printf "| %d | %.3f / %.3f | **%.1f×** (%.1f–%.1f) | %.3f / %.3f | **%.1f×** (%.1f–%.1f) | %.0f / %.0f | %.2f–%.2f |\n",
        v, ca, cb, ca / cb, cmin[v], cmax[v], wa, wb, wa / wb, wmin[v], wmax[v],
        median(peak[a]) / 1024, median(peak[b]) / 1024, lo[v], hi[v]
    }
  }' "$runs"
echo
echo "Medians of $pairs runs each; ratio = Pinocchio / Rigsmith (in brackets: the lowest and highest of the pairs)."
[ -n "$keep" ] && echo "Every run: $runs"
exit 0
