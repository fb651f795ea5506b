# External libraries of the MPI layers: MPI, BLAS/LAPACK (OpenBLAS) and ScaLAPACK (Debian's
# build for the MPI family chosen by HETSCAL_MPI, which carries BLACS). core/ needs none of them.
include_guard(GLOBAL)

# The MPI family hetscal is built against: a libhetscal.so is preloaded into programs of that
# family only (Open MPI's and MPICH's handles and ABIs differ). Debian installs both side by
# side, Open MPI as the default mpicc/mpirun; "mpich" picks MPICH's compiler wrappers, mpiexec
# and libscalapack-mpich.
set(HETSCAL_MPI openmpi CACHE STRING "MPI family to build against: openmpi or mpich")
set_property(CACHE HETSCAL_MPI PROPERTY STRINGS openmpi mpich)
if(NOT HETSCAL_MPI MATCHES "^(openmpi|mpich)$")
  message(FATAL_ERROR "HETSCAL_MPI is '${HETSCAL_MPI}': it must be openmpi or mpich")
endif()

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

if(HETSCAL_MPI STREQUAL "mpich")  # Debian's names for MPICH's wrappers (package mpich)
  foreach(language_wrapper C:mpicc CXX:mpicxx Fortran:mpif90)
    string(REPLACE ":" ";" pair ${language_wrapper})
    list(GET pair 0 language)
    list(GET pair 1 wrapper)
    if(NOT DEFINED MPI_${language}_COMPILER)
      set(MPI_${language}_COMPILER ${wrapper}.mpich)
    endif()
  endforeach()
  if(NOT DEFINED MPIEXEC_EXECUTABLE)
    set(MPIEXEC_EXECUTABLE mpiexec.mpich)
  endif()
endif()
find_package(MPI REQUIRED COMPONENTS C CXX)

find_library(HETSCAL_SCALAPACK_LIBRARY NAMES scalapack-${HETSCAL_MPI} scalapack
  DOC "ScaLAPACK (with BLACS) built for the MPI in use")
if(NOT HETSCAL_SCALAPACK_LIBRARY)
  message(FATAL_ERROR "ScaLAPACK not found: install libscalapack-${HETSCAL_MPI}-dev "
                      "or set HETSCAL_SCALAPACK_LIBRARY to the library file")
endif()
if(NOT TARGET hetscal_scalapack)
  add_library(hetscal_scalapack INTERFACE)
  target_link_libraries(hetscal_scalapack INTERFACE
    ${HETSCAL_SCALAPACK_LIBRARY} LAPACK::LAPACK BLAS::BLAS MPI::MPI_C)
endif()
