#!/bin/bash
# Speeds learnt at run time, end to end: an unchanged ScaLAPACK program (pdgemm_loop: 10
# PDGEMM calls, each result checked) on RANKS ranks with libhetscal.so and the emulator
# preloaded, no speeds given. The order, 320 on 2 ranks and 400 on more, lets every call
# observe, also one the model forwards (its verdict rests on wall-clock machine figures): a
# rank's short probe may cost 1 % of its share, which holds the smallest probe (6·32³ flops)
# from N³ ≥ 100·6·32³·RANKS/2 on (on 4 ranks at N = 320 it does not, and a busy machine, whose
# slow messages price hetscal's moves dearly, forwarded every call unobserved). Every rank is slowed 2x (HETSCAL_SLOWDOWN_RATE = 1e8 flop/s, far
# below a core's DGEMM rate), and the last rank turns 6x slower from its 40th BLAS call on, so
# the emulated speeds go from equal to 5 : 1 ((6 − 1)/(2 − 1)). HETSCAL_TEST_EMULATED_CLOCK=1
# has hetscal time compute by the emulator's charged seconds, so it observes exactly these
# speeds however loaded the machine is (README, "Decisions from observation").
#
# usage: run_adaptation.sh MPIEXEC LIBHETSCAL EMULATOR PROGRAM RANKS MODE
#   adapt  (default settings) the last estimates, as HETSCAL_VERBOSE=2 prints them, are within
#          15 % of the emulated speeds (fastest over slowed in [4.25, 5.75], the others within
#          15 % of rank 0), the speeds changed once with a reason, and calls were computed
#   given  the same, starting from given equal speeds (HETSCAL_SPEEDS=1,...,1)
#   off    HETSCAL_ADAPT=0: no estimates, every call forwarded (and said so)
#   bad    HETSCAL_ADAPT=sometimes: one message naming it, every call forwarded
# In every mode the program's own check (every element of every call) must pass, and every
# process's summary must count the 10 calls.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/checks.sh"
mpiexec=$1 library=$2 emulator=$3 program=$4 ranks=$5 mode=$6
last=$((ranks - 1))
size=320
if [ "$ranks" -gt 2 ]; then size=400; fi
slowdown=""
for ((r = 0; r < last; ++r)); do slowdown+="$r:2,"; done
slowdown+="$last:2@calls=0..40,$last:6@calls=40.."

settings=(-x HETSCAL_VERBOSE=2 -x HETSCAL_MIN_N=0 -x HETSCAL_TEST_EMULATED_CLOCK=1)
case $mode in
  adapt) ;;
  given) settings+=(-x HETSCAL_SPEEDS="$(printf '1,%.0s' $(seq 2 "$ranks"))1") ;;
  off) settings+=(-x HETSCAL_ADAPT=0) ;;
  bad) settings+=(-x HETSCAL_ADAPT=sometimes) ;;
  *) fail "unknown mode $mode" ;;
esac
output=$(mktemp)
trap 'rm -f "$output"' EXIT
run_joined "$output" "$mpiexec" --oversubscribe --allow-run-as-root -np "$ranks" -x OPENBLAS_NUM_THREADS=1 \
  -x LD_PRELOAD="$library $emulator" -x HETSCAL_SLOWDOWN_RATE=1e8 -x HETSCAL_SLOWDOWN="$slowdown" \
  "${settings[@]}" "$program" "$size" 10
cat "$output"

[ "$status" -eq 0 ] || fail "the program exited with status $status"
contains "^hetscal-check: ALL CHECKS PASSED" "$output" || fail "a result is wrong"
summary="hetscal: summary: PDGEMM [0-9]+ computed, [0-9]+ forwarded"
computed=$(sum_of_field "$summary" 4 "$output" "$ranks")
forwarded=$(sum_of_field "$summary" 6 "$output" "$ranks")
[ $((computed + forwarded)) -eq $((10 * ranks)) ] ||
  fail "the summaries count $computed computed and $forwarded forwarded calls, not 10 per process"
estimates=$(count_matches "hetscal: speeds: estimates" "$output")

case $mode in
  adapt | given)
    [ "$computed" -gt 0 ] || fail "no call was computed by hetscal"
    [ "$(count_matches "hetscal: speeds changed: observed" "$output")" -ge 1 ] || fail "no change of speeds reported"
    [ "$estimates" -ge 1 ] || fail "no estimates printed"
    last_estimates=$(matches "hetscal: speeds: estimates [0-9.e+, -]+ flop/s" "$output" | tail -n 1 |
      sed -e 's/.*estimates //' -e 's/ flop\/s.*//' -e 's/,/ /g')
    awk -v last="$last" -v ranks="$ranks" '{
        if (NF != ranks) { print "run_adaptation: not one estimate per rank: " $0; exit 1 }
        ratio = $1 / $(last + 1)
        printf "run_adaptation: rank 0 over rank %d estimated %.3f (emulated 5)\n", last, ratio
        if (ratio < 4.25 || ratio > 5.75) bad = 1
        for (r = 2; r <= last; ++r) if ($r / $1 < 0.85 || $r / $1 > 1.15) bad = 1
        exit bad
      }' <<< "$last_estimates" || fail "the estimates are not within 15 % of the emulated speeds"
    ;;
  off)
    [ "$estimates" -eq 0 ] || fail "speeds were estimated with HETSCAL_ADAPT=0"
    [ "$computed" -eq 0 ] || fail "$computed calls computed without speeds and with HETSCAL_ADAPT=0"
    # The calls were decided (VERBOSE=2 says why each went to ScaLAPACK), so the absence of
    # estimates is adaptation switched off, not a silent run.
    [ "$(count_matches "hetscal: PDGEMM ${size}x${size}x${size} forwarded: " "$output")" -eq 10 ] ||
      fail "not 10 lines saying why a call was forwarded"
    ;;
  bad)
    # The problem once; the per-call lines of HETSCAL_VERBOSE=2 repeat it as their reason.
    [ "$(count_matches "^hetscal: malformed configuration, every call is forwarded: HETSCAL_ADAPT='sometimes' is not a switch" "$output")" -eq 1 ] ||
      fail "not one message naming HETSCAL_ADAPT"
    [ "$computed" -eq 0 ] || fail "$computed calls computed under a malformed setting"
    ;;
esac
echo "run_adaptation: $mode on $ranks ranks passed ($computed computed, $forwarded forwarded)"
