# Smoke run of the simulated QR benchmark (tests/bench/qr/run_simgrid.sh) at tiny sizes:
# builds it with smpicxx, runs it, and checks what it wrote. The program itself fails unless
# every simulated factorisation injected exactly the blocked Householder QR's flop count.
# Inputs: -DSOURCE_DIR= -DWORK_DIR= -DSMPIRUN= [-DBUILD_DIR=] (SimgridBuild.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/SimgridBuild.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/SimgridBenchChecks.cmake)
simgrid_build(bench_qr_nine_workstations)

# 9 workstations, 3×3 and 2×4 grids, N = 500 and 2000: every run near the model's time.
check_nine_workstations(${WORK_DIR}/smoke_nine_workstations_qr bench_qr_nine_workstations)
