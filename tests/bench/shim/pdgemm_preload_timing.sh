#!/bin/bash
# Benchmark (not a test): PDGEMM on 2 ranks (1x2 grid, no oversubscription) with rank 1 made
# FACTOR times slower by libhetscal-slowdown.so, ScaLAPACK alone vs hetscal preloaded with the
# matching speeds; interleaved runs, medians.
# usage: pdgemm_preload_timing.sh BUILD_DIR [RUNS=5] [N=1500] [FACTOR=3] [RATE=1e10]
set -eu
build=$1 runs=${2:-5} n=${3:-1500} factor=${4:-3} rate=${5:-1e10}
program=$build/tests/bench/shim/pdgemm_timing
slowdown=$build/src/tools/libhetscal-slowdown.so
hetscal=$build/src/libhetscal.so
common=(--allow-run-as-root -np 2 -x OPENBLAS_NUM_THREADS=1 -x HETSCAL_SLOWDOWN=1:$factor
        -x HETSCAL_SLOWDOWN_RATE=$rate)
run() {
  if [ "$1" = hetscal ]; then
    mpirun "${common[@]}" -x LD_PRELOAD="$hetscal:$slowdown" -x HETSCAL_SPEEDS="$factor,1" \
           -x HETSCAL_VERBOSE=1 "$program" "$n" 64 3 2>&1
  else
    mpirun "${common[@]}" -x LD_PRELOAD="$slowdown" "$program" "$n" 64 3 2>&1
  fi
}
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
: > /tmp/pdgemm_plain.$$; : > /tmp/pdgemm_hetscal.$$
for ((i = 0; i < runs; ++i)); do
  run plain | awk '/pdgemm_timing:/{ print $(NF-1) }' >> /tmp/pdgemm_plain.$$
  out=$(run hetscal)
  echo "$out" | awk '/pdgemm_timing:/{ print $(NF-1) }' >> /tmp/pdgemm_hetscal.$$
  [ $i -eq 0 ] && echo "$out" | grep "hetscal: " | grep -v summary | head -3
done
echo "PDGEMM N=$n on 1x2, rank 1 slowed x$factor, $runs interleaved runs (median of 3 calls each)"
echo "  ScaLAPACK          $(median < /tmp/pdgemm_plain.$$) s"
echo "  hetscal preloaded  $(median < /tmp/pdgemm_hetscal.$$) s"
rm -f /tmp/pdgemm_plain.$$ /tmp/pdgemm_hetscal.$$
