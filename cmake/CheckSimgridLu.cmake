# Smoke run of the simulated LU benchmarks (tests/bench/lu/run_simgrid.sh) at tiny sizes:
# builds them with smpicxx, runs them, and checks what they wrote. Each program itself fails
# unless every simulated factorisation injected exactly LAWN 41's 2N³/3 − N²/2 + 5N/6 flops
# with INFO = 0.
# Inputs: -DSOURCE_DIR= -DWORK_DIR= -DSMPIRUN= [-DBUILD_DIR=] (SimgridBuild.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/SimgridBuild.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/SimgridBenchChecks.cmake)
simgrid_build(bench_lu_nine_workstations bench_lu_switched_cluster)

# 9 workstations, 3×3 and 2×4 grids, N = 500 and 2000: every run near the model's time.
check_nine_workstations(${WORK_DIR}/smoke_nine_workstations_lu bench_lu_nine_workstations)

# Switched cluster, P = 23, N = 1500 in tiles of 50: the G-2DBC pattern has the paper's
# dimensions (Table I(a): 20×23 on all 23 nodes); its T is below 2DBC's on all 23 nodes (a
# p×q grid costs p + q: at least 24) and so is its simulated time (seed 002's Figure 7a); each
# simulated time, 2DBC on fewer nodes included, is within a factor of 2 of the model's.
set(prefix ${WORK_DIR}/smoke_switched_cluster_lu)
run_bench(${prefix} 23 switched_cluster_64 bench_lu_switched_cluster switched_cluster_64 1500 50 23)
read_rows(${prefix}.csv 1 rows)
string(REPLACE "|" ";" fields "${rows}")
list(GET fields 1 g2dbc_shape)
list(GET fields 2 g2dbc_T)
list(GET fields 3 g2dbc_s)
list(GET fields 7 cyclic_p_T)
list(GET fields 8 cyclic_p_s)
require("P = 23: G-2DBC is ${g2dbc_shape}, the paper's is 23:20x23" g2dbc_shape STREQUAL "23:20x23")
require("P = 23: G-2DBC T ${g2dbc_T} and ${g2dbc_s} s, 2DBC on all nodes T ${cyclic_p_T} and ${cyclic_p_s} s"
        cyclic_p_T GREATER g2dbc_T AND cyclic_p_s GREATER g2dbc_s)
require_runs_near_model("P = 23" "${fields}" "3,4,G-2DBC" "8,9,2DBC on P" "13,14,2DBC on fewer")
