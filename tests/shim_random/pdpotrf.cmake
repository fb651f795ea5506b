# Random PDPOTRF cases (issue 9): a plain ScaLAPACK program (pdpotrf_random) checked against
# a long-double plain-loop Cholesky and bit for bit outside the factor, on 1-9 processes and
# every grid of each count. Run on ScaLAPACK alone first: ScaLAPACK itself must pass them,
# which validates the oracle and the expected INFO values.
add_executable(shim_random_pdpotrf pdpotrf_random.cpp potrf_case.cpp potrf_check.cpp)
target_link_libraries(shim_random_pdpotrf PRIVATE shim_random_common)
target_compile_options(shim_random_pdpotrf PRIVATE ${HETSCAL_WARNINGS})

set(potrf_cases_per_grid_1 200)
set(potrf_cases_per_grid_2 40)
set(potrf_cases_per_grid_3 40)
set(potrf_cases_per_grid_4 20)
set(potrf_cases_per_grid_5 30)
set(potrf_cases_per_grid_6 12)
set(potrf_cases_per_grid_7 20)
set(potrf_cases_per_grid_8 10)
set(potrf_cases_per_grid_9 12)
foreach(ranks RANGE 1 9)
  hetscal_add_mpi_test(NAME shim_random_pdpotrf_${ranks}ranks_scalapack RANKS ${ranks}
    COMMAND $<TARGET_FILE:shim_random_pdpotrf> --cases-per-grid ${potrf_cases_per_grid_${ranks}}
            --seed ${ranks}1${ranks})
  set_tests_properties(shim_random_pdpotrf_${ranks}ranks_scalapack PROPERTIES TIMEOUT 300
    LABELS "shim;mpi" PASS_REGULAR_EXPRESSION "hetscal-random: [1-9][0-9]* passed, 0 failed")
endforeach()

# The checker can fail: a broken PDPOTRF (ScaLAPACK's, then one fault) preloaded instead of
# hetscal must be caught, each fault by its own finding.
add_library(shim_random_mutant_pdpotrf MODULE mutant_pdpotrf.cpp)
target_link_libraries(shim_random_mutant_pdpotrf PRIVATE hetscal_scalapack MPI::MPI_C ${CMAKE_DL_LIBS})
target_include_directories(shim_random_mutant_pdpotrf PRIVATE ${PROJECT_SOURCE_DIR}/tests/support)
target_compile_options(shim_random_mutant_pdpotrf PRIVATE ${HETSCAL_WARNINGS})
set(potrf_caught_zeroes_other_triangle "first: other triangle changed")
set(potrf_caught_info_off_by_one "first: INFO = [0-9]+, expected [1-9]")
set(potrf_caught_info_on_owner_only "INFO 0 \\(expected [1-9][0-9]*\\)")
set(potrf_caught_writes_padding "first: A padding changed")
set(potrf_caught_factors_one_less "[1-9][0-9]* wrong in the factor")
set(potrf_caught_writes_past_end "first: A changed outside sub\\(A\\)")
set(potrf_caught_accepts_misaligned "first: INFO = 0, expected -[45]; sub\\(A\\) changed by a call")
set(potrf_caught_lowercase_u_as_lower "UPLO=u .*\n.*first: (wrong factor element|other triangle changed)")
foreach(mutation zeroes_other_triangle info_off_by_one info_on_owner_only writes_padding
                 factors_one_less writes_past_end accepts_misaligned lowercase_u_as_lower)
  hetscal_add_mpi_test(NAME shim_random_pdpotrf_catches_${mutation} RANKS 2
    COMMAND -x LD_PRELOAD=$<TARGET_FILE:shim_random_mutant_pdpotrf> -x SHIM_RANDOM_MUTATION=${mutation}
            $<TARGET_FILE:shim_random_pdpotrf> --cases-per-grid 20 --seed 5)
  set_tests_properties(shim_random_pdpotrf_catches_${mutation} PROPERTIES TIMEOUT 120
    LABELS "shim;mpi" PASS_REGULAR_EXPRESSION "${potrf_caught_${mutation}}")
endforeach()
