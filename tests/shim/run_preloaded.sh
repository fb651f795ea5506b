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
set -u
mpiexec=$1 library=$2 tester=$3 input=$4 ranks=$5 min_computed=$6 max_computed=$7 min_forwarded=$8
shift 8
expect="-"
if [ $# -gt 0 ] && [[ "$1" != *=* ]]; then expect=$1; shift; fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$input" != "-" ]; then cp "${input%%:*}" "$work/${input##*:}" || exit 1; fi
cd "$work" || exit 1

env_args=(-x OPENBLAS_NUM_THREADS=1 -x LD_PRELOAD="$library")
for assignment in "$@"; do env_args+=(-x "$assignment"); done
# Stdout and stderr are captured apart and then joined: mpirun forwards each stream in pieces
# of up to 4 KiB, so merged as they come a line of one can be cut by the other.
"$mpiexec" --oversubscribe --allow-run-as-root -np "$ranks" "${env_args[@]}" "$tester" > output.txt 2> errors.txt
status=$?
cat errors.txt >> output.txt
cat output.txt

fail() { echo "run_preloaded: $*"; exit 1; }
routine=${SUMMARY_ROUTINE:-PDGEMM}
[ $status -eq 0 ] || fail "the tester exited with status $status"
# PBLAS testers: a summary table whose FAILED column must be 0; ScaLAPACK drivers: a
# "tests completed and failed" count that must be 0.
if grep -q "^hetscal-check:" output.txt; then  # hetscal's own check programs
  grep -q "^hetscal-check: ALL CHECKS PASSED" output.txt || fail "a check failed"
elif grep -q "Testing Summary" output.txt; then
  grep -q "End of Tests" output.txt || fail "no end of tests"
  awk '/^  \| /{ if ($5 != 0) bad = 1 } END { exit bad }' output.txt || fail "a routine has failed tests"
  grep -E "^ *\|" output.txt | grep -q "$routine" || fail "$routine was not tested"
  grep -q -E "\*\*\*\*\* .* FAILED" output.txt && fail "a check printed FAILED"
  # Error exits: the tester's PB_Cabort records INFO; a wrong or missing code is printed
  # as "*** ERROR *** ERROR CODE RETURNED = x SHOULD HAVE BEEN y" (the exit status stays 0).
  grep -q -F "*** ERROR ***" output.txt && fail "an error exit returned the wrong INFO"
else
  grep -q "END OF TESTS" output.txt || fail "no END OF TESTS"
  grep -q -E "^ +0 tests completed and failed" output.txt || fail "some tests failed"
  grep -q -E " FAILED *$" output.txt && fail "a test printed FAILED"
fi
if [ "$expect" != "-" ]; then grep -q -E "$expect" output.txt || fail "missing: $expect"; fi

# Summaries may share a line with the tester's own output (stdout and stderr interleave).
summaries=$(grep -oE "hetscal: summary: $routine [0-9]+ computed, [0-9]+ forwarded" output.txt)
computed=$(echo "$summaries" | awk '{ s += $4 } END { print s + 0 }')
forwarded=$(echo "$summaries" | awk '{ s += $6 } END { print s + 0 }')
echo "run_preloaded: hetscal computed $computed $routine calls, forwarded $forwarded (all ranks)"
[ "$computed" -ge "$min_computed" ] || fail "fewer than $min_computed calls computed by hetscal"
if [ "$max_computed" != "-" ]; then
  [ "$computed" -le "$max_computed" ] || fail "more than $max_computed calls computed by hetscal"
fi
[ "$forwarded" -ge "$min_forwarded" ] || fail "fewer than $min_forwarded calls forwarded"
echo "run_preloaded: passed"
