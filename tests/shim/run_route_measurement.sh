#!/bin/bash
# Decisions from observation, end to end (core/route_ledger.hpp): an unchanged ScaLAPACK
# program (pdgemm_loop: 8 PDGEMM 320 calls, each result checked) on 2 ranks with libhetscal.so
# and the emulator preloaded, no speeds given. Rank 1 is emulated 5x slower than rank 0 from
# the start (factors 2 and 6 at HETSCAL_SLOWDOWN_RATE=1e8: sleeping dominates), so the model
# predicts hetscal's balanced plan faster and hetscal takes the first calls over.
#
# usage: run_route_measurement.sh MPIEXEC LIBHETSCAL EMULATOR PROGRAM MODE
#   slow  HETSCAL_TEST_SLOW_COMPUTE=1.5 makes every taken-over call 1.5 s slower than the
#         model says: after its 2 measured calls hetscal forwards the class (2 calls measure
#         ScaLAPACK, then one VERBOSE=1 line says the measurements chose ScaLAPACK, naming
#         hetscal's measured ratio), and every later call goes to ScaLAPACK; one VERBOSE=1
#         line says hetscal gave its planned copies back when the first went
#   fast  no slow kernel: hetscal keeps the class (it is not measured slower), and no line
#         says otherwise
#   change  10 calls of 200; rank 0 turns 11x slower (factor 12) from its 40th BLAS call, inside
#         a call hetscal computes with rank 0 as the fast rank: that call and the next measure
#         many times their prediction because the speeds moved, not because hetscal mispredicts.
#         Neither may be held against hetscal's route: hetscal re-plans for the new speeds and
#         computes every call, VERBOSE=2 says the moved calls were not recorded, and no line
#         hands the class to ScaLAPACK (before this rule, 5 of the 10 calls were forwarded)
# In both modes the program's own check (every element of every call) must pass.
set -u
mpiexec=$1 library=$2 emulator=$3 program=$4 mode=$5
settings=(-x HETSCAL_VERBOSE=1 -x HETSCAL_MIN_N=0)
slowdown=0:2,1:6 size=320 calls=8
case $mode in
  slow) settings+=(-x HETSCAL_TEST_SLOW_COMPUTE=1.5) ;;
  fast) ;;
  change)
    settings=(-x HETSCAL_VERBOSE=2 -x HETSCAL_MIN_N=0)
    slowdown="0:2@calls=0..40,0:12@calls=40..,1:6" size=200 calls=10 ;;
  *) echo "run_route_measurement: unknown mode $mode"; exit 2 ;;
esac
# Stdout and stderr are captured apart and then joined: mpirun forwards each stream in pieces
# of up to 4 KiB, so merged as they come a line of one can be cut by the other.
output=$(mktemp) errors=$(mktemp)
trap 'rm -f "$output" "$errors"' EXIT
"$mpiexec" --oversubscribe --allow-run-as-root -np 2 -x OPENBLAS_NUM_THREADS=1 \
  -x LD_PRELOAD="$library $emulator" -x HETSCAL_SLOWDOWN_RATE=1e8 -x HETSCAL_SLOWDOWN="$slowdown" \
  "${settings[@]}" "$program" $size $calls > "$output" 2> "$errors"
status=$?
cat "$errors" >> "$output"
cat "$output"

fail() { echo "run_route_measurement: $*"; exit 1; }
[ $status -eq 0 ] || fail "the program exited with status $status"
grep -q "^hetscal-check: ALL CHECKS PASSED" "$output" || fail "a result is wrong"
# Rank 0's summary (both ranks print the same counts).
computed=$(grep -o "hetscal: summary: PDGEMM [0-9]* computed" "$output" | head -1 | awk '{ print $4 }')
switched=$(grep -c "^hetscal: PDGEMM 2^[0-9]*x2^[0-9]*x2^[0-9]* forwarded to ScaLAPACK from measurements: hetscal measured x" "$output")
case $mode in
  slow)
    [ "$switched" -eq 1 ] || fail "not one line saying the class went to ScaLAPACK ($switched)"
    [ "${computed:-0}" -eq 2 ] || fail "$computed calls computed: expected the 2 measured ones only"
    grep -q "^hetscal: planned copies given back ([0-9.]* MiB on rank 0): PDGEMM 320x320x320 forwarded after pricing" "$output" ||
      fail "the class went to ScaLAPACK but hetscal kept its planned copies"
    ;;
  fast)
    [ "$switched" -eq 0 ] || fail "the class went to ScaLAPACK without a slow kernel"
    [ "${computed:-0}" -ge 6 ] || fail "only $computed of 8 calls computed"
    ;;
  change)
    [ "$switched" -eq 0 ] || fail "the change of speed was held against hetscal: the class went to ScaLAPACK"
    [ "$(grep -c "^hetscal: speeds changed: observed" "$output")" -ge 1 ] || fail "the change of speed was not followed"
    [ "$(grep -c "^hetscal: speeds moved during the last PDGEMM: its time is held against neither route" "$output")" -ge 1 ] ||
      fail "no call reported as not recorded"
    [ "${computed:-0}" -eq 10 ] || fail "$computed of 10 calls computed"
    ;;
esac
echo "run_route_measurement: $mode passed ($computed of $calls calls computed)"
