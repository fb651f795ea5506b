# Shared helpers for hetscal's layer targets and tests.

set(HETSCAL_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion)

# The timeout of a test that normally takes seconds to a minute or two: it only catches a
# hang. With both cores busy with other work, the 9-rank kernel tests took over 300 s (94 s on
# an idle machine), so the bound leaves room for a loaded machine; the suite must pass there.
set(HETSCAL_HANG_TIMEOUT 900)

# What every test's Open MPI run is given (tests/run.sh exports the same for the tests that
# set no environment of their own):
# - run as root (CI);
# - pml ob1 and btl self,vader: what Open MPI selects on one node anyway (shared memory), named
#   so that each MPI_Init skips probing UCX, OFI, openib and TCP: 0.5 s instead of 0.75 s per
#   2-rank start, and the suite starts several hundred.
# A waiting rank polls; Open MPI makes it yield its core (mpi_yield_when_idle) by itself when a
# run has more ranks than cores. A run that fits the cores spins, which is what keeps it quick
# beside other work: every MPI test claims its ranks as ctest PROCESSORS, so no other MPI test
# runs beside it, and beside two CPU hogs (two `yes`) the 2-rank fault sweep took 24 s
# spinning against more than 120 s yielding (5.6 s on an idle machine): a yielding rank hands
# the hogs a time slice at every poll, so every message waits for one.
# - HETSCAL_IDLE_WAIT=sleep (src/mpi/idle_wait.cpp): a run with more ranks than cores does
#   yield, and on Linux 6.6 or later each yield puts the rank behind every other process
#   (beside two `yes`, the 9-rank kernel tests took 274 s yielding, 21 s sleeping; 5.9 and
#   17 s on an idle machine).
set(HETSCAL_OPENMPI_TEST_ENVIRONMENT OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader HETSCAL_IDLE_WAIT=sleep)
# The emulated tests' ranks mostly sleep in the slowdown emulator while their peers wait: those
# peers yield their cores, so that such a test claims one ctest processor and another test runs
# beside it. What they check is timed by the emulated clock, which no load moves.
set(HETSCAL_OPENMPI_SLEEPING_TEST_ENVIRONMENT ${HETSCAL_OPENMPI_TEST_ENVIRONMENT} OMPI_MCA_mpi_yield_when_idle=1)

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

# hetscal_expect_output(<variable> [EXIT <status>] MATCH <regex>... [FORBID <regex>...])
# Sets <variable> to a launcher for a test's command, tests/support/expect_output.sh: the test
# passes only if the command ends with exit status <status> (default 0) and its output matches
# every MATCH and no FORBID extended regex. The one way to expect output: ctest's
# PASS_REGULAR_EXPRESSION ignores the exit status.
function(hetscal_expect_output variable)
  cmake_parse_arguments(ARG "" "EXIT" "MATCH;FORBID" ${ARGN})
  if(NOT ARG_MATCH OR ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "hetscal_expect_output: MATCH <regex>... required, not '${ARG_UNPARSED_ARGUMENTS}'")
  endif()
  if(NOT DEFINED ARG_EXIT)
    set(ARG_EXIT 0)
  endif()
  set(launcher ${PROJECT_SOURCE_DIR}/tests/support/expect_output.sh --exit ${ARG_EXIT})
  foreach(regex IN LISTS ARG_MATCH)
    list(APPEND launcher --match ${regex})
  endforeach()
  foreach(regex IN LISTS ARG_FORBID)
    list(APPEND launcher --forbid ${regex})
  endforeach()
  list(APPEND launcher --)
  set(${variable} ${launcher} PARENT_SCOPE)
endfunction()

# hetscal_add_mpi_test(NAME <name> RANKS <n> COMMAND <exe> [args...]
#                      [EXPECT_OUTPUT <regex>... [EXIT <status>] [FORBID_OUTPUT <regex>...]])
# Registers a test run under mpirun with <n> ranks. Works as root (CI) and with more ranks
# than cores (--oversubscribe); OPENBLAS_NUM_THREADS=1 so ranks do not fight over cores.
# EXPECT_OUTPUT runs it through hetscal_expect_output: mpirun's exit status must be <status>
# (default 0) and the output must match every EXPECT_OUTPUT and no FORBID_OUTPUT regex.
function(hetscal_add_mpi_test)
  cmake_parse_arguments(ARG "" "NAME;RANKS;EXIT" "COMMAND;EXPECT_OUTPUT;FORBID_OUTPUT" ${ARGN})
  set(launcher)
  if(ARG_EXPECT_OUTPUT)
    set(exit_status 0)
    if(DEFINED ARG_EXIT)
      set(exit_status ${ARG_EXIT})
    endif()
    hetscal_expect_output(launcher EXIT ${exit_status} MATCH ${ARG_EXPECT_OUTPUT} FORBID ${ARG_FORBID_OUTPUT})
  elseif(DEFINED ARG_EXIT OR ARG_FORBID_OUTPUT)
    message(FATAL_ERROR "hetscal_add_mpi_test(${ARG_NAME}): EXIT and FORBID_OUTPUT need EXPECT_OUTPUT")
  endif()
  add_test(NAME ${ARG_NAME}
    COMMAND ${launcher} ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${ARG_RANKS} --oversubscribe
            ${MPIEXEC_PREFLAGS} ${ARG_COMMAND} ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${ARG_NAME} PROPERTIES
    PROCESSORS ${ARG_RANKS}
    ENVIRONMENT "OPENBLAS_NUM_THREADS=1;${HETSCAL_OPENMPI_TEST_ENVIRONMENT};OMPI_MCA_rmaps_base_oversubscribe=1"
    LABELS mpi)
endfunction()
