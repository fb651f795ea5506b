#!/usr/bin/env bash
# Runs a command for a ctest test that expects some output, and checks its exit status too,
# which ctest's PASS_REGULAR_EXPRESSION ignores: the test passes only if the command ends with
# the expected status and its output (stdout, then stderr) matches every --match and no
# --forbid extended regex, each over the whole output ('.' also matches a line break).
# cmake/HetscalHelpers.cmake's hetscal_expect_output builds these arguments.
#
# usage: expect_output.sh [--exit STATUS] --match REGEX [--match REGEX ...]
#                         [--forbid REGEX ...] -- COMMAND [ARG ...]
#   STATUS  the exit status the command must end with (default 0; a refusal's own code, such
#           as 2, where the test runs a bad input on purpose)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"
expected_status=0 wanted=() unwanted=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  [ $# -ge 2 ] || fail "option $1 has no value"
  case $1 in
    --exit) expected_status=$2 ;;
    --match) wanted+=("$2") ;;
    --forbid) unwanted+=("$2") ;;
    *) fail "unknown option $1" ;;
  esac
  shift 2
done
[ $# -ge 2 ] || fail "no command after --"
shift
[ ${#wanted[@]} -gt 0 ] || fail "no --match: nothing would tell this run from any other"

output=$(mktemp)
trap 'rm -f "$output"' EXIT
run_joined "$output" "$@"
cat "$output"

# anywhere REGEX: whether the whole output matches (grep -z reads it as one record).
anywhere() {
  local found=0
  grep -a -q -z -E -- "$1" "$output" || found=$?
  [ "$found" -le 1 ] || fail "cannot read the output"
  return "$found"
}
[ "$status" -eq "$expected_status" ] || fail "exit status $status, expected $expected_status"
for regex in "${wanted[@]}"; do
  anywhere "$regex" || fail "the output does not match '$regex'"
done
for regex in ${unwanted[@]+"${unwanted[@]}"}; do
  if anywhere "$regex"; then fail "the output matches '$regex', which it must not"; fi
done
echo "expect_output: exit status $status and the output as expected"
