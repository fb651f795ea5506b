# The same program with libhetscal.so preloaded: heterogeneous speeds, HETSCAL_MIN_N=0 and
# HETSCAL_FORCE=1 so that every call hetscal may compute is taken over. On 2-9 processes
# check_computed.sh also asserts that hetscal computed at least 90% of those calls (per-call
# lines) and that the exit summaries show PDPOTRF computed; one process has only 1x1 grids,
# which hetscal forwards.
hetscal_add_mpi_test(NAME shim_random_pdpotrf_1ranks RANKS 1
  COMMAND -x LD_PRELOAD=$<TARGET_FILE:hetscal> -x HETSCAL_MIN_N=0 -x HETSCAL_FORCE=1
          $<TARGET_FILE:shim_random_pdpotrf> --cases-per-grid 60 --seed 101)
set_tests_properties(shim_random_pdpotrf_1ranks PROPERTIES TIMEOUT 300 LABELS "shim;mpi"
  PASS_REGULAR_EXPRESSION "hetscal-random: [1-9][0-9]* passed, 0 failed")
# Fewer cases than on ScaLAPACK alone: each take-over plans and moves A twice, and the whole
# set stays near a minute on two cores.
set(preloaded_cases_per_grid_2 30)
set(preloaded_cases_per_grid_3 30)
set(preloaded_cases_per_grid_4 14)
set(preloaded_cases_per_grid_5 16)
set(preloaded_cases_per_grid_6 8)
set(preloaded_cases_per_grid_7 10)
set(preloaded_cases_per_grid_8 6)
set(preloaded_cases_per_grid_9 6)
foreach(ranks RANGE 2 9)
  speeds_for(${ranks} speeds)
  add_test(NAME shim_random_pdpotrf_${ranks}ranks
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/check_computed.sh --routine PDPOTRF ${MPIEXEC_EXECUTABLE}
            $<TARGET_FILE:hetscal> $<TARGET_FILE:shim_random_pdpotrf> ${ranks} 90
            HETSCAL_SPEEDS=${speeds} HETSCAL_MIN_N=0 HETSCAL_FORCE=1
            -- --cases-per-grid ${preloaded_cases_per_grid_${ranks}} --seed ${ranks}0${ranks})
  set_tests_properties(shim_random_pdpotrf_${ranks}ranks PROPERTIES PROCESSORS ${ranks}
    TIMEOUT 300 LABELS "shim;mpi"
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
endforeach()
# Larger orders (up to 160) on 4 processes: hetscal's plans then use tiles of several rows.
add_test(NAME shim_random_pdpotrf_4ranks_larger
  COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/check_computed.sh --routine PDPOTRF ${MPIEXEC_EXECUTABLE}
          $<TARGET_FILE:hetscal> $<TARGET_FILE:shim_random_pdpotrf> 4 90
          HETSCAL_SPEEDS=1,3,2,5 HETSCAL_MIN_N=0 HETSCAL_FORCE=1
          -- --cases-per-grid 8 --seed 160 --max-dimension 160)
set_tests_properties(shim_random_pdpotrf_4ranks_larger PROPERTIES PROCESSORS 4 TIMEOUT 300
  LABELS "shim;mpi" ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")

# All-or-nothing calls (issue 8 point 3) for PDPOTRF: HETSCAL_TEST_FAULT makes one rank fail
# one stage of every taken-over call. Every call must then be forwarded on every rank,
# saying why, and the cases still pass: ScaLAPACK's factor of an A hetscal
# left as it was (a partial move-out would show as a wrong factor or a changed other triangle).
# The failing rank is one every grid holds (the subset grid leaves out the last rank on even
# counts: on 2 ranks only rank 0 is in every grid, its 1x1 subset grid included, which
# HETSCAL_FORCE takes over too), so no call may be computed at all.
foreach(case "2:plan@0" "4:plan@2" "2:allocate@0" "4:allocate@1" "2:move-in@0" "6:move-in@4"
             "2:compute@0" "4:compute@2" "2:move-out@0" "6:move-out@3")
  string(REGEX REPLACE ":.*" "" ranks "${case}")
  string(REGEX REPLACE "^[0-9]+:" "" fault "${case}")
  string(REGEX REPLACE "@.*" "" stage "${fault}")
  string(REGEX REPLACE "[@,]" "_" name "${fault}")
  speeds_for(${ranks} speeds)
  add_test(NAME shim_fault_pdpotrf_${name}_${ranks}ranks
    COMMAND ${CMAKE_CURRENT_SOURCE_DIR}/check_computed.sh --routine PDPOTRF --fault ${stage}
            ${MPIEXEC_EXECUTABLE} $<TARGET_FILE:hetscal> $<TARGET_FILE:shim_random_pdpotrf> ${ranks} 0
            HETSCAL_SPEEDS=${speeds} HETSCAL_MIN_N=0 HETSCAL_FORCE=1 HETSCAL_TEST_FAULT=${fault}
            -- --cases-per-grid 2 --seed 9${ranks})
  set_tests_properties(shim_fault_pdpotrf_${name}_${ranks}ranks PROPERTIES PROCESSORS ${ranks}
    TIMEOUT 120 LABELS "shim;mpi;fault"
    ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
endforeach()
