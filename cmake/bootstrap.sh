#!/usr/bin/env bash
# Set-up shared by the README's two commands: installs Debian's packages (when missing),
# configures and builds hetscal in ${HETSCAL_BUILD_DIR:-build}. Safe to run again.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${HETSCAL_BUILD_DIR:-$repo/build}

packages=(
  build-essential cmake gfortran pkg-config
  openmpi-bin libopenmpi-dev
  libopenblas-dev libscalapack-openmpi-dev scalapack-mpi-test
  libgtest-dev libcli11-dev libpng-dev nlohmann-json3-dev
  libsimgrid-dev  # brings smpicxx and smpirun
  libcairo2-dev fonts-dejavu-core  # hetscal-plan's pictures: PNG, SVG and PDF, text in DejaVu
  poppler-utils libxml2-utils      # the picture tests read the PDF's text and parse the SVG
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "hetscal: installing Debian packages: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

export OPENBLAS_NUM_THREADS=1
cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release ${HETSCAL_CMAKE_ARGS:-}
cmake --build "$build" -j "$(nproc)"
