# Smoke run of the simulated Cholesky benchmarks (tests/bench/cholesky/run_simgrid.sh) at
# tiny sizes: builds them with smpicxx, runs them, and checks what they wrote. Each program
# itself fails unless every simulated factorisation injected exactly N³/3 + N²/2 + N/6 flops
# with INFO = 0.
# Inputs: -DSOURCE_DIR= -DWORK_DIR= -DSMPIRUN= [-DBUILD_DIR=] (SimgridBuild.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/SimgridBuild.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/SimgridBenchChecks.cmake)
simgrid_build(bench_cholesky_nine_workstations bench_cholesky_switched_cluster)

# 9 workstations, N = 500 and 2000: every run's simulated time within a factor of 2 of the
# planner's model of it, for the plan and for 2DBC on the same ranks.
set(prefix ${WORK_DIR}/smoke_nine_workstations_cholesky)
run_bench(${prefix} 9 nine_workstations bench_cholesky_nine_workstations 500,2000)
read_rows(${prefix}.csv 2 rows)
foreach(row ${rows})
  string(REPLACE "|" ";" fields "${row}")
  list(GET fields 0 n)
  require_runs_near_model("N = ${n}" "${fields}" "6,11,2DBC" "7,12,plan")
endforeach()

# Switched cluster, P = 23, N = 1500 in tiles of 50, 2 GCR&M seeds per size: GCR&M's cost T
# is below both 2DBC's (23×1 costs 23; any p×q on fewer nodes costs p + q − 1 >= 2√k − 1),
# and each simulated time is within a factor of 2 of the model's.
set(prefix ${WORK_DIR}/smoke_switched_cluster_cholesky)
run_bench(${prefix} 23 switched_cluster_64 bench_cholesky_switched_cluster switched_cluster_64 1500 50 2 23)
read_rows(${prefix}.csv 1 rows)
string(REPLACE "|" ";" fields "${rows}")
list(GET fields 2 gcrm_T)
list(GET fields 7 cyclic_p_T)
list(GET fields 12 cyclic_fewer_T)
require("P = 23: GCR&M T ${gcrm_T} not below 2DBC's ${cyclic_p_T} and ${cyclic_fewer_T}"
        cyclic_p_T GREATER gcrm_T AND cyclic_fewer_T GREATER gcrm_T)
require_runs_near_model("P = 23" "${fields}" "3,4,GCR&M" "8,9,2DBC on P" "13,14,2DBC on fewer")
