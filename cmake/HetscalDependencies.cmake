# External libraries of the MPI layers: MPI, BLAS/LAPACK (OpenBLAS) and ScaLAPACK (Debian's
# Open MPI build, which carries BLACS). core/ needs none of them.
include_guard(GLOBAL)

find_package(MPI REQUIRED COMPONENTS C CXX)
find_package(BLAS REQUIRED)
find_package(LAPACK REQUIRED)

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
