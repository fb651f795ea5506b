# The same program with libhetscal.so preloaded (random_cases_preloaded). Fewer cases than on
# ScaLAPACK alone: each take-over plans and moves A twice, and the whole set stays near a
# minute on two cores.
set(preloaded_pdpotrf_cases_per_grid_1 60)
set(preloaded_pdpotrf_cases_per_grid_2 30)
set(preloaded_pdpotrf_cases_per_grid_3 30)
set(preloaded_pdpotrf_cases_per_grid_4 14)
set(preloaded_pdpotrf_cases_per_grid_5 16)
set(preloaded_pdpotrf_cases_per_grid_6 8)
set(preloaded_pdpotrf_cases_per_grid_7 10)
set(preloaded_pdpotrf_cases_per_grid_8 6)
set(preloaded_pdpotrf_cases_per_grid_9 6)
random_cases_preloaded(pdpotrf shim_random_pdpotrf 0 RANKS 1 2 3 4 5 6 7 8 9 LARGER_SEED 160)

# All-or-nothing calls (issue 8 point 3) for PDPOTRF: HETSCAL_TEST_FAULT makes one rank fail
# one stage of every taken-over call. Every call must then be forwarded on every rank,
# saying why, and the cases still pass: ScaLAPACK's factor of an A hetscal
# left as it was (a partial move-out would show as a wrong factor or a changed other triangle).
# The failing rank is one every grid holds (the subset grid leaves out the last rank on even
# counts: on 2 ranks only rank 0 is in every grid, its 1x1 subset grid included, which
# HETSCAL_FORCE takes over too), so no call may be computed at all.
faults_forwarded(pdpotrf shim_random_pdpotrf 9 CASES 2:plan@0 4:plan@2 2:allocate@0 4:allocate@1
                 2:move-in@0 6:move-in@4 2:compute@0 4:compute@2 2:move-out@0 6:move-out@3)

# PSPOTRF, PCPOTRF and PZPOTRF (issue 13): the same cases in the other precisions (complex
# matrices Hermitian, each factor within its precision's bound), on ScaLAPACK alone (the
# oracle validated) and preloaded on 3, 4 and 6 processes as PDPOTRF's.
random_cases_other_precisions(potrf SEED_DIGITS 5 6 7)

# Issue 28: the same cases computed in the caller's array (HETSCAL_TAKE_OVER=in-place): the
# tiles each rank keeps factored where ScaLAPACK's layout has them, only the surplus moved in
# and back; every computed call says "in place", and a matrix that is not positive definite
# is computed too (the layout's tiles are ScaLAPACK's blocks: its partial factor, to
# rounding). The other precisions on 4 processes. A failure injected into any stage before
# the first write into A (the move back's agreement included) forwards every call, A untouched.
random_cases_preloaded(pdpotrf shim_random_pdpotrf 0 RANKS 1 2 3 4 6 LARGER_SEED 160 IN_PLACE)
set(precisions s c z)
set(digits 5 6 7)
foreach(precision digit IN ZIP_LISTS precisions digits)
  set(preloaded_p${precision}potrf_cases_per_grid_4 ${preloaded_pdpotrf_cases_per_grid_4})
  random_cases_preloaded(p${precision}potrf shim_random_p${precision}potrf ${digit} RANKS 4 IN_PLACE)
endforeach()
faults_forwarded(pdpotrf shim_random_pdpotrf 9 SUFFIX _in_place ENV HETSCAL_TAKE_OVER=in-place
                 CASES 2:allocate@0 4:allocate@1 2:move-in@0 6:move-in@4 2:compute@0 4:compute@2 2:move-out@0
                       6:move-out@3)
