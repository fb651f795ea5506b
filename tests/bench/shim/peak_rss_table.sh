#!/bin/bash
# Benchmark (not a test): issue 28's table. The peak RSS one call adds to each rank over the
# bytes of the rank's own operands (peak_rss_call), N×N operands, 2 ranks on 1x2 and 2x1 grids,
# for PDGEMM, PDGETRF, PDPOTRF and PDGEQRF: ScaLAPACK alone (the larger of its two ranks), and
# hetscal preloaded with rank 1 planned 3x slower (HETSCAL_SPEEDS=3,1 HETSCAL_ADAPT=0), its fast
# rank 0 and slow rank 1, and whether hetscal computed the call (its exit summary), and in place
# (HETSCAL_TAKE_OVER=in-place: every routine; under auto where the copy does not fit). RSS does
# not depend on the machine's load, so the figures hold on a shared machine.
# HETSCAL_TAKE_OVER and HETSCAL_MEMORY, when set, reach the hetscal runs.
# usage: peak_rss_table.sh BUILD_DIR [N=6000] [NB=128] [ROUTINES="pdgemm pdgetrf pdpotrf pdgeqrf"]
set -euo pipefail
build=$1 n=${2:-6000} nb=${3:-128} routines=${4:-pdgemm pdgetrf pdpotrf pdgeqrf}
program=$build/tests/bench/shim/peak_rss_call
hetscal=$build/src/libhetscal.so
common=(--oversubscribe --allow-run-as-root -np 2 -x OPENBLAS_NUM_THREADS=1)
extra=()
for variable in HETSCAL_TAKE_OVER HETSCAL_MEMORY; do
  if [ -n "${!variable:-}" ]; then extra+=(-x "$variable=${!variable}"); fi
done
output=$(mktemp)
trap 'rm -f "$output"' EXIT

# ratio RANK: the ratio peak_rss_call printed for that rank.
ratio() { awk -v r="$1" '/^peak_rss_call:/ && $5 == r { for (i = 1; i <= NF; ++i) if ($i == "ratio") print $(i + 1) }' "$output"; }
run() {  # run plain|hetscal ROUTINE NPROW NPCOL
  local preload=()
  if [ "$1" = hetscal ]; then
    preload=(-x LD_PRELOAD="$hetscal" -x HETSCAL_SPEEDS=3,1 -x HETSCAL_ADAPT=0 -x HETSCAL_VERBOSE=1 "${extra[@]}")
  fi
  mpirun "${common[@]}" "${preload[@]}" "$program" "$2" "$n" "$nb" "$3" "$4" > "$output" 2>&1 ||
    { cat "$output"; echo "peak_rss_table: $2 $3x$4 ($1) failed" >&2; exit 1; }
}

echo "Peak RSS growth during one call / bytes of the rank's own operands, N=$n NB=$nb," \
     "HETSCAL_SPEEDS=3,1 HETSCAL_ADAPT=0${HETSCAL_TAKE_OVER:+ HETSCAL_TAKE_OVER=$HETSCAL_TAKE_OVER}${HETSCAL_MEMORY:+ HETSCAL_MEMORY=$HETSCAL_MEMORY}"
printf "| %-7s | %-4s | %-9s | %-17s | %-17s | %-24s |\n" routine grid ScaLAPACK "hetscal, fast rank" \
       "hetscal, slow rank" "hetscal's route"
printf "|---------|------|-----------|-------------------|-------------------|--------------------------|\n"
for grid in "1 2" "2 1"; do
  read -r rows cols <<< "$grid"
  for routine in $routines; do
    run plain "$routine" "$rows" "$cols"
    plain=$(printf "%s\n%s\n" "$(ratio 0)" "$(ratio 1)" | sort -g | tail -1)
    run hetscal "$routine" "$rows" "$cols"
    name=$(tr '[:lower:]' '[:upper:]' <<< "$routine")
    summary=$(grep -ao "hetscal: summary: $name [0-9]* computed, [0-9]* forwarded" "$output" | head -1 || true)
    route="forwarded"
    # The warm-up call and the measured one: both computed on a rank means 2 computed.
    if [[ "$summary" =~ ([0-9]+)\ computed ]] && [ "${BASH_REMATCH[1]}" -ge 2 ]; then route="computed"; fi
    if [[ "$summary" =~ ([0-9]+)\ computed ]] && [ "${BASH_REMATCH[1]}" -eq 1 ]; then route="computed (not warm-up)"; fi
    # The route a computed call took: HETSCAL_VERBOSE=1 says "; in place" after its decision.
    if [ "$route" != forwarded ] && grep -aqE "$name $n(x[0-9]+)* computed by hetscal: .*; in place" "$output"; then
      route="$route in place"
    fi
    printf "| %-7s | %-4s | %-9s | %-17s | %-17s | %-24s |\n" "$name" "${rows}x${cols}" "$plain" "$(ratio 0)" \
           "$(ratio 1)" "$route"
  done
done
