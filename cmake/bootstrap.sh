#!/usr/bin/env bash
# Set-up shared by the README's commands: installs Debian's packages (when missing),
# configures and builds hetscal in ${HETSCAL_BUILD_DIR:-build}. Safe to run again.
# Their output goes to BUILD/setup.log; the terminal shows one progress line, and on failure
# the end of the log.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${HETSCAL_BUILD_DIR:-$repo/build}
mkdir -p "$build"
log=$build/setup.log
: >"$log"

packages=(
  build-essential cmake gfortran pkg-config
  openmpi-bin libopenmpi-dev
  libopenblas-dev libscalapack-openmpi-dev scalapack-mpi-test
  libgtest-dev libcli11-dev libpng-dev nlohmann-json3-dev
  libsimgrid-dev  # brings smpicxx and smpirun
  libcairo2-dev fonts-dejavu-core  # hetscal-plan's pictures: PNG, SVG and PDF, text in DejaVu
  poppler-utils libxml2-utils      # the picture tests read the PDF's text and parse the SVG
  python3-matplotlib  # the benchmark report's figures (tests/report)
  # MPICH beside Open MPI (issue 29): its launcher and ScaLAPACK, for the second libhetscal.so
  # that the MPICH testers (scalapack-mpi-test's mpich-tests) preload. Open MPI stays the
  # default mpicc/mpirun (its alternatives have the higher priority; checked below).
  mpich libmpich-dev libscalapack-mpich-dev
  # Real applications run plain and preloaded (examples/applications): MUMPS, and PETSc with
  # its shipped examples (MATSCALAPACK, PETSc + MUMPS).
  libmumps-dev libpetsc-real3.18-dev libpetsc3.18-dev-examples
)

source "$repo/cmake/progress.sh"

# logged COMMAND...: runs it into the log; on failure shows the end of the log and stops.
logged() {
  if ! "$@" >>"$log" 2>&1; then
    printf '\nsetup failed: %s\n' "$*"
    tail -n 30 "$log"
    echo "full log: $log"
    exit 1
  fi
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  progress "setup: installing ${#missing[@]} Debian packages (${missing[*]})"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  logged "${sudo_cmd[@]}" apt-get update -q
  logged env DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends \
    "${missing[@]}"
fi

# Everything but tests/mpich assumes Open MPI's mpicc and mpirun. Debian gives Open MPI's
# alternatives the higher priority, so installing MPICH leaves them the default; should a
# system choose otherwise, pin them to Open MPI.
for alternative in mpi:mpicc mpirun:mpirun; do
  name=${alternative%%:*} tool=${alternative##*:}
  if [ "$(readlink -f "/usr/bin/$tool")" != "$(readlink -f "/usr/bin/$tool.openmpi")" ]; then
    progress "setup: pinning $tool to Open MPI"
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    logged "${sudo_cmd[@]}" update-alternatives --set "$name" "/usr/bin/$tool.openmpi"
  fi
done

export OPENBLAS_NUM_THREADS=1
progress "setup: configuring $build"
# HETSCAL_CMAKE_ARGS holds several options: split on blanks on purpose.
# shellcheck disable=SC2086
logged cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release ${HETSCAL_CMAKE_ARGS:-}
progress "setup: building"
# The build's "[ 42%]" lines drive the progress line on a terminal; all goes to the log.
if ! cmake --build "$build" -j "$(nproc)" 2>&1 | tee -a "$log" | while IFS= read -r line; do
  if [[ $line =~ ^\[\ *([0-9]+)%\] ]]; then progress "setup: building ${BASH_REMATCH[1]}%" detail; fi
done; then
  printf '\nsetup failed: the build\n'
  grep -E -B2 -A8 'error|Error' "$log" | tail -n 40
  echo "full log: $log"
  exit 1
fi
progress_done "setup: done (log: $log)"
