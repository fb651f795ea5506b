#!/usr/bin/env bash
# The adaptive scenario on 2 real ranks (issue 12; README, "Speeds learnt at run time"): a
# loop of CALLS calls of ROUTINE (adaptive_loop) where rank 1 becomes 3x slower after a
# quarter of the loop (libhetscal-slowdown.so, HETSCAL_SLOWDOWN=1:3@t=T..), no speeds given.
# Scenarios, interleaved REPS times (medians are taken by summarize.py):
#   scalapack    ScaLAPACK alone (the emulator preloaded, not hetscal)
#   adaptive     hetscal preloaded, default settings: it learns the speeds
#   oracle       hetscal told the true speeds of each phase, HETSCAL_ADAPT=0, run phase by
#                phase as two processes: calls 1..CALLS/4 on equal speeds unslowed, then the
#                rest with HETSCAL_SPEEDS=1,0.3333 and rank 1 slowed 3x throughout
#   homogeneous_scalapack, homogeneous_hetscal
#                no slowdown, no speeds: ScaLAPACK alone and hetscal preloaded
# The change happens at T = CALLS/4 times ScaLAPACK's median homogeneous call, measured first,
# seconds after rank 1's first BLAS call: the quarter of the loop on every route, since before
# the change every route runs at ScaLAPACK's pace.
#
# usage: run_real.sh ROUTINE N CALLS [OUT_DIR]    (ROUTINE pdgemm|pdgetrf|pdpotrf|pdgeqrf)
# Environment: HETSCAL_BUILD_DIR (default build), REPS (default 3), NB (default 64),
# HETSCAL_SLOWDOWN_RATE (one core's DGEMM rate, default 1e10), HETSCAL_PYTHON (default python3).
# Writes OUT_DIR/adaptive_ROUTINE.csv (routine, n, scenario, change_call, call, seconds:
# medians over the repetitions) and
# prints the figures (summarize.py). Not a test: the lead engineer runs it on a quiet machine.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
routine=${1:?usage: run_real.sh ROUTINE N CALLS [OUT_DIR]} n=${2:?N} calls=${3:?CALLS}
build=${HETSCAL_BUILD_DIR:-$repo/build}
out=${4:-$build/adaptive}
reps=${REPS:-3} nb=${NB:-64} rate=${HETSCAL_SLOWDOWN_RATE:-1e10}
python=${HETSCAL_PYTHON:-python3}
program=$build/tests/bench/adaptive/adaptive_loop
hetscal=$build/src/libhetscal.so
emulator=$build/src/tools/libhetscal-slowdown.so
quarter=$((calls / 4))
export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out/raw"

# loop SCENARIO REP PRELOAD SLOWDOWN CALLS FIRST [VAR=VALUE...]: one run, its lines kept.
loop() {
  local scenario=$1 rep=$2 preload=$3 slowdown=$4 count=$5 first=$6
  shift 6
  local settings=(-x LD_PRELOAD="$preload" -x HETSCAL_SLOWDOWN="$slowdown" -x HETSCAL_SLOWDOWN_RATE="$rate")
  for setting in "$@"; do settings+=(-x "$setting"); done
  mpirun -np 2 -x OPENBLAS_NUM_THREADS "${settings[@]}" "$program" "$routine" "$n" "$count" "$nb" "$first" |
    sed "s/^/$scenario rep $rep: /" | tee -a "$out/raw/adaptive_${routine}_$n.txt"
}

rm -f "$out/raw/adaptive_${routine}_$n.txt"
# ScaLAPACK's homogeneous pace places the change (an unslowed emulator entry: rank 1 factor 1).
loop calibration 0 "$emulator" 1:1 3 1
median=$(grep "^calibration" "$out/raw/adaptive_${routine}_$n.txt" | awk '{ print $NF }' | sort -g | sed -n 2p)
change=$(awk -v m="$median" -v q="$quarter" 'BEGIN { printf "%.3f", m * q }')
echo "run_real: rank 1 turns 3x slower ${change} s after its first BLAS call (call ~$((quarter + 1)))"
for ((rep = 1; rep <= reps; ++rep)); do
  loop scalapack "$rep" "$emulator" "1:3@t=$change.." "$calls" 1
  loop adaptive "$rep" "$hetscal $emulator" "1:3@t=$change.." "$calls" 1
  loop oracle "$rep" "$hetscal $emulator" 1:1 "$quarter" 1 HETSCAL_SPEEDS=1,1 HETSCAL_ADAPT=0
  loop oracle "$rep" "$hetscal $emulator" 1:3 $((calls - quarter)) $((quarter + 1)) \
    HETSCAL_SPEEDS=1,0.333333333333 HETSCAL_ADAPT=0
  loop homogeneous_scalapack "$rep" "$emulator" 1:1 "$calls" 1
  loop homogeneous_hetscal "$rep" "$hetscal $emulator" 1:1 "$calls" 1
done
"$python" "$here/summarize.py" "$out/raw/adaptive_${routine}_$n.txt" "$out/adaptive_$routine.csv" \
  --change-call $((quarter + 1))
