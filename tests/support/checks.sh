# Shared by the shell checks under tests/ (sourced after `set -euo pipefail`, never run): a
# failure names the check, a count of lines is not stopped by grep's "no match" status, and a
# command runs with its output streams captured apart.

# set -e also inside $(...), where these helpers often run.
shopt -s inherit_errexit
check_name=$(basename "${0%.sh}")

# fail MESSAGE...: says what failed, prefixed by the check's name, on stderr (also from inside
# a $(...)), and exits with status 1.
fail() {
  echo "$check_name: $*" >&2
  exit 1
}

# contains REGEX FILE: whether a line of FILE matches the extended REGEX (as a status: no
# match is 1, not a failure); a file grep cannot read fails the check.
contains() {
  local found=0
  grep -a -q -E -- "$1" "$2" || found=$?
  [ "$found" -le 1 ] || fail "cannot read $2"
  return "$found"
}

# matches REGEX FILE: every match of the extended REGEX in FILE, one a line (grep -o: a match
# may share a line with other output, as the ranks' stderr writes interleave); none prints
# nothing and is no failure, a file grep cannot read is.
matches() {
  local found=0
  grep -a -o -E -- "$1" "$2" || found=$?
  [ "$found" -le 1 ] || fail "cannot read $2"
}

# count_matches REGEX FILE: how many matches `matches` finds (0 when none).
count_matches() {
  matches "$1" "$2" | wc -l
}

# sum_of_field REGEX FIELD FILE EXPECTED: the sum of the FIELD-th word of every match of REGEX
# in FILE; fails unless there are EXPECTED matches ("+": at least one), so that a missing line
# is a failure and never a sum of 0.
sum_of_field() {
  local found
  found=$(matches "$1" "$3")
  local count
  count=$(printf '%s' "$found" | awk 'END { print NR }')
  if [ "$4" = "+" ]; then
    [ "$count" -ge 1 ] || fail "no line matches '$1'"
  else
    [ "$count" -eq "$4" ] || fail "$count lines match '$1', not $4"
  fi
  printf '%s\n' "$found" | awk -v field="$2" '{ s += $field } END { print s + 0 }'
}

# run_joined OUTPUT COMMAND...: runs COMMAND with its stdout and stderr captured apart, then
# joined in OUTPUT (stdout first); its exit status goes to `status` (set -e does not stop the
# check there: the caller checks it). Apart because mpirun forwards each stream in pieces of
# up to 4 KiB: merged as they come, a line of one can be cut by the other.
run_joined() {
  local output=$1
  shift
  status=0
  "$@" > "$output" 2> "$output.stderr" || status=$?
  cat "$output.stderr" >> "$output"
  rm -f "$output.stderr"
}
