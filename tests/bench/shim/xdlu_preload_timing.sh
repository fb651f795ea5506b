#!/bin/bash
# Benchmark (not a test): Debian's ScaLAPACK LU driver xdlu with and without libhetscal.so
# preloaded, runs interleaved, medians printed. PDGETRF stays ScaLAPACK's; its internal PDGEMM
# updates pass through hetscal's shim, whose decision must forward them, so the two columns
# should agree within noise: this measures the shim's overhead on a real factorisation.
#
# usage: xdlu_preload_timing.sh LIBHETSCAL [RUNS=7] [RANKS=2] [N=600] [NB=64] [SPEEDS=1,3]
# Two ranks by default: no oversubscription on a two-core machine (DESIGN.md).
set -eu
library=$1 runs=${2:-7} ranks=${3:-2} n=${4:-600} nb=${5:-64} speeds=${6:-1,3}
xdlu=/usr/lib/$(gcc -print-multiarch)/scalapack/openmpi-tests/xdlu
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > LU.dat <<DAT
'ScaLAPACK LU timing (hetscal xdlu_preload_timing.sh)'
'MPI Machine'
'LU.out'		output file name (if any)
6			device out
1			number of problems sizes
$n			values of M
$n			values of N
1			number of NB's
$nb			values of NB
1			number of NRHS's
1			values of NRHS
1			Number of NBRHS's
1			values of NBRHS
1			number of process grids (ordered pairs of P & Q)
1			values of P
$ranks			values of Q
1.0			threshold
F			(T or F) Test Cond. Est. and Iter. Ref. Routines
DAT

run() {  # $1 = preload or plain; prints "lu_seconds wall_seconds"
  local extra=()
  [ "$1" = preload ] && extra=(-x LD_PRELOAD="$library" -x HETSCAL_SPEEDS="$speeds" -x HETSCAL_MIN_N=0 -x HETSCAL_VERBOSE=1)
  local start end
  start=$(date +%s.%N)
  mpirun --oversubscribe --allow-run-as-root -np "$ranks" -x OPENBLAS_NUM_THREADS=1 "${extra[@]}" "$xdlu" > out.txt 2>&1
  end=$(date +%s.%N)
  # xdlu's work array holds about 2e6 doubles per rank: larger N are skipped, not run.
  grep -q -E "^ +1 tests completed and passed" out.txt || { echo "xdlu did not pass ($1)" >&2; cat out.txt >&2; exit 1; }
  if [ "$1" = preload ]; then grep -o "hetscal: summary:.*" out.txt | head -1 >&2; fi
  echo "$(awk '$1 == "WALL" { print $9; exit }' out.txt) $(echo "$end - $start" | bc)"
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: > plain.txt; : > preload.txt
for ((i = 0; i < runs; ++i)); do  # interleaved, so that drifts of the machine hit both
  run plain >> plain.txt
  run preload >> preload.txt
done
echo "xdlu N=$n NB=$nb on 1x$ranks, $runs interleaved runs each (seconds, medians)"
printf "%-22s %10s %10s\n" "" "PDGETRF" "mpirun"
printf "%-22s %10s %10s\n" "ScaLAPACK" "$(cut -d' ' -f1 plain.txt | median)" "$(cut -d' ' -f2 plain.txt | median)"
printf "%-22s %10s %10s\n" "hetscal preloaded" "$(cut -d' ' -f1 preload.txt | median)" "$(cut -d' ' -f2 preload.txt | median)"
