#!/bin/bash
# Runs pdgemm_random under mpirun with libhetscal.so preloaded and HETSCAL_VERBOSE=2, and
# checks that the cases passed AND that hetscal itself computed the calls it may compute:
# without this, the random test would also pass with every call forwarded to ScaLAPACK.
# HETSCAL_VERBOSE=2 prints one line per call on the context's root process:
#   "hetscal: PDGEMM MxNxK computed by hetscal: ..." or "hetscal: PDGEMM MxNxK forwarded: ...".
#
# usage: check_computed.sh MPIEXEC LIBRARY PROGRAM RANKS MIN_PERCENT [VAR=VALUE ...] -- [ARGS ...]
#   MIN_PERCENT  share of the calls hetscal may compute (as the program counts them: M, N,
#                K >= 1, alpha != 0, grids of >= 2 processes) that it must have computed
set -u
mpiexec=$1 library=$2 program=$3 ranks=$4 min_percent=$5
shift 5
env_args=(-x OPENBLAS_NUM_THREADS=1 -x LD_PRELOAD="$library" -x HETSCAL_VERBOSE=2)
while [ $# -gt 0 ] && [ "$1" != "--" ]; do env_args+=(-x "$1"); shift; done
[ $# -gt 0 ] && shift

output=$(mktemp)
trap 'rm -f "$output"' EXIT
"$mpiexec" --oversubscribe --allow-run-as-root -np "$ranks" "${env_args[@]}" "$program" "$@" > "$output" 2>&1
status=$?
grep -v "^hetscal: PDGEMM" "$output"

fail() { echo "check_computed: $*"; exit 1; }
[ $status -eq 0 ] || fail "pdgemm_random exited with status $status"
grep -q "^hetscal-random: [0-9]* passed, 0 failed" "$output" || fail "no '0 failed' verdict"
# Lines may share a line with other output (stdout and stderr interleave): grep -o.
computed=$(grep -o -E "PDGEMM [0-9]+x[0-9]+x[0-9]+ computed by hetscal:" "$output" | wc -l)
forwarded=$(grep -o -E "PDGEMM [0-9]+x[0-9]+x[0-9]+ forwarded:" "$output" | wc -l)
may=$(grep -o -E "hetscal-random: [0-9]+ calls hetscal may compute" "$output" | awk '{ print $2 }')
echo "check_computed: hetscal computed $computed calls and forwarded $forwarded; $may could be computed"
echo "check_computed: reasons for forwarding:"
grep -o -E "PDGEMM [0-9]+x[0-9]+x[0-9]+ forwarded: .*" "$output" | sed -E 's/.*forwarded: //; s/[0-9]+/#/g' |
  sort | uniq -c | sort -rn
grep -q "internal error" "$output" && fail "hetscal hit an internal error and fell back"
[ -n "$may" ] && [ "$may" -gt 0 ] || fail "the program computed no count of eligible calls"
[ $((computed * 100)) -ge $((may * min_percent)) ] ||
  fail "hetscal computed fewer than $min_percent% of the $may calls it may compute"
echo "check_computed: passed"
