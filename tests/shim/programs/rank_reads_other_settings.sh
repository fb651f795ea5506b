#!/bin/bash
# Launcher for the tests where ranks read different settings: MPI_COMM_WORLD rank $ODD_RANK
# ("all": every rank) exports the assignments of $ODD_SETTINGS (space-separated VAR=VALUE),
# then runs $SHIM_TEST_PROGRAM. In a value, @FIFO@ becomes a named pipe and @BIG@ a speeds
# file larger than hetscal's limit, both made for this process. hetscal must notice, forward
# every call on every rank (no hang: nothing may wait in a collective for a rank that failed)
# and say why. The program's exit status is the launcher's.
set -euo pipefail
rank=${OMPI_COMM_WORLD_RANK:-0}
if [ "$ODD_RANK" = all ] || [ "$ODD_RANK" = "$rank" ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  for assignment in $ODD_SETTINGS; do
    case $assignment in
      *@FIFO@*) mkfifo "$scratch/fifo"; assignment=${assignment//@FIFO@/$scratch/fifo} ;;
      *@BIG@*) head -c 1048576 <(yes 1,) > "$scratch/big"; assignment=${assignment//@BIG@/$scratch/big} ;;
    esac
    export "$assignment"
  done
  status=0
  "$SHIM_TEST_PROGRAM" || status=$?  # not exec: the scratch files are removed after
  exit "$status"
fi
exec "$SHIM_TEST_PROGRAM"
