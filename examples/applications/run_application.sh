#!/usr/bin/env bash
# Runs an unchanged application twice under mpirun, plain and with libhetscal.so preloaded,
# and checks that hetscal changed nothing but who computed:
#   - both runs exit with status 0 (the applications' own checks set it);
#   - their standard outputs agree: the same text, and every number within TOLERANCE of the
#     number at the same place in the other run (hetscal reports on standard error);
#   - if EXPECTED names a file (PETSc's shipped output/*.out), both outputs equal it, as
#     PETSc's own test harness requires;
#   - hetscal's exit summaries (HETSCAL_VERBOSE=1), added up over the ranks, show at least MIN
#     calls of each ROUTINE computed by hetscal.
#
# usage: run_application.sh MPIEXEC LIBRARY RANKS EXPECTED TOLERANCE ROUTINE:MIN[,ROUTINE:MIN...]
#                           [VAR=VALUE ...] -- PROGRAM [ARGUMENTS ...]
#   EXPECTED   a file the output must equal, or "-"
#   TOLERANCE  largest absolute difference between corresponding numbers (0: identical text)
#   VAR=VALUE  hetscal's settings for the preloaded run (HETSCAL_SPEEDS=..., HETSCAL_MIN_N=0 ...)
set -euo pipefail
mpiexec=$1 library=$2 ranks=$3 expected=$4 tolerance=$5 counts=$6
shift 6
settings=()
while (($#)) && [ "$1" != "--" ]; do settings+=(-x "$1"); shift; done
[ "${1:-}" = "--" ] || { echo "run_application: no -- before the program"; exit 2; }
shift
fail() { echo "run_application: $*"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
launch=("$mpiexec" --oversubscribe --allow-run-as-root -np "$ranks" -x OPENBLAS_NUM_THREADS=1)
# run NAME [mpirun options]: the program's stdout and stderr into NAME.out and NAME.err.
run() {
  local name=$1
  shift
  local status=0
  "${launch[@]}" "$@" "${program[@]}" >"$name.out" 2>"$name.err" || status=$?
  echo "--- $name run: exit status $status; standard output:"
  cat "$name.out"
  if ((status != 0)); then
    cat "$name.err"
    fail "the $name run exited with status $status"
  fi
}
program=("$@")
run plain
run preloaded -x LD_PRELOAD="$library" -x HETSCAL_VERBOSE=1 "${settings[@]}"
grep "^hetscal:" preloaded.err | grep -v " plan: \| measured " || true

# Same words in the same places; numbers within the tolerance (awk reads 1.5e-03 as a number).
awk -v tolerance="$tolerance" '
  function numeric(word) { return word ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
  FNR == NR { plain[FNR] = $0; plain_lines = FNR; next }
  {
    preloaded_lines = FNR
    if (plain[FNR] == $0) next
    n = split(plain[FNR], a, /[ \t:=,()]+/)
    m = split($0, b, /[ \t:=,()]+/)
    if (n != m) { print "line " FNR " differs: \"" plain[FNR] "\" / \"" $0 "\""; bad = 1; next }
    for (i = 1; i <= n; ++i) {
      if (a[i] == b[i]) continue
      difference = a[i] - b[i]
      if (!numeric(a[i]) || !numeric(b[i]) || difference > tolerance || -difference > tolerance) {
        print "line " FNR " differs: \"" plain[FNR] "\" / \"" $0 "\""; bad = 1; next
      }
    }
  }
  END {
    if (plain_lines != preloaded_lines) { print "line counts differ"; bad = 1 }
    exit bad
  }' plain.out preloaded.out || fail "the plain and preloaded outputs differ"
if [ "$expected" != "-" ]; then
  diff "$expected" plain.out || fail "the plain output is not $expected"
  diff "$expected" preloaded.out || fail "the preloaded output is not $expected"
fi

IFS=, read -r -a wanted <<<"$counts"
for entry in "${wanted[@]}"; do
  routine=${entry%%:*} minimum=${entry##*:}
  computed=$({ grep -oE "hetscal: summary: $routine [0-9]+ computed" preloaded.err || true; } |
             awk '{ s += $4 } END { print s + 0 }')
  echo "run_application: hetscal computed $computed $routine calls (all ranks)"
  [ "$computed" -ge "$minimum" ] || fail "fewer than $minimum $routine calls computed by hetscal"
done
echo "run_application: passed"
