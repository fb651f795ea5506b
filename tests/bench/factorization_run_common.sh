# Sourced by the factorisation benchmarks' run_real.sh (cholesky, lu, qr): their common arguments
# and environment, the helpers that read the benchmark's output, and the slowdown rate.
# Expects `bench_name` (the benchmark's folder and executable suffix: "cholesky", "lu", "qr").
# Arguments: [BUILD_DIR ["N_LIST" [REPS ["NB_LIST" [PRECISION]]]]]
#            (default: build, "4000 8000", 3, "32,64,128,256", d); PRECISION z runs the
#            benchmark on complex double data (PZ routines, issue 13), passed to it as
#            HETSCAL_BENCH_PRECISION.
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$repo/build}
sizes=${2:-"4000 8000"}
reps=${3:-3}
block_sizes=${4:-"32,64,128,256"}
precision=${5:-d}
[[ $precision == d || $precision == z ]] || { echo "PRECISION must be d or z, not '$precision'" >&2; exit 2; }
export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export HETSCAL_BENCH_PRECISION=$precision
mpi=(mpirun -np 2 -x OPENBLAS_NUM_THREADS -x HETSCAL_BENCH_PRECISION)
bench=$build/tests/bench/$bench_name/bench_${bench_name}_real
example=$build/examples/pdgemm_example
slowdown=$build/src/tools/libhetscal-slowdown.so
log=$build/bench-$bench_name-real${precision/d/}.log  # bench-<name>-realz.log for Z
: >"$log"
# field KEY COLUMN: column COLUMN of the first line whose first word is KEY.
field() { awk -v key="$1" -v col="$2" '$1 == key { print $col; exit }'; }
# ratio NAME: the value of the line "ratio NAME ...".
ratio() { awk -v key="$1" '$0 ~ "^ratio " key { print $3; exit }'; }
# ceiling NAME: the value of the line "ceiling NAME ...": ScaLAPACK's time over the flops at
# the ranks' DGEMM peak, what no kernel's hetscal/ScaLAPACK ratio can pass.
ceiling() { awk -v key="$1" '$0 ~ "^ceiling " key { print $3; exit }'; }

# The sleep rate of libhetscal-slowdown.so: one core's DGEMM rate, unless given.
if [[ -z ${HETSCAL_SLOWDOWN_RATE:-} ]]; then
  rate_gflops=$(mpirun -np 1 "$example" 3000 256 1 1 | field gflops 2)
  export HETSCAL_SLOWDOWN_RATE=$(awk -v g="$rate_gflops" 'BEGIN { printf "%.4g", g * 1e9 }')
fi
echo "slowdown rate: HETSCAL_SLOWDOWN_RATE=$HETSCAL_SLOWDOWN_RATE flop/s" | tee -a "$log"

# print_rows TITLE WIDTH: the final table, one block per N of $sizes with the rows the
# caller collected in the associative array row[N,hom] and row[N,het], comparisons WIDTH wide.
print_rows() {
  echo
  echo "$1, 2 ranks, OPENBLAS_NUM_THREADS=1, medians of $reps interleaved repetitions (seconds); full log: $log"
  for n in $sizes; do
    echo "N = $n"
    printf "  %-${2}s %8s %8s %8s\n" "comparison (baseline / candidate)" "base_s" "cand_s" "ratio"
    for k in hom het; do sed 's/^/  /' <<<"${row[$n,$k]}"; done
  done
}
