# Shared by the checks of the simulated benchmarks (cmake -P scripts): where the platforms
# are and how smpirun runs a benchmark (flops injected, matrices in shared memory), the CSV a
# benchmark wrote read as CMake lists, and requirements on its fields that fail with a
# message. Inputs of the including script: -DSOURCE_DIR=

set(platforms ${SOURCE_DIR}/tests/simgrid/platforms)
set(ENV{OPENBLAS_NUM_THREADS} 1)
# smpi/test as tests/simgrid/run_benchmark.sh: a real MPI's cost of MPI_Test, not SimGrid's 100 µs.
set(smpi_options --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc:global --cfg=smpi/test:1e-6
    --log=root.thres:warning)

# run_bench(<prefix> <ranks> <platform> <program> [args...]): runs the simulated benchmark
# <program> with <ranks> ranks on tests/simgrid/platforms/<platform>.{xml,hosts}, writing
# <prefix>.csv (an old one removed first); fails unless it was written.
# Inputs of the including script: -DWORK_DIR= -DSMPIRUN=
function(run_bench prefix ranks platform program)
  file(REMOVE ${prefix}.csv)
  run(${SMPIRUN} -np ${ranks} -platform ${platforms}/${platform}.xml -hostfile ${platforms}/${platform}.hosts
      ${smpi_options} ${WORK_DIR}/tests/simgrid/${program} ${prefix} ${ARGN})
  require("${prefix}.csv was not written" EXISTS ${prefix}.csv)
endfunction()

# The CSV's data rows as CMake lists (one field per element); fails unless there are `count`.
function(read_rows csv count out)
  if(NOT EXISTS ${csv})
    message(FATAL_ERROR "${csv} was not written")
  endif()
  file(STRINGS ${csv} lines)
  list(REMOVE_AT lines 0)  # the header
  list(LENGTH lines found)
  if(NOT found EQUAL count)
    message(FATAL_ERROR "${csv}: ${found} data rows, ${count} expected")
  endif()
  set(rows)
  foreach(line ${lines})
    string(REPLACE "," "|" line "${line}")  # one row per list element; fields split below
    list(APPEND rows "${line}")
  endforeach()
  set(${out} ${rows} PARENT_SCOPE)
endfunction()

function(require condition_text)
  if(NOT (${ARGN}))
    message(FATAL_ERROR "${condition_text}")
  endif()
endfunction()

# Microseconds of a CSV time written with 6 decimals ("10.187525" -> 10187525), so that
# CMake's integer math can compare it.
function(microseconds seconds out)
  string(REPLACE "." "" digits "${seconds}")
  if(NOT digits MATCHES "^0*([0-9]+)$")  # leading zeros dropped: math() must not read octal
    message(FATAL_ERROR "'${seconds}' is not a time in seconds")
  endif()
  set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()

# A simulated time within a factor of 2 of the planner's model of the same run: both describe
# the same platform, so a kernel or a plan that strays further is a bug.
function(require_within_two what simulated_s model_s)
  microseconds(${simulated_s} simulated)
  microseconds(${model_s} model)
  math(EXPR twice_simulated "2 * ${simulated}")
  math(EXPR twice_model "2 * ${model}")
  require("${what}: simulated ${simulated_s} s, the model ${model_s} s"
          simulated GREATER 0 AND NOT model GREATER twice_simulated AND NOT simulated GREATER twice_model)
endfunction()

# require_within_two for each run of one CSV row: every further argument is "simulated time's
# field,model time's field,name of the run".
function(require_runs_near_model what fields)
  foreach(run ${ARGN})
    string(REPLACE "," ";" run "${run}")
    list(GET run 0 simulated_at)
    list(GET run 1 model_at)
    list(GET run 2 name)
    list(GET fields ${simulated_at} simulated_s)
    list(GET fields ${model_at} model_s)
    require_within_two("${what}, ${name}" ${simulated_s} ${model_s})
  endforeach()
endfunction()

# check_nine_workstations(<prefix> <program>): runs a factorisation benchmark on the 9
# workstations (tests/simgrid/nine_workstations_factorization.hpp: 3×3 and 2×4 grids, here
# N = 500 and 2000) and requires every run's simulated time within a factor of 2 of the
# planner's model of it, for 2DBC and for the heterogeneous grid with either panel rank.
function(check_nine_workstations prefix program)
  run_bench(${prefix} 9 nine_workstations ${program} 500,2000)
  read_rows(${prefix}.csv 4 rows)
  foreach(row ${rows})
    string(REPLACE "|" ";" fields "${row}")
    list(GET fields 0 grid)
    list(GET fields 1 n)
    require_runs_near_model("${program}, ${grid}, N = ${n}" "${fields}" "7,13,2DBC" "8,14,hetero"
                            "9,15,hetero with panels on the fastest rank")
  endforeach()
endfunction()

