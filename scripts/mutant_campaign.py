#!/usr/bin/env python3
"""The hostile-file campaign of issue 21: mutants of real files through the CLI.

For each format (OBJ, PLY, FBX, glTF/glb, .X, BVH, .rsproj) it makes N mutants
from seeds (the small files of Debian's assimp-testmodels; a Rigsmith project
saved by `rigsmith rig default --project`; short BVH clips cut from the CMU
ones) by three mutations, drawn in turn:
  truncate   the file cut at a random offset
  bitflip    1 to 16 random bits flipped
  inflate    a random slice repeated up to 64 times, or (text formats) a number
             replaced by a huge one (4294967297, 1e308, -1e38, 1e19, ...)
and runs each through `rigsmith info FILE` (the guarded importer), BVH mutants
also as clips through `rigsmith retarget RIG.json FILE` (Rigsmith's own BVH
reader), project mutants through `rigsmith export FILE --out x.bvh` (the
project reader; the seed has no clip, so a project that is read ends in "needs
a clip"). Counts per format: refused with a message, accepted, crashes of the
rigsmith process (killed by a signal), hangs (still running at --timeout),
and for projects silent acceptances: a mutant that is not valid JSON (Python's
strict parser) and yet is read. Findings are copied to OUT/findings.

  scripts/mutant_campaign.py --rigsmith build/app/rigsmith [--per-format 1000]
      [--formats obj,ply,fbx,gltf,x,bvh,rsproj] [--timeout 30] [--seed 21] [--out DIR]
      [--jobs 2]

Run it niced: it starts thousands of processes (nice -n 19 scripts/mutant_campaign.py ...).
The importer runs under RIGSMITH_IMPORT_TIMEOUT=5 and RIGSMITH_IMPORT_MEMORY_MB=2048
unless the environment sets them, so a reader that loops or grows is stopped
by Rigsmith itself before the campaign's timeout.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

MODELS = Path("/usr/share/assimp/models")
TEXT_FORMATS = {"obj", "ply", "gltf", "x", "bvh", "rsproj"}
HUGE = [b"4294967297", b"1e308", b"-1e38", b"1e19", b"99999999999999999999", b"2147483648", b"-2147483649",
        b"nan", b"inf", b"0"]


def seeds_for(fmt, work, rigsmith):
    """Seed files for a format (copied into work/seeds/FMT with their sibling files)."""
    out = []
    if fmt in ("obj", "ply", "fbx", "x"):
        files = [p for p in MODELS.rglob("*") if p.suffix.lower() == "." + fmt and p.stat().st_size < 300_000
                 and "invalid" not in p.parts and p.stat().st_size > 0]
    elif fmt == "gltf":
        files = [p for p in MODELS.rglob("*") if p.suffix.lower() in (".gltf", ".glb")
                 and p.stat().st_size < 300_000 and "draco" not in str(p).lower()]
    elif fmt == "bvh":
        files = []
        dest = work / "seeds" / fmt
        dest.mkdir(parents=True, exist_ok=True)
        for src in sorted((MODELS / "BVH").glob("*.bvh")):
            text = src.read_bytes().split(b"\n")
            head = text.index(next(l for l in text if l.startswith(b"MOTION")))
            frames = text[head + 3:head + 3 + 24]
            short = text[:head + 1] + [b"Frames: %d" % len(frames), text[head + 2]] + frames
            p = dest / src.name
            p.write_bytes(b"\n".join(short) + b"\n")
            files.append(p)
        return [(p, []) for p in files]
    elif fmt == "rsproj":
        dest = work / "seeds" / fmt
        dest.mkdir(parents=True, exist_ok=True)
        seed = dest / "seed.rsproj"
        if not seed.exists():
            subprocess.run([rigsmith, "rig", "default", "--out", str(dest / "seed.glb"), "--project", str(seed)],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return [(seed, [])]
    files.sort()
    return [(p, [s for s in p.parent.iterdir() if s.is_file() and s != p]) for p in files]


def mutate(data, rng, kind, text):
    if kind == "truncate":
        return data[:rng.randrange(0, max(1, len(data)))]
    b = bytearray(data)
    if kind == "bitflip":
        for _ in range(rng.randint(1, 16)):
            if b:
                i = rng.randrange(len(b))
                b[i] ^= 1 << rng.randrange(8)
        return bytes(b)
    # inflate
    numbers = list(re.finditer(rb"-?\d+(\.\d+)?([eE][-+]?\d+)?", data)) if text else []
    if numbers and rng.random() < 0.5:
        for _ in range(rng.randint(1, 3)):
            m = rng.choice(numbers)
            data = data[:m.start()] + rng.choice(HUGE) + data[m.end():]
            numbers = list(re.finditer(rb"-?\d+(\.\d+)?([eE][-+]?\d+)?", data))
            if not numbers:
                break
        return data
    if not data:
        return b"\0" * 4096
    i = rng.randrange(len(data))
    j = min(len(data), i + rng.randint(1, 4096))
    return data[:j] + data[i:j] * rng.randint(2, 64) + data[j:]


def run_killing_group(cmd, timeout, env):
    """Runs cmd in its own process group; at the timeout kills the group (rigsmith and its importer)."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, process_group=0)
    try:
        _, err = p.communicate(timeout=timeout)
        return p.returncode, err.decode(errors="replace").strip().splitlines(), time.monotonic() - start
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return None, [], time.monotonic() - start


def valid_json(data):
    try:
        json.loads(data.decode("utf-8"))
        return True
    except (UnicodeDecodeError, ValueError):
        return False


def one(task):
    fmt, index, mutant, kind, args, env, rig_json = task
    results = []
    commands = []
    if fmt == "rsproj":
        commands.append(("export", [args.rigsmith, "export", str(mutant), "--out", str(mutant) + ".bvh"]))
    else:
        commands.append(("info", [args.rigsmith, "info", str(mutant)]))
    if fmt == "bvh" and rig_json:
        commands.append(("retarget", [args.rigsmith, "retarget", rig_json, str(mutant), "--out",
                                      str(mutant) + ".json"]))
    for name, cmd in commands:
        rc, err, seconds = run_killing_group(cmd, args.timeout, env)
        results.append((name, rc, err, seconds))
    return fmt, index, mutant, kind, results


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rigsmith", default="build/app/rigsmith")
    ap.add_argument("--per-format", type=int, default=1000)
    ap.add_argument("--formats", default="obj,ply,fbx,gltf,x,bvh,rsproj")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--out", default="build/mutant-campaign")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--table", action="store_true",
                    help="only print the table of every run so far (OUT/results.jsonl): the campaign may run in chunks")
    args = ap.parse_args()
    args.rigsmith = str(Path(args.rigsmith).resolve())
    work = Path(args.out).resolve()
    (work / "findings").mkdir(parents=True, exist_ok=True)
    results_file = work / "results.jsonl"
    if args.table:
        return print_table(results_file)
    env = dict(os.environ)
    env.setdefault("RIGSMITH_IMPORT_TIMEOUT", "5")
    env.setdefault("RIGSMITH_IMPORT_MEMORY_MB", "2048")
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    rng = random.Random(args.seed)
    kinds = ["truncate", "bitflip", "inflate"]

    # A rig for the BVH clips (Rigsmith's own reader through retarget).
    rig_json = str(work / "default_rig.json")
    if "bvh" in args.formats and not Path(rig_json).exists():
        subprocess.run([args.rigsmith, "fit", "default", "--out", rig_json], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    tasks = []
    for fmt in args.formats.split(","):
        # Only seeds Rigsmith reads: every mutant is then a damaged good file.
        # (With the importer's default 60 s: a seed is not dropped for a busy machine.)
        seed_env = dict(env, RIGSMITH_IMPORT_TIMEOUT="60")
        seeds = [(p, sib) for p, sib in seeds_for(fmt, work, args.rigsmith)
                 if fmt == "rsproj" or run_killing_group([args.rigsmith, "info", str(p)], 120, seed_env)[0] == 0]
        print(f"{fmt}: {len(seeds)} seeds: {', '.join(p.name for p, _ in seeds)}", flush=True)
        if not seeds:
            print(f"{fmt}: no seeds", file=sys.stderr)
            continue
        dirs = []
        for s, (path, siblings) in enumerate(seeds):
            d = work / "mutants" / fmt / f"seed{s}"
            d.mkdir(parents=True, exist_ok=True)
            for sib in siblings:
                if sib.stat().st_size < 5_000_000:
                    shutil.copy(sib, d / sib.name)
            dirs.append((path, d))
        for i in range(args.per_format):
            path, d = dirs[i % len(dirs)]
            kind = kinds[i % 3]
            data = mutate(path.read_bytes(), rng, kind, fmt in TEXT_FORMATS)
            mutant = d / f"m{i:04d}_{kind}{path.suffix}"
            mutant.write_bytes(data)
            tasks.append((fmt, i, mutant, kind, args, env, rig_json if fmt == "bvh" else None))

    started = time.monotonic()
    done = 0
    seed_project = work / "seeds" / "rsproj" / "seed.rsproj"
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool, \
            open(results_file, "a") as out:
        for fmt, index, mutant, kind, results in pool.map(one, tasks):
            data = mutant.read_bytes()
            for name, rc, err, seconds in results:
                last = err[-1] if err else ""
                record = {"format": fmt, "mutant": str(mutant), "kind": kind, "command": name, "rc": rc,
                          "seconds": round(seconds, 3), "message": last[:300]}
                if fmt == "rsproj" and name == "export":
                    record["read"] = rc == 0 or "needs a clip" in last
                    record["changed"] = data != seed_project.read_bytes()
                    record["valid_json"] = valid_json(data)
                finding = classify(record)
                if finding:
                    dest = work / "findings" / f"{fmt}-{finding}-{mutant.name}"
                    shutil.copy(mutant, dest)
                    print(f"{finding}: {name} {mutant} -> {dest} ({last})", flush=True)
                out.write(json.dumps(record) + "\n")
                out.flush()
            done += 1
            if done % 100 == 0:
                print(f"{done}/{len(tasks)} mutants, {time.monotonic() - started:.0f} s", flush=True)
    print(f"campaign chunk: {len(tasks)} mutants, {time.monotonic() - started:.0f} s")
    return print_table(results_file)


CONTAINED = ("reader crashed", "aborted on this file", "took longer", "needed more than", "was killed")


def classify(r):
    """'hang', 'crash-SIG', 'silent' or None for one run."""
    if r["rc"] is None:
        return "hang"
    if r["rc"] < 0 or r["rc"] >= 128:
        return f"crash-{-r['rc'] if r['rc'] < 0 else r['rc'] - 128}"
    if r.get("read") and r.get("changed") and not r.get("valid_json"):
        return "silent"
    return None


def print_table(results_file):
    table = {}
    mutants = {}
    for line in open(results_file):
        r = json.loads(line)
        row = table.setdefault(r["format"], {"runs": 0, "refused": 0, "accepted": 0, "crashes": 0, "hangs": 0,
                                             "contained": 0, "silent": 0, "valid_json_read": 0, "max_s": 0.0})
        mutants.setdefault(r["format"], set()).add(r["mutant"])
        row["runs"] += 1
        row["max_s"] = max(row["max_s"], r["seconds"])
        finding = classify(r)
        if finding == "hang":
            row["hangs"] += 1
        elif finding and finding.startswith("crash"):
            row["crashes"] += 1
        elif r["rc"] == 0:
            row["accepted"] += 1
        else:
            row["refused"] += 1
            if any(c in r["message"] for c in CONTAINED):
                row["contained"] += 1
        if finding == "silent":
            row["silent"] += 1
        elif r.get("read") and r.get("changed"):
            row["valid_json_read"] += 1
    print("| format | mutants | runs | refused with a message | of which a reader's crash, abort, hang or memory "
          "contained | accepted | crashes of rigsmith | hangs past the timeout | silent acceptances | slowest run |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    bad = 0
    for fmt, r in table.items():
        silent = str(r["silent"]) if fmt == "rsproj" else "-"
        accepted = str(r["accepted"])
        if fmt == "rsproj":
            accepted = f"{r['valid_json_read']} read (still valid JSON)"
        print(f"| {fmt} | {len(mutants[fmt])} | {r['runs']} | {r['refused']} | {r['contained']} | {accepted} | "
              f"{r['crashes']} | {r['hangs']} | {silent} | {r['max_s']:.1f} s |")
        bad += r["crashes"] + r["hangs"] + r["silent"]
    print(f"\nfindings: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
