# Shared by the SimGrid checks (cmake -P scripts): run() a command or fail with its output,
# and simgrid_build() hetscal's MPI-only layers and the given simulated programs with
# SimGrid's smpicxx in a separate build tree.
# Inputs of the including script: -DSOURCE_DIR= -DWORK_DIR= [-DBUILD_DIR=]
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  message("${out}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
endfunction()

# simgrid_build(<target>...): configures WORK_DIR for SimGrid and builds the targets; given
# -DBUILD_DIR= (the Open MPI build), with its core and layout (HETSCAL_MPI_FREE_LAYERS).
function(simgrid_build)
  set(reuse)
  if(BUILD_DIR)
    set(reuse -DHETSCAL_MPI_FREE_LAYERS=${BUILD_DIR})
  endif()
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR} -DHETSCAL_SIMGRID=ON
      -DCMAKE_C_COMPILER=smpicc -DCMAKE_CXX_COMPILER=smpicxx -DCMAKE_BUILD_TYPE=Release
      -DHETSCAL_BUILD_BENCHMARKS=OFF ${reuse})
  run(${CMAKE_COMMAND} --build ${WORK_DIR} --target ${ARGV} -j 2)
endfunction()
