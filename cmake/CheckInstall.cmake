# Installs the build tree into a scratch prefix, then builds examples/consumer against it twice:
# with find_package(hetscal) and with pkg-config. Run by ctest as `install_consumer`.
# Then the relink way: an unchanged ScaLAPACK program (tests/shim/programs/pdgemm_loop.cpp)
# linked with the installed hetscal ahead of ScaLAPACK, run on two ranks, must have its PDGEMM
# calls computed by hetscal (HETSCAL_VERBOSE's exit summary) and its results right.
# Inputs: -DBUILD_DIR= -DSOURCE_DIR= -DWORK_DIR= [-DMPIEXEC=]
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  set(last_output "${out}${err}" PARENT_SCOPE)  # HETSCAL_VERBOSE prints on stderr
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# CMake package
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/consumer -B ${WORK_DIR}/cmake-build
    -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/cmake-build)
set(ENV{LD_LIBRARY_PATH} "${prefix}/lib:$ENV{LD_LIBRARY_PATH}")
run(${WORK_DIR}/cmake-build/consumer)
if(NOT last_output MATCHES "^hetscal [0-9]+\\.[0-9]+\\.[0-9]+")
  message(FATAL_ERROR "unexpected consumer output: ${last_output}")
endif()

# pkg-config
find_program(PKG_CONFIG pkg-config REQUIRED)
set(ENV{PKG_CONFIG_PATH} "${prefix}/lib/pkgconfig")
run(${PKG_CONFIG} --cflags --libs hetscal)
string(STRIP "${last_output}" flags)
separate_arguments(flags UNIX_COMMAND "${flags}")
run(cc ${SOURCE_DIR}/examples/consumer/consumer.c ${flags} -o ${WORK_DIR}/pc-consumer)
run(${WORK_DIR}/pc-consumer)
message(STATUS "installed package works with find_package and pkg-config: ${last_output}")

if(NOT MPIEXEC)
  return()
endif()
find_program(MPICXX mpicxx REQUIRED)
run(${MPICXX} -O2 -I${SOURCE_DIR}/tests/support ${SOURCE_DIR}/tests/shim/programs/pdgemm_loop.cpp
    ${flags} -Wl,--no-as-needed -lhetscal -lscalapack-openmpi -o ${WORK_DIR}/relinked)
run(${MPIEXEC} --oversubscribe --allow-run-as-root -np 2 -x OPENBLAS_NUM_THREADS=1
    -x HETSCAL_SPEEDS=1,3 -x HETSCAL_FORCE=1 -x HETSCAL_MIN_N=0 -x HETSCAL_VERBOSE=1
    -x LD_LIBRARY_PATH ${WORK_DIR}/relinked 300 3)
string(REGEX MATCHALL "hetscal: summary: PDGEMM 3 computed, 0 forwarded" summaries "${last_output}")
list(LENGTH summaries ranks_reporting)
if(NOT last_output MATCHES "ALL CHECKS PASSED" OR NOT ranks_reporting EQUAL 2)
  message(FATAL_ERROR "the relinked program was not intercepted on both ranks:\n${last_output}")
endif()
message(STATUS "relinked ScaLAPACK program: 3 PDGEMM calls computed by hetscal on each of 2 ranks")
