# Random PDPOTRF cases (issue 9): a plain ScaLAPACK program (pdpotrf_random) checked against
# a long-double plain-loop Cholesky and bit for bit outside the factor, on 1-9 processes and
# every grid of each count. Run on ScaLAPACK alone first: ScaLAPACK itself must pass them,
# which validates the oracle and the expected INFO values.
programs_per_precision(potrf pxpotrf_random.cpp potrf_case.cpp potrf_check.cpp)

set(pdpotrf_cases_per_grid_1 200)
set(pdpotrf_cases_per_grid_2 40)
set(pdpotrf_cases_per_grid_3 40)
set(pdpotrf_cases_per_grid_4 20)
set(pdpotrf_cases_per_grid_5 30)
set(pdpotrf_cases_per_grid_6 12)
set(pdpotrf_cases_per_grid_7 20)
set(pdpotrf_cases_per_grid_8 10)
set(pdpotrf_cases_per_grid_9 12)
random_cases_on_scalapack(pdpotrf shim_random_pdpotrf 1 1 2 3 4 5 6 7 8 9)

# The checker can fail: a broken PDPOTRF (ScaLAPACK's, then one fault) preloaded instead of
# hetscal must be caught, each fault by its own finding.
set(pdpotrf_caught_zeroes_other_triangle "first: other triangle changed")
set(pdpotrf_caught_info_off_by_one "first: INFO = [0-9]+, expected [1-9]")
set(pdpotrf_caught_info_on_owner_only "INFO 0 \\(expected [1-9][0-9]*\\)")
set(pdpotrf_caught_writes_padding "first: A padding changed")
set(pdpotrf_caught_factors_one_less "[1-9][0-9]* wrong in the factor")
set(pdpotrf_caught_writes_past_end "first: A changed outside sub\\(A\\)")
set(pdpotrf_caught_accepts_misaligned "first: INFO = 0, expected -[45]; sub\\(A\\) changed by a call")
set(pdpotrf_caught_lowercase_u_as_lower "UPLO=u .*\n.*first: (wrong factor element|other triangle changed)")
mutants_caught(pdpotrf shim_random_pdpotrf mutant_pdpotrf.cpp zeroes_other_triangle
               info_off_by_one info_on_owner_only writes_padding factors_one_less writes_past_end
               accepts_misaligned lowercase_u_as_lower)
