#!/bin/bash
# Decisions from observation, end to end (core/adaptation/route_ledger.hpp): an unchanged ScaLAPACK
# program (pdgemm_loop: 8 PDGEMM 320 calls, each result checked) on 2 ranks with libhetscal.so
# and the emulator preloaded, no speeds given. Rank 1 is emulated 5x slower than rank 0 from
# the start (factors 2 and 6 at HETSCAL_SLOWDOWN_RATE=1e8: sleeping dominates), so the model
# predicts hetscal's balanced plan faster and hetscal takes the first calls over.
#
# usage: run_route_measurement.sh MPIEXEC LIBHETSCAL EMULATOR PROGRAM MODE
#   slow  HETSCAL_TEST_SLOW_COMPUTE=1.5 makes every taken-over call 1.5 s slower than the
#         model says, more than twice its prediction: that one measured call is believed and
#         hetscal forwards the class (2 calls measure ScaLAPACK, then one VERBOSE=1 line says
#         the measurements chose ScaLAPACK, naming hetscal's measured ratio from 1 call), and
#         every later call goes to ScaLAPACK; one VERBOSE=1
#         line says hetscal gave its planned copies back when the first went
#   fast  no slow kernel: hetscal keeps the class (it is not measured slower): VERBOSE=2 shows
#         calls decided with hetscal's measurements (the positive sign that the ledger ran),
#         and no line hands the class to ScaLAPACK
#   change  10 calls of 200; rank 0 turns 11x slower (factor 12) from its 40th BLAS call, inside
#         a call hetscal computes with rank 0 as the fast rank: that call and the next measure
#         many times their prediction because the speeds moved, not because hetscal mispredicts.
#         Neither may be held against hetscal's route: hetscal re-plans for the new speeds and
#         computes every call, VERBOSE=2 says the moved calls were not recorded, and no line
#         hands the class to ScaLAPACK (before this rule, 5 of the 10 calls were forwarded)
# In every mode the program's own check (every element of every call) must pass.
# HETSCAL_TEST_EMULATED_CLOCK=1: the speeds hetscal observes are the emulated ones, whatever
# else loads the machine (README, "Decisions from observation").
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/checks.sh"
mpiexec=$1 library=$2 emulator=$3 program=$4 mode=$5
settings=(-x HETSCAL_VERBOSE=1 -x HETSCAL_MIN_N=0 -x HETSCAL_TEST_EMULATED_CLOCK=1)
slowdown=0:2,1:6 size=320 calls=8
case $mode in
  slow) settings+=(-x HETSCAL_TEST_SLOW_COMPUTE=1.5) ;;
  fast) settings[1]=HETSCAL_VERBOSE=2 ;;
  change)
    settings[1]=HETSCAL_VERBOSE=2
    slowdown="0:2@calls=0..40,0:12@calls=40..,1:6" size=200 calls=10 ;;
  *) fail "unknown mode $mode" ;;
esac
output=$(mktemp)
trap 'rm -f "$output"' EXIT
run_joined "$output" "$mpiexec" --oversubscribe --allow-run-as-root -np 2 -x OPENBLAS_NUM_THREADS=1 \
  -x LD_PRELOAD="$library $emulator" -x HETSCAL_SLOWDOWN_RATE=1e8 -x HETSCAL_SLOWDOWN="$slowdown" \
  "${settings[@]}" "$program" $size $calls
cat "$output"

[ "$status" -eq 0 ] || fail "the program exited with status $status"
contains "^hetscal-check: ALL CHECKS PASSED" "$output" || fail "a result is wrong"
# Both processes' summaries, which count the same calls.
summary="hetscal: summary: PDGEMM [0-9]+ computed, [0-9]+ forwarded"
computed=$(sum_of_field "$summary" 4 "$output" 2)
forwarded=$(sum_of_field "$summary" 6 "$output" 2)
[ $((computed + forwarded)) -eq $((2 * calls)) ] ||
  fail "the summaries count $computed computed and $forwarded forwarded calls, not $calls per process"
computed=$((computed / 2))
switched=$(count_matches "^hetscal: PDGEMM 2\^[0-9]+x2\^[0-9]+x2\^[0-9]+ forwarded to ScaLAPACK from measurements: hetscal measured x" "$output")
case $mode in
  slow)
    [ "$switched" -eq 1 ] || fail "not one line saying the class went to ScaLAPACK ($switched)"
    [ "$computed" -eq 1 ] || fail "$computed calls computed: expected the one measured call only"
    contains "hetscal measured x[0-9.]+ its prediction \(1 call\)" "$output" ||
      fail "the class did not go to ScaLAPACK on hetscal's one call measured far above its prediction"
    contains "^hetscal: planned copies given back \([0-9.]+ MiB on rank 0\): PDGEMM 320x320x320 forwarded after pricing" "$output" ||
      fail "the class went to ScaLAPACK but hetscal kept its planned copies"
    ;;
  fast)
    # The decisions that followed the measurements say so (VERBOSE=2): the class was measured.
    [ "$(count_matches "PDGEMM 320x320x320 computed by hetscal: .*hetscal measured x[0-9.]+ its prediction" "$output")" -ge 1 ] ||
      fail "no call was decided with hetscal's measurements"
    [ "$switched" -eq 0 ] || fail "the class went to ScaLAPACK without a slow kernel"
    [ "$computed" -ge 6 ] || fail "only $computed of 8 calls computed"
    ;;
  change)
    [ "$(count_matches "^hetscal: speeds changed: observed" "$output")" -ge 1 ] || fail "the change of speed was not followed"
    [ "$(count_matches "^hetscal: speeds moved during the last PDGEMM: its time is held against neither route" "$output")" -ge 1 ] ||
      fail "no call reported as not recorded"
    [ "$switched" -eq 0 ] || fail "the change of speed was held against hetscal: the class went to ScaLAPACK"
    [ "$computed" -eq 10 ] || fail "$computed of 10 calls computed"
    ;;
esac
echo "run_route_measurement: $mode passed ($computed of $calls calls computed)"
