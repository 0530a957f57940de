#!/usr/bin/env bash
# Runs `rigsmith info` and `rigsmith render` on every model of Debian's
# assimp-testmodels in the formats we promise, and on every file under
# invalid/, and tallies: loaded, refused cleanly (exit 1 with one line on
# stderr), or crashed (anything else). Needs a display: run under xvfb-run.
#   xvfb-run -a scripts/check_models.sh [build/app/rigsmith]
set -u
BIN="${1:-build/app/rigsmith}"
ROOT=/usr/share/assimp/models
OUT=$(mktemp -d)
ok=0; refused=0; crashed=0; invalid_ok=0; invalid_bad=0
check() { # file -> prints status
  local f="$1" rc lines
  "$BIN" info "$f" >/dev/null 2>"$OUT/err"; rc=$?
  lines=$(wc -l < "$OUT/err")
  if [ $rc -eq 0 ]; then
    "$BIN" render "$f" --out "$OUT/shot.png" --size 320x240 >/dev/null 2>"$OUT/err"; rc=$?
    [ $rc -eq 0 ] && { echo ok; return; }
    lines=$(grep -vc "XDG_RUNTIME_DIR" "$OUT/err")
  fi
  if [ $rc -eq 1 ] && [ "$lines" -le 2 ]; then echo refused; else echo "crashed($rc)"; fi
}
for d in OBJ FBX X Collada glTF2 PLY STL MD5 SMD IQM; do
  while IFS= read -r -d '' f; do
    case "${f,,}" in *.png|*.jpg|*.jpeg|*.tga|*.bmp|*.dds|*.txt|*.mtl|*.bin|*.md|*.xml|*.ktx2|*.zip|*.json) continue;; esac
    s=$(check "$f")
    case $s in ok) ok=$((ok+1));; refused) refused=$((refused+1)); echo "refused: $f: $(head -c 200 "$OUT/err")";; *) crashed=$((crashed+1)); echo "CRASH $s: $f";; esac
  done < <(find "$ROOT/$d" -type f -print0 | sort -z)
done
for f in "$ROOT"/invalid/*; do
  [ "${f##*.}" = txt ] && continue
  s=$(check "$f")
  if [ "$s" = refused ]; then invalid_ok=$((invalid_ok+1)); else invalid_bad=$((invalid_bad+1)); echo "INVALID NOT REFUSED ($s): $f"; fi
done
echo "models: $ok loaded and rendered, $refused refused cleanly, $crashed crashed"
echo "invalid/: $invalid_ok refused cleanly, $invalid_bad not"
rm -rf "$OUT"
[ $crashed -eq 0 ] && [ $invalid_bad -eq 0 ]
