#!/usr/bin/env bash
# MPICH's mpiexec (Hydra) behind Open MPI's mpirun options, so that the scripts written for
# Open MPI (tests/shim/run_preloaded.sh) launch MPICH programs unchanged:
#   -np N -> -np N;  -x VAR=VALUE -> -genv VAR VALUE;  -x VAR -> -genvlist VAR;
#   --oversubscribe, --allow-run-as-root -> nothing (Hydra needs neither).
# The first argument that is not one of these starts the program and its arguments.
set -euo pipefail
mpiexec=${HETSCAL_MPIEXEC_MPICH:-mpiexec.mpich}
options=()
while (($#)); do
  case $1 in
    --oversubscribe | --allow-run-as-root) shift ;;
    -np | -n) options+=(-np "$2"); shift 2 ;;
    -x)
      if [[ $2 == *=* ]]; then options+=(-genv "${2%%=*}" "${2#*=}"); else options+=(-genvlist "$2"); fi
      shift 2 ;;
    *) break ;;
  esac
done
exec "$mpiexec" "${options[@]}" "$@"
