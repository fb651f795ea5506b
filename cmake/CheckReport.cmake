# The report_smoke test: tests/report/run.sh at its smoke scale into WORK_DIR (emptied
# first), then tests/report/check_report.py: report.md written, and each figure below in it
# as a PNG that decodes, besides every other picture it links.
# Inputs: -DSOURCE_DIR= -DBUILD_DIR= -DWORK_DIR= -DPYTHON=
include(${CMAKE_CURRENT_LIST_DIR}/SimgridBuild.cmake)  # run()

set(figures nine_workstations_gemm nine_workstations_lu nine_workstations_qr
    nine_workstations_cholesky nine_workstations_adaptive switched_cluster_64_lu switched_cluster_64_cholesky table_one
    real_two_ranks plan_nine_workstations_3x3 plan_nine_workstations_2x4 plan_two_ranks_1_to_3
    plan_g2dbc_23_nodes plan_gcrm_23_nodes)
file(REMOVE_RECURSE ${WORK_DIR})
run(${CMAKE_COMMAND} -E env HETSCAL_BUILD_DIR=${BUILD_DIR} HETSCAL_PYTHON=${PYTHON}
    bash ${SOURCE_DIR}/tests/report/run.sh smoke ${WORK_DIR})
run(${PYTHON} ${SOURCE_DIR}/tests/report/check_report.py ${WORK_DIR} ${figures})
