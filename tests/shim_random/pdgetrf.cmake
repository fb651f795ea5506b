# Random PDGETRF cases (issue 10): a plain ScaLAPACK program (pdgetrf_random) checked against
# the exact factors, pivots and INFO each case is built from, against ScaLAPACK's own PDGETRF
# on a copy (IPIV's exact layout), and bit for bit outside the factors, on 1-9 processes and
# every grid of each count. Run on ScaLAPACK alone first: ScaLAPACK itself must pass them,
# which validates the oracle and the expected INFO values. The program is built for every
# precision (shim_random_p<x>getrf, programs_per_precision; issue 13).
programs_per_precision(getrf pxgetrf_random.cpp getrf_case.cpp getrf_check.cpp)

set(pdgetrf_cases_per_grid_1 200)
set(pdgetrf_cases_per_grid_2 40)
set(pdgetrf_cases_per_grid_4 20)
random_cases_on_scalapack(pdgetrf shim_random_pdgetrf 2 1 2 4)

# The checker can fail: each fault of a broken PDGETRF is caught by its own finding.
set(pdgetrf_caught_swaps_wrong_rows "first: wrong factor element")
set(pdgetrf_caught_pivot_off_by_one "first: IPIV unlike ScaLAPACK's: IPIV\\([0-9]+\\) = [0-9]+, expected [0-9]+")
set(pdgetrf_caught_ipiv_one_process_column "first: IPIV unlike ScaLAPACK's: IPIV\\([0-9]+\\) = -99")
set(pdgetrf_caught_info_zero_when_singular "first: INFO = 0, expected [1-9][0-9]*")
mutants_caught(pdgetrf shim_random_pdgetrf mutant_pdgetrf.cpp swaps_wrong_rows pivot_off_by_one
               ipiv_one_process_column info_zero_when_singular)

# The same program with libhetscal.so preloaded (random_cases_preloaded).
# HETSCAL_ROUTINES=pdgetrf leaves the PDGEMM updates of the ScaLAPACK reference run to
# ScaLAPACK (forced, hetscal would take each of them over).
# Fewer cases than PDPOTRF's (each case also runs ScaLAPACK's PDGETRF on a copy), so that the
# whole set stays near a minute on two cores.
set(preloaded_pdgetrf_cases_per_grid_1 40)
set(preloaded_pdgetrf_cases_per_grid_2 12)
set(preloaded_pdgetrf_cases_per_grid_3 12)
set(preloaded_pdgetrf_cases_per_grid_4 6)
set(preloaded_pdgetrf_cases_per_grid_5 5)
set(preloaded_pdgetrf_cases_per_grid_6 3)
set(preloaded_pdgetrf_cases_per_grid_7 3)
set(preloaded_pdgetrf_cases_per_grid_8 2)
set(preloaded_pdgetrf_cases_per_grid_9 2)
random_cases_preloaded(pdgetrf shim_random_pdgetrf 3 RANKS 1 2 3 4 5 6 7 8 9 LARGER_SEED 161
                       ENV HETSCAL_ROUTINES=pdgetrf)

# All-or-nothing PDGETRF calls (faults_forwarded): a partial move-out or an IPIV written
# before every rank agreed would show as factors or pivots unlike the expected ones.
# Each stage once (PDPOTRF's set covers the stages on more rank counts).
faults_forwarded(pdgetrf shim_random_pdgetrf 8 CASES 2:plan@0 4:allocate@1 2:move-in@0
                 4:compute@2 2:move-out@0 6:move-out@3 ENV HETSCAL_ROUTINES=pdgetrf)

# PSGETRF, PCGETRF and PZGETRF (issue 13): the same cases in the other precisions (complex
# factors of Gaussian integers, exact as the real ones: getrf_case.hpp), on ScaLAPACK alone and
# preloaded on 3, 4 and 6 processes.
random_cases_other_precisions(getrf SEED_DIGITS 1 4 5 ONLY_THIS_ROUTINE)

# Issue 28: the same cases computed in the caller's array (HETSCAL_TAKE_OVER=in-place): the
# tiles each rank keeps factored where ScaLAPACK's layout has them, only the surplus moved in
# and back, IPIV written as PDGETRF writes it; every computed call says "in place", and a
# singular matrix is computed too (the layout's tiles are ScaLAPACK's blocks: its INFO and
# factors, the factorization completed). The other precisions on 4 processes. A failure
# injected into any stage before the first write into A or IPIV (the kernel's allocation,
# "compute", and the move back's agreement included) forwards every call, A untouched.
random_cases_preloaded(pdgetrf shim_random_pdgetrf 3 RANKS 1 2 3 4 6 LARGER_SEED 161 IN_PLACE
                       ENV HETSCAL_ROUTINES=pdgetrf)
set(precisions s c z)
set(digits 1 4 5)
foreach(precision digit IN ZIP_LISTS precisions digits)
  set(preloaded_p${precision}getrf_cases_per_grid_4 ${preloaded_pdgetrf_cases_per_grid_4})
  random_cases_preloaded(p${precision}getrf shim_random_p${precision}getrf ${digit} RANKS 4 IN_PLACE
                         ENV HETSCAL_ROUTINES=p${precision}getrf)
endforeach()
faults_forwarded(pdgetrf shim_random_pdgetrf 8 SUFFIX _in_place ENV HETSCAL_ROUTINES=pdgetrf HETSCAL_TAKE_OVER=in-place
                 CASES 2:allocate@0 4:allocate@1 2:move-in@0 6:move-in@4 2:compute@0 4:compute@2 2:move-out@0
                       6:move-out@3)
