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

# 9 workstations, N = 500 and 2000: at 2000 the plan (a heterogeneous pattern on the fast
# hosts) must beat 2DBC on the same ranks, as the model predicts by a factor of 3.
set(prefix ${WORK_DIR}/smoke_nine_workstations_cholesky)
file(REMOVE ${prefix}.csv ${prefix}.svg)
run(${SMPIRUN} -np 9 -platform ${platforms}/nine_workstations.xml -hostfile ${platforms}/nine_workstations.hosts
    ${smpi_options} ${WORK_DIR}/tests/simgrid/bench_cholesky_nine_workstations ${prefix} 500,2000)
read_rows(${prefix}.csv 2 rows)
list(GET rows 1 row)
string(REPLACE "|" ";" fields "${row}")
list(GET fields 6 cyclic_s)
list(GET fields 7 plan_s)
require("N = 2000: plan ${plan_s} s is not faster than 2DBC ${cyclic_s} s" plan_s GREATER 0 AND cyclic_s GREATER plan_s)
require("${prefix}.svg was not written" EXISTS ${prefix}.svg)

# Switched cluster, P = 23, N = 1500 in tiles of 50, 2 GCR&M seeds per size: GCR&M's cost T
# is below both 2DBC's (23×1 costs 23; any p×q on fewer nodes costs p + q − 1 >= 2√k − 1).
set(prefix ${WORK_DIR}/smoke_switched_cluster_cholesky)
file(REMOVE ${prefix}.csv ${prefix}.svg)
run(${SMPIRUN} -np 23 -platform ${platforms}/switched_cluster_64.xml -hostfile ${platforms}/switched_cluster_64.hosts
    ${smpi_options} ${WORK_DIR}/tests/simgrid/bench_cholesky_switched_cluster ${prefix} switched_cluster_64 1500 50 2 23)
read_rows(${prefix}.csv 1 rows)
string(REPLACE "|" ";" fields "${rows}")
list(GET fields 2 gcrm_T)
list(GET fields 3 gcrm_s)
list(GET fields 7 cyclic_p_T)
list(GET fields 12 cyclic_fewer_T)
require("P = 23: GCR&M T ${gcrm_T} not below 2DBC's ${cyclic_p_T} and ${cyclic_fewer_T}"
        gcrm_s GREATER 0 AND cyclic_p_T GREATER gcrm_T AND cyclic_fewer_T GREATER gcrm_T)
require("${prefix}.svg was not written" EXISTS ${prefix}.svg)
