# Smoke run of the simulated Cholesky benchmarks (tests/bench/cholesky/run_simgrid.sh) at
# tiny sizes: builds them with smpicxx, runs them, and checks what they wrote. Each program
# itself fails unless every simulated factorisation injected exactly N³/3 + N²/2 + N/6 flops
# with INFO = 0.
# Inputs: -DSOURCE_DIR= -DWORK_DIR= -DSMPIRUN=
include(${CMAKE_CURRENT_LIST_DIR}/SimgridBuild.cmake)
simgrid_build(bench_cholesky_nine_workstations bench_cholesky_switched_cluster)

set(platforms ${SOURCE_DIR}/tests/simgrid/platforms)
set(ENV{OPENBLAS_NUM_THREADS} 1)
set(smpi_options --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc:global --log=root.thres:warning)

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

# 9 workstations, N = 500 and 2000: every run's simulated time within a factor of 2 of the
# planner's model of it, for the plan and for 2DBC on the same ranks.
set(prefix ${WORK_DIR}/smoke_nine_workstations_cholesky)
file(REMOVE ${prefix}.csv ${prefix}.svg)
run(${SMPIRUN} -np 9 -platform ${platforms}/nine_workstations.xml -hostfile ${platforms}/nine_workstations.hosts
    ${smpi_options} ${WORK_DIR}/tests/simgrid/bench_cholesky_nine_workstations ${prefix} 500,2000)
read_rows(${prefix}.csv 2 rows)
foreach(row ${rows})
  string(REPLACE "|" ";" fields "${row}")
  list(GET fields 0 n)
  require_runs_near_model("N = ${n}" "${fields}" "6,11,2DBC" "7,12,plan")
endforeach()
require("${prefix}.svg was not written" EXISTS ${prefix}.svg)

# Switched cluster, P = 23, N = 1500 in tiles of 50, 2 GCR&M seeds per size: GCR&M's cost T
# is below both 2DBC's (23×1 costs 23; any p×q on fewer nodes costs p + q − 1 >= 2√k − 1),
# and each simulated time is within a factor of 2 of the model's.
set(prefix ${WORK_DIR}/smoke_switched_cluster_cholesky)
file(REMOVE ${prefix}.csv ${prefix}.svg)
run(${SMPIRUN} -np 23 -platform ${platforms}/switched_cluster_64.xml -hostfile ${platforms}/switched_cluster_64.hosts
    ${smpi_options} ${WORK_DIR}/tests/simgrid/bench_cholesky_switched_cluster ${prefix} switched_cluster_64 1500 50 2 23)
read_rows(${prefix}.csv 1 rows)
string(REPLACE "|" ";" fields "${rows}")
list(GET fields 2 gcrm_T)
list(GET fields 7 cyclic_p_T)
list(GET fields 12 cyclic_fewer_T)
require("P = 23: GCR&M T ${gcrm_T} not below 2DBC's ${cyclic_p_T} and ${cyclic_fewer_T}"
        cyclic_p_T GREATER gcrm_T AND cyclic_fewer_T GREATER gcrm_T)
require_runs_near_model("P = 23" "${fields}" "3,4,GCR&M" "8,9,2DBC on P" "13,14,2DBC on fewer")
require("${prefix}.svg was not written" EXISTS ${prefix}.svg)
