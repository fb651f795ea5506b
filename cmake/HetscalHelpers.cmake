# Shared helpers for hetscal's layer targets and tests.

set(HETSCAL_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)

# hetscal_add_layer(NAME <layer> [DEPENDS <targets>...])
# Builds every .cpp under src/<layer>/ into the static, position-independent target
# hetscal_<layer>. Headers are found as "<layer>/file.hpp" from src/.
# Files named blacs_*.cpp call BLACS (ScaLAPACK) and are left out of SimGrid builds.
function(hetscal_add_layer)
  cmake_parse_arguments(ARG "" "NAME" "DEPENDS" ${ARGN})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${ARG_NAME}/*.cpp)
  if(HETSCAL_SIMGRID)
    list(FILTER sources EXCLUDE REGEX "/blacs_[^/]*\\.cpp$")
  endif()
  add_library(hetscal_${ARG_NAME} STATIC ${sources})
  target_include_directories(hetscal_${ARG_NAME} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_options(hetscal_${ARG_NAME} PRIVATE ${HETSCAL_WARNINGS})
  target_link_libraries(hetscal_${ARG_NAME} PUBLIC ${ARG_DEPENDS})
  add_library(hetscal::${ARG_NAME} ALIAS hetscal_${ARG_NAME})
endfunction()

# hetscal_add_mpi_test(NAME <name> RANKS <n> COMMAND <exe> [args...])
# Registers a test run under mpirun with <n> ranks. Works as root (CI) and with more ranks
# than cores (--oversubscribe); OPENBLAS_NUM_THREADS=1 so ranks do not fight over cores.
function(hetscal_add_mpi_test)
  cmake_parse_arguments(ARG "" "NAME;RANKS" "COMMAND" ${ARGN})
  add_test(NAME ${ARG_NAME}
    COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ARG_RANKS} --oversubscribe
            ${MPIEXEC_PREFLAGS} ${ARG_COMMAND} ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${ARG_NAME} PROPERTIES
    PROCESSORS ${ARG_RANKS}
    ENVIRONMENT "OPENBLAS_NUM_THREADS=1;OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1"
    LABELS mpi)
endfunction()
