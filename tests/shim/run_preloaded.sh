#!/bin/bash
# Runs one of Debian's ScaLAPACK/PBLAS testers under mpirun with libhetscal.so preloaded and
# checks its output: the tester's own verdict, and how many calls of one routine hetscal
# computed or forwarded (the per-process summaries HETSCAL_VERBOSE prints at exit, added up).
# The routine counted is $SUMMARY_ROUTINE (default PDGEMM; an extended regex such as
# P[CZ]POTRF adds up several); a PBLAS tester must have tested it.
#
# usage: run_preloaded.sh MPIEXEC LIBRARY TESTER DATFILE:NAME RANKS MIN_COMPUTED MAX_COMPUTED
#                         MIN_FORWARDED [EXPECT_REGEX] [VAR=VALUE ...]
#   MIN_/MAX_COMPUTED  bounds on the calls hetscal computed, summed over ranks ("-": no bound)
#   DATFILE:NAME   input file copied as NAME next to the tester's run (PDBLAS3TST.dat, LU.dat),
#                  or "-" for a program that needs none
#   EXPECT_REGEX   a line that must appear in the output ("-" for none)
#   VAR=VALUE      environment for every rank (HETSCAL_SPEEDS=..., ...)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/checks.sh"
mpiexec=$1 library=$2 tester=$3 input=$4 ranks=$5 min_computed=$6 max_computed=$7 min_forwarded=$8
shift 8
expect="-"
if [ $# -gt 0 ] && [[ "$1" != *=* ]]; then expect=$1; shift; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$input" != "-" ]; then cp "${input%%:*}" "$work/${input##*:}"; fi
cd "$work"

env_args=(-x OPENBLAS_NUM_THREADS=1 -x LD_PRELOAD="$library")
# HETSCAL_TAKE_OVER from the environment reaches every rank (the lead runs the same tests with
# each take-over route forced).
if [ -n "${HETSCAL_TAKE_OVER:-}" ]; then env_args+=(-x HETSCAL_TAKE_OVER="$HETSCAL_TAKE_OVER"); fi
for assignment in "$@"; do env_args+=(-x "$assignment"); done
run_joined output.txt "$mpiexec" --oversubscribe --allow-run-as-root -np "$ranks" "${env_args[@]}" "$tester"
cat output.txt

routine=${SUMMARY_ROUTINE:-PDGEMM}
[ "$status" -eq 0 ] || fail "the tester exited with status $status"
# PBLAS testers: a summary table whose FAILED column must be 0; ScaLAPACK drivers: a
# "tests completed and failed" count that must be 0. Each kind's end line comes first: the
# proof that the tester ran to its end, without which no FAILED line proves anything.
if contains "^hetscal-check:" output.txt; then  # hetscal's own check programs
  contains "^hetscal-check: ALL CHECKS PASSED" output.txt || fail "a check failed"
elif contains "Testing Summary" output.txt; then
  contains "End of Tests" output.txt || fail "no end of tests"
  contains "^ *\\|.*$routine" output.txt || fail "$routine was not tested"
  awk '/^  \| /{ if ($5 != 0) bad = 1 } END { exit bad }' output.txt || fail "a routine has failed tests"
  if contains "\\*\\*\\*\\*\\* .* FAILED" output.txt; then fail "a check printed FAILED"; fi
  # Error exits: the tester's PB_Cabort records INFO; a wrong or missing code is printed
  # as "*** ERROR *** ERROR CODE RETURNED = x SHOULD HAVE BEEN y" (the exit status stays 0).
  if contains "\\*\\*\\* ERROR \\*\\*\\*" output.txt; then fail "an error exit returned the wrong INFO"; fi
else
  contains "END OF TESTS" output.txt || fail "no END OF TESTS"
  contains "^ +0 tests completed and failed" output.txt || fail "some tests failed"
  if contains " FAILED *$" output.txt; then fail "a test printed FAILED"; fi
fi
if [ "$expect" != "-" ]; then contains "$expect" output.txt || fail "missing: $expect"; fi

# Summaries may share a line with the tester's own output (stdout and stderr interleave). At
# least one must be there: without, every count below would be 0.
summary="hetscal: summary: $routine [0-9]+ computed, [0-9]+ forwarded"
computed=$(sum_of_field "$summary" 4 output.txt +)
forwarded=$(sum_of_field "$summary" 6 output.txt +)
echo "run_preloaded: hetscal computed $computed $routine calls, forwarded $forwarded (all ranks)"
[ "$computed" -ge "$min_computed" ] || fail "fewer than $min_computed calls computed by hetscal"
if [ "$max_computed" != "-" ]; then
  [ "$computed" -le "$max_computed" ] || fail "more than $max_computed calls computed by hetscal"
fi
[ "$forwarded" -ge "$min_forwarded" ] || fail "fewer than $min_forwarded calls forwarded"
echo "run_preloaded: passed"
