#!/bin/bash
# Runs a random case program (pdgemm_random, pdpotrf_random) under mpirun with libhetscal.so
# preloaded and HETSCAL_VERBOSE=2, and checks that the cases passed AND that hetscal itself
# computed the calls it may compute: without this, the random test would also pass with
# every call forwarded to ScaLAPACK. HETSCAL_VERBOSE=2 prints one line per call on the
# context's root process, "hetscal: R SHAPE computed by hetscal: ..." or "... forwarded: ...",
# and each process's exit summary "hetscal: summary: R <c> computed, <f> forwarded".
#
# usage: check_computed.sh [--routine R] [--in-place] [--fault STAGE] MPIEXEC LIBRARY PROGRAM RANKS MIN_PERCENT
#                          [VAR=VALUE ...] -- [ARGS ...]
#   --routine R    the routine counted (default PDGEMM)
#   --in-place     every computed call must say it was computed in the caller's arrays
#                  ("...; in place": HETSCAL_TAKE_OVER=in-place)
#   --fault STAGE  HETSCAL_TEST_FAULT makes a rank that every grid holds fail STAGE: no call
#                  may be computed, calls must be forwarded because "STAGE failed on rank N:
#                  injected fault" (at least one such call), and the cases must still pass
#                  (ScaLAPACK's answers on an operand hetscal left as it was)
#   MIN_PERCENT    share of the calls hetscal may compute (as the program counts them: grids of
#                  >= 2 processes) that it must have computed
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/checks.sh"
routine=PDGEMM fault="" in_place=""
while [ $# -gt 0 ]; do
  case "$1" in
    --routine) routine=$2; shift 2 ;;
    --fault) fault=$2; shift 2 ;;
    --in-place) in_place=1; shift ;;
    *) break ;;
  esac
done
mpiexec=$1 library=$2 program=$3 ranks=$4 min_percent=$5
shift 5
env_args=(-x OPENBLAS_NUM_THREADS=1 -x LD_PRELOAD="$library" -x HETSCAL_VERBOSE=2)
while [ $# -gt 0 ] && [ "$1" != "--" ]; do env_args+=(-x "$1"); shift; done
# HETSCAL_TAKE_OVER from the environment reaches every rank (the lead runs the same tests with
# each take-over route forced).
if [ -n "${HETSCAL_TAKE_OVER:-}" ]; then env_args+=(-x HETSCAL_TAKE_OVER="$HETSCAL_TAKE_OVER"); fi
[ $# -gt 0 ] && shift

# The program's verdicts go to stdout, hetscal's lines and ScaLAPACK's PXERBLA messages to
# stderr. mpirun forwards each rank's streams in pieces of up to 4 KiB, so merged as they come
# a line of one rank can be cut by another's (stop 25's CI lost a verdict so, and on a busy
# machine a "computed by hetscal: ...; in place" line lost its end): the verdicts are kept
# apart, and each rank's stderr is read whole from a file of its own (--output-filename).
# mpirun's own stderr (the ranks' lines again, cut, and its own messages) is shown on failure.
verdicts=$(mktemp) messages=$(mktemp) output=$(mktemp) launcher=$(mktemp) per_rank=$(mktemp -d)
trap 'rm -rf "$verdicts" "$messages" "$output" "$launcher" "$per_rank"' EXIT
status=0
"$mpiexec" --oversubscribe --allow-run-as-root -np "$ranks" --output-filename "$per_rank" \
  "${env_args[@]}" "$program" "$@" > "$verdicts" 2> "$launcher" || status=$?
find "$per_rank" -name stderr -type f | sort | xargs -r cat > "$messages"
[ "$status" -eq 0 ] || grep -av "^hetscal: $routine" "$launcher" || true
grep -av "^hetscal: $routine" "$messages" || [ $? -eq 1 ]  # none left to show is no failure
cat "$verdicts"
cat "$verdicts" "$messages" > "$output"

[ "$status" -eq 0 ] || fail "$(basename "$program") exited with status $status"
if ! contains "^hetscal-random: [1-9][0-9]* passed, 0 failed" "$verdicts"; then
  echo "check_computed: the program's stdout has $(wc -l < "$verdicts") lines; space left:"
  df -h "$(dirname "$verdicts")"
  fail "no '0 failed' verdict"
fi
# Lines may share a line with other output (the ranks' stderr writes interleave): grep -o.
shape="$routine [0-9]+(x[0-9]+)*"
computed=$(count_matches "$shape computed by hetscal:" "$output")
forwarded=$(count_matches "$shape forwarded:" "$output")
may=$(sum_of_field "hetscal-random: [0-9]+ calls hetscal may compute" 2 "$output" 1)
summed=$(sum_of_field "hetscal: summary: $routine [0-9]+ computed" 4 "$output" +)
echo "check_computed: hetscal computed $computed $routine calls and forwarded $forwarded; $may could be computed"
echo "check_computed: the exit summaries count $summed $routine calls computed (all ranks)"
echo "check_computed: reasons for forwarding:"
matches "$shape forwarded: .*" "$output" | sed -E 's/.*forwarded: //; s/[0-9]+/#/g' | sort | uniq -c | sort -rn
if contains "internal error" "$output"; then fail "hetscal hit an internal error and fell back"; fi
[ "$may" -gt 0 ] || fail "the program computed no count of eligible calls"
[ $((computed + forwarded)) -gt 0 ] || fail "no line says how a $routine call was decided"
# A PxPOTRF that hetscal factorised and found not positive definite goes to ScaLAPACK on
# purpose, with sub(A) untouched, so that the partial factor is exactly ScaLAPACK's: taken
# over and decided by hetscal, it counts with the computed calls here.
refactored=$(count_matches "$shape forwarded: the leading minor of order [0-9]+ is not positive definite: ScaLAPACK leaves its own partial factor" "$output")
[ $(((computed + refactored) * 100)) -ge $((may * min_percent)) ] ||
  fail "hetscal computed fewer than $min_percent% of the $may calls it may compute ($computed computed, $refactored not positive definite and left to ScaLAPACK)"
[ "$min_percent" -eq 0 ] || [ "$summed" -gt 0 ] || fail "no exit summary shows $routine computed"
if [ -n "$in_place" ]; then
  placed=$(count_matches "$shape computed by hetscal: .*; in place" "$output")
  echo "check_computed: $placed of the $computed computed calls in place"
  [ "$placed" -eq "$computed" ] || fail "a call was computed by another route than in place"
fi
if [ -n "$fault" ]; then
  because="$shape forwarded: (no heterogeneous plan: )?$fault failed on rank [0-9]+: injected fault"
  contains "$because" "$output" || fail "no call forwarded because of the injected $fault fault"
  [ "$computed" -eq 0 ] && [ "$summed" -eq 0 ] || fail "a call was computed despite the $fault fault"
fi
echo "check_computed: passed"
