# External libraries of the MPI layers: MPI, BLAS/LAPACK (OpenBLAS) and ScaLAPACK (Debian's
# Open MPI build, which carries BLACS). core/ needs none of them.
include_guard(GLOBAL)

if(NOT DEFINED BLA_VENDOR)
  set(BLA_VENDOR OpenBLAS)  # the BLAS Debian's ScaLAPACK uses here; gives CBLAS too
endif()
find_package(BLAS REQUIRED)
find_package(LAPACK REQUIRED)

if(HETSCAL_SIMGRID)
  # smpicxx is the compiler: it brings SimGrid's mpi.h and libraries itself. Debian's
  # ScaLAPACK/BLACS are built for Open MPI and cannot run under SMPI, so they stay out.
  if(NOT CMAKE_CXX_COMPILER MATCHES "smpicxx")
    message(FATAL_ERROR "HETSCAL_SIMGRID=ON needs -DCMAKE_CXX_COMPILER=smpicxx "
                        "(and -DCMAKE_C_COMPILER=smpicc)")
  endif()
  add_library(MPI::MPI_CXX INTERFACE IMPORTED)
  add_library(MPI::MPI_C INTERFACE IMPORTED)
  add_library(hetscal_scalapack INTERFACE)
  return()
endif()

find_package(MPI REQUIRED COMPONENTS C CXX)

find_library(HETSCAL_SCALAPACK_LIBRARY NAMES scalapack-openmpi scalapack
  DOC "ScaLAPACK (with BLACS) built for the MPI in use")
if(NOT HETSCAL_SCALAPACK_LIBRARY)
  message(FATAL_ERROR "ScaLAPACK not found: install libscalapack-openmpi-dev "
                      "or set HETSCAL_SCALAPACK_LIBRARY to the library file")
endif()
if(NOT TARGET hetscal_scalapack)
  add_library(hetscal_scalapack INTERFACE)
  target_link_libraries(hetscal_scalapack INTERFACE
    ${HETSCAL_SCALAPACK_LIBRARY} LAPACK::LAPACK BLAS::BLAS MPI::MPI_C)
endif()
