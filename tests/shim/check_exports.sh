#!/bin/bash
# Checks that libhetscal.so defines every intercepted routine under the four names Fortran
# compilers give it (pdgetrf_, pdgetrf, PDGETRF, PDGETRF_): a program built with another
# compiler's mangling would otherwise call ScaLAPACK directly, without a word.
#
# usage: check_exports.sh LIBRARY ROUTINE...   (ROUTINE in lower case, e.g. pdgetrf)
set -u
library=$1
shift
defined=$(nm -D --defined-only "$library" | awk '$2 == "T" { print $3 }') || exit 1
missing=0
for routine in "$@"; do
  upper=$(echo "$routine" | tr '[:lower:]' '[:upper:]')
  for name in "${routine}_" "$routine" "$upper" "${upper}_"; do
    if ! grep -q -x -F "$name" <<< "$defined"; then
      echo "check_exports: $library does not define $name"
      missing=1
    fi
  done
done
[ $missing -eq 0 ] && echo "check_exports: every mangling of $* defined"
exit $missing
