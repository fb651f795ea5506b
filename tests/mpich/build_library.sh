#!/usr/bin/env bash
# Builds a second libhetscal.so, against MPICH and Debian's libscalapack-mpich (HETSCAL_MPI=mpich),
# in its own build directory: configured once, then only the target hetscal (no tests, tools
# or benchmarks), its MPI-free layers (core, layout) taken from the Open MPI build
# OPENMPI_BUILD_DIR rather than compiled again. The MPICH testers preload it
# (tests/mpich/CMakeLists.txt).
#
# usage: build_library.sh SOURCE_DIR BUILD_DIR BUILD_TYPE OPENMPI_BUILD_DIR [COMPILER_LAUNCHER]
set -euo pipefail
source_dir=$1 build_dir=$2 build_type=$3 openmpi_build_dir=$4 launcher=${5:-}
options=(-DHETSCAL_MPI=mpich -DHETSCAL_BUILD_TESTS=OFF -DHETSCAL_BUILD_BENCHMARKS=OFF
         -DCMAKE_BUILD_TYPE="$build_type" -DHETSCAL_MPI_FREE_LAYERS="$openmpi_build_dir")
if [ -n "$launcher" ]; then
  options+=(-DCMAKE_C_COMPILER_LAUNCHER="$launcher" -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher")
fi
mkdir -p "$build_dir"
log=$build_dir/build.log
if ! { cmake -S "$source_dir" -B "$build_dir" "${options[@]}" &&
       cmake --build "$build_dir" --target hetscal -j "$(nproc)"; } >"$log" 2>&1; then
  tail -n 40 "$log"
  echo "build_library: the MPICH build failed (full log: $log)"
  exit 1
fi
library=$build_dir/src/libhetscal.so
[ -f "$library" ] || { echo "build_library: $library was not made"; exit 1; }
# The library must be MPICH's: linked to libmpich, not to Open MPI's libmpi.
# (ldd's whole output first: grep -q stopping early would fail the pipe under pipefail.)
libraries=$(ldd "$library")
grep -q "libmpich" <<<"$libraries" || { echo "build_library: $library is not linked to MPICH"; exit 1; }
if grep -q "libmpi\.so" <<<"$libraries"; then echo "build_library: $library links Open MPI"; exit 1; fi
echo "build_library: built $library against MPICH"
