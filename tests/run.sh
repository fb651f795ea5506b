#!/usr/bin/env bash
# The whole test suite: set-up (packages, configure, build), then every ctest test. ctest's
# output goes to BUILD/tests.log behind one progress line; a failing test's output, and the
# list of the failed tests, are shown from it. The exit status is ctest's.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$repo/cmake/bootstrap.sh"
source "$repo/cmake/progress.sh"
export OPENBLAS_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The settings of cmake/HetscalHelpers.cmake's HETSCAL_OPENMPI_TEST_ENVIRONMENT (shared memory
# named, no network probing, waiting ranks sleep), for the tests that call mpirun from a script
# and set no environment of their own.
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader HETSCAL_IDLE_WAIT=sleep
cd "${HETSCAL_BUILD_DIR:-$repo/build}"
log=$PWD/tests.log

# ctest's "12/344 Test #7: name ....   Passed" lines drive the progress line.
status=0
ctest --output-on-failure -j "$(nproc)" --timeout 600 2>&1 | tee "$log" | while IFS= read -r line; do
  if [[ $line =~ ^\ *([0-9]+/[0-9]+)\ Test\ +#[0-9]+:\ +([^ ]+) ]]; then
    progress "tests: ${BASH_REMATCH[1]} ${BASH_REMATCH[2]}" detail
  fi
done || status=$?

if ((status == 0)); then
  progress_done "tests: $(grep -E 'tests passed' "$log" | tail -n 1) (log: $log)"
  exit 0
fi
progress_done "tests: some failed (log: $log)"
# Each failed test's status line and the output ctest printed after it, up to the next test.
awk '/^ *[0-9]+\/[0-9]+ Test +#/ { show = ($0 !~ /Passed/) }
     /^ *Start +[0-9]+:/ || /tests passed/ { show = 0 } show' "$log"
sed -n '/tests passed/,$p' "$log"
exit "$status"
