#!/usr/bin/env bash
# Benchmark (not a test; issue 29): Debian's ScaLAPACK testers that reach hetscal through
# ScaLAPACK's own drivers (xdinv: PDGETRF then PDGETRI's PDGEMMs; xdls: PDGELS -> PDGEQRF;
# xdgsep: PDSYGVX -> PDPOTRF), on their stock inputs, plain and with libhetscal.so preloaded
# and every call eligible (HETSCAL_MIN_N=0, no speeds given: hetscal decides by its model).
# Prints the median wall times, the preloaded/plain ratio, the calls hetscal computed and
# forwarded, and the distribution of predicted/measured time over the calls it computed
# (HETSCAL_VERBOSE=1's "measured T s (predicted P s" lines, rank 0).
# HETSCAL_* variables set in the environment (HETSCAL_SPEEDS=...) are passed to the preloaded
# runs too. Measure on a quiet machine, and say what else ran: a wall clock on shared cores measures
# the neighbours.
#
# Each case runs RUNS times (default 5), plain and preloaded interleaved, and the medians are
# compared: one run of these sub-second testers moves by 10-30 % with what else the machine does.
#
# usage: stock_testers_timing.sh BUILD_DIR [RANKS="2 4"] [TESTERS="xdinv xdls xdgsep"] [RUNS=5]
#        TESTERS may also name xdlu, xdllt, xdqr and their S, C, Z twins (their .dat's condition
#        estimation turned off).
set -euo pipefail
build=$1 rank_counts=${2:-2 4} testers=${3:-xdinv xdls xdgsep} runs=${4:-5}
hetscal=$(realpath "$build/src/libhetscal.so")
stock=/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests
[ -f "$hetscal" ] || { echo "no $hetscal: build hetscal first"; exit 1; }
settings=(-x HETSCAL_MIN_N=0)
for variable in $(compgen -e | grep '^HETSCAL_' || true); do settings+=(-x "$variable"); done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
input_of() {
  case $1 in
    x?inv) echo INV.dat ;; x?ls) echo LS.dat ;; x?*sep) echo SEP.dat ;;
    x?lu) echo LU.dat ;; x?llt) echo LLT.dat ;; x?qr) echo QR.dat ;;
    *) echo "no stock input known for $1" >&2; exit 1 ;;
  esac
}
# timed OUTPUT COMMAND...: runs it, stdout and stderr into OUTPUT; prints the wall seconds.
timed() {
  local output=$1 start end
  shift
  start=$(date +%s.%N)
  "$@" >"$output" 2>&1 || { echo "failed: $* (see $output)" >&2; tail -n 20 "$output" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$start $end" | awk '{ printf "%.3f", $2 - $1 }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { printf "%.3f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
: >ratios.txt
echo "medians of $runs interleaved runs each (HETSCAL_VERBOSE unset); computed and forwarded calls of one more"
echo "preloaded run with HETSCAL_VERBOSE=1"
printf '%-7s %5s %9s %11s %7s %9s %9s\n' tester ranks plain_s preloaded_s ratio computed forwarded
for tester in $testers; do
  input=$(input_of "$tester")
  cp "$stock/$input" .
  # Without condition estimation and iterative refinement: with them xdlu and xdllt hang now and
  # then without hetscal too (README, the stock testers).
  sed -i 's/^T\([[:space:]]*(T or F) Test Cond\)/F\1/' "$input"
  for ranks in $rank_counts; do
    if [[ $tester == x?*sep && $ranks -lt 4 ]]; then  # SEP.dat's grids need 4 processes
      printf '%-7s %5s   (SEP.dat needs 4 ranks)\n' "$tester" "$ranks"
      continue
    fi
    launch=(mpirun --oversubscribe --allow-run-as-root -np "$ranks" -x OPENBLAS_NUM_THREADS=1)
    : >plain_s.txt
    : >preloaded_s.txt
    for ((run = 0; run < runs; ++run)); do
      timed plain.txt "${launch[@]}" "$stock/$tester" >>plain_s.txt
      echo >>plain_s.txt
      timed preloaded.txt "${launch[@]}" -x LD_PRELOAD="$hetscal" "${settings[@]}" "$stock/$tester" \
        >>preloaded_s.txt
      echo >>preloaded_s.txt
    done
    plain=$(median <plain_s.txt) preloaded=$(median <preloaded_s.txt)
    # The timed runs print nothing, as a user's; one more run says what hetscal did.
    timed preloaded.txt "${launch[@]}" -x LD_PRELOAD="$hetscal" "${settings[@]}" -x HETSCAL_VERBOSE=1 \
      "$stock/$tester" >/dev/null
    for output in plain.txt preloaded.txt; do
      if grep -q "FAILED" "$output"; then echo "$tester on $ranks ranks: a test FAILED"; exit 1; fi
    done
    counts=$({ grep -oE "hetscal: summary: [A-Z]+ [0-9]+ computed, [0-9]+ forwarded" preloaded.txt || true; } |
             awk '{ c += $4; f += $6 } END { print c + 0, f + 0 }')
    printf '%-7s %5s %9s %11s %7s %9s %9s\n' "$tester" "$ranks" "$plain" "$preloaded" \
      "$(awk -v a="$preloaded" -v b="$plain" 'BEGIN { printf "%.2f", a / b }')" $counts
    # "... measured 0.236 s (predicted 0.39 s; ..." -> predicted / measured
    { grep -oE "measured [0-9.e+-]+ s \(predicted [0-9.e+-]+ s" preloaded.txt || true; } |
      awk -v what="$tester/$ranks" '{ if ($2 > 0) print $5 / $2, what }' >>ratios.txt
  done
done
echo
echo "predicted/measured over the calls hetscal computed (rank 0's lines):"
sort -g ratios.txt | awk '
  { v[NR] = $1; inside += ($1 >= 0.67 && $1 <= 1.5) }
  END {
    if (NR == 0) { print "  no computed call"; exit }
    printf "  %d calls: min %.3g, p10 %.3g, median %.3g, p90 %.3g, max %.3g; within 0.67-1.5: %d (%.0f%%)\n",
      NR, v[1], v[int(NR * 0.1) + 1], v[int(NR * 0.5) + 1], v[int(NR * 0.9) + 1], v[NR], inside,
      100 * inside / NR
  }'
