#!/bin/bash
# Launcher for the disagreement test: MPI_COMM_WORLD rank 2 reads another HETSCAL_MIN_N than
# the others, then runs $SHIM_TEST_PROGRAM. hetscal must notice, forward every call on every
# rank (no deadlock) and say why.
if [ "${OMPI_COMM_WORLD_RANK:-0}" = 2 ]; then export HETSCAL_MIN_N=7; fi
exec "$SHIM_TEST_PROGRAM"
