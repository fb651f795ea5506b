#!/bin/bash
# Checks that libhetscal.so defines every intercepted routine under the four names Fortran
# compilers give it (pdgetrf_, pdgetrf, PDGETRF, PDGETRF_): a program built with another
# compiler's mangling would otherwise call ScaLAPACK directly, without a word. With --absent,
# that it defines none of them (a routine hetscal does not intercept), once the symbol table
# read shows pdgemm_, the proof that the library's symbols were read at all.
#
# usage: check_exports.sh [--absent] LIBRARY ROUTINE...   (ROUTINE in lower case, e.g. pdgetrf)
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../support/checks.sh"
absent=0
if [ "$1" = --absent ]; then absent=1; shift; fi
library=$1
shift
symbols=$(mktemp)
trap 'rm -f "$symbols"' EXIT
nm -D --defined-only "$library" | awk '$2 == "T" { print $3 }' > "$symbols"
contains "^pdgemm_$" "$symbols" || fail "$library's symbol table, as nm reads it, has no pdgemm_"
wrong=0
for routine in "$@"; do
  upper=$(tr '[:lower:]' '[:upper:]' <<< "$routine")
  for name in "${routine}_" "$routine" "$upper" "${upper}_"; do
    defined=1
    grep -q -x -F "$name" "$symbols" || defined=0
    if [ $defined -ne $((1 - absent)) ]; then
      echo "check_exports: $library $([ $absent -eq 1 ] && echo defines || echo does not define) $name"
      wrong=1
    fi
  done
done
[ $wrong -eq 0 ] || fail "wrong exports"
echo "check_exports: $([ $absent -eq 1 ] && echo "no mangling" || echo "every mangling") of $* defined"
