# Builds hetscal's MPI-only layers and the simulated programs with SimGrid's smpicxx (a
# separate build tree), then runs the smoke test on the simulated platforms.
# Inputs: -DSOURCE_DIR= -DWORK_DIR= -DSMPIRUN= [-DBUILD_DIR=] (SimgridBuild.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/SimgridBuild.cmake)
simgrid_build(simgrid_smoke simgrid_speed_change)

set(platforms ${SOURCE_DIR}/tests/simgrid/platforms)
set(ENV{OPENBLAS_NUM_THREADS} 1)
# Host speeds in flop/s, in hostfile order (the platform files say where they come from).
set(nine_workstations_speeds "12.8205128205e6,100e6,100e6,25e6,100e6,15.873015873e6,12.8205128205e6,12.5786163522e6,12.5e6")
set(mixed_generations_speeds "4e9,4e9,4e9,8e9,8e9,8e9,16e9,16e9,16e9")
set(mixed_generations_hosts "old-0;old-1;old-2;mid-8;mid-9;mid-10;new-16;new-17;new-18")
file(WRITE ${WORK_DIR}/mixed.hosts "")
foreach(h ${mixed_generations_hosts})
  file(APPEND ${WORK_DIR}/mixed.hosts "${h}\n")
endforeach()

foreach(case nine_workstations mixed_generations)
  if(case STREQUAL "mixed_generations")
    set(hostfile ${WORK_DIR}/mixed.hosts)
  else()
    set(hostfile ${platforms}/${case}.hosts)
  endif()
  run(${SMPIRUN} -np 9 -platform ${platforms}/${case}.xml -hostfile ${hostfile}
      --cfg=smpi/simulate-computation:no --log=root.thres:warning
      ${WORK_DIR}/tests/simgrid/simgrid_smoke ${${case}_speeds})
endforeach()

# The 9 workstations with guinness (rank 1) 3x slower from 100,000 simulated seconds on: the
# platform loads, and its speed profile takes effect when it says.
run(${SMPIRUN} -np 9 -platform ${platforms}/nine_workstations_slowing.xml
    -hostfile ${platforms}/nine_workstations_slowing.hosts
    --cfg=smpi/simulate-computation:no --log=root.thres:warning
    ${WORK_DIR}/tests/simgrid/simgrid_speed_change ${nine_workstations_speeds} 1 100000 3)
