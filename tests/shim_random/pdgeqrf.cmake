# Random PDGEQRF cases (issue 11): a plain ScaLAPACK program (pdgeqrf_random) checked against
# ScaLAPACK's own PDGEQRF on a copy (R, reflectors and TAU to rounding, TAU's exact layout,
# LWORK queries and WORK(1) identical) and bit for bit outside the factors, on 1-9 processes
# and every grid of each count. Run on ScaLAPACK alone first: ScaLAPACK itself must pass them,
# which validates the checker's bounds and expected INFO values. The program is built for
# every precision (shim_random_p<x>geqrf, programs_per_precision; issue 13).
programs_per_precision(geqrf pxgeqrf_random.cpp geqrf_case.cpp geqrf_check.cpp)

set(pdgeqrf_cases_per_grid_1 100)
set(pdgeqrf_cases_per_grid_4 10)
random_cases_on_scalapack(pdgeqrf shim_random_pdgeqrf 4 1 4)

# The checker can fail: each fault of a broken PDGEQRF is caught by its own finding.
set(pdgeqrf_caught_wrong_tau "first: TAU unlike ScaLAPACK's")
set(pdgeqrf_caught_reflector_off_by_one "first: sub\\(A\\) unlike ScaLAPACK's")
set(pdgeqrf_caught_tau_wrong_process_column "first: TAU (not written where ScaLAPACK writes it|written where ScaLAPACK leaves it)")
mutants_caught(pdgeqrf shim_random_pdgeqrf mutant_pdgeqrf.cpp wrong_tau reflector_off_by_one
               tau_wrong_process_column)

# The same program with libhetscal.so preloaded (random_cases_preloaded), every rank count.
# HETSCAL_ROUTINES=pdgeqrf leaves the PDGEMMs of the ScaLAPACK reference run to ScaLAPACK.
# Few cases per grid (each also runs ScaLAPACK's PDGEQRF on a copy) to stay near half a minute.
set(preloaded_pdgeqrf_cases_per_grid_1 30)
set(preloaded_pdgeqrf_cases_per_grid_2 10)
set(preloaded_pdgeqrf_cases_per_grid_3 8)
set(preloaded_pdgeqrf_cases_per_grid_4 5)
set(preloaded_pdgeqrf_cases_per_grid_5 4)
set(preloaded_pdgeqrf_cases_per_grid_6 3)
set(preloaded_pdgeqrf_cases_per_grid_7 3)
set(preloaded_pdgeqrf_cases_per_grid_8 2)
set(preloaded_pdgeqrf_cases_per_grid_9 2)
random_cases_preloaded(pdgeqrf shim_random_pdgeqrf 5 RANKS 1 2 3 4 5 6 7 8 9 LARGER_SEED 162
                       ENV HETSCAL_ROUTINES=pdgeqrf)

# All-or-nothing PDGEQRF calls (faults_forwarded): a partial move-out or a TAU written before
# every rank agreed would show as factors or TAU unlike ScaLAPACK's.
faults_forwarded(pdgeqrf shim_random_pdgeqrf 9 CASES 2:plan@0 4:allocate@1 2:move-in@0
                 4:compute@2 2:move-out@0 6:move-out@3 ENV HETSCAL_ROUTINES=pdgeqrf)

# PSGEQRF, PCGEQRF and PZGEQRF (issue 13): the same cases in the other precisions (complex
# entries, R's diagonal real, bounds in each precision's epsilon), on ScaLAPACK alone (the
# checker validated) and preloaded on 3, 4 and 6 processes as PDGEQRF's.
random_cases_other_precisions(geqrf SEED_DIGITS 6 7 8 ONLY_THIS_ROUTINE)

# Issue 28: the same cases computed in the caller's array (HETSCAL_TAKE_OVER=in-place), drawn
# with square blocks aligned alike in rows and columns (--square-blocks: the in-place route
# keeps the caller's blocks as its tiles, which the QR kernel needs square; a call with
# MB != NB, which PDGEQRF allows, is forwarded under in-place). The tiles each rank keeps are
# factored where ScaLAPACK's layout has them, only the surplus moved in and back, TAU written
# as PDGEQRF writes it; every computed call says "in place"; R, the reflectors and TAU against
# ScaLAPACK's to rounding (the layout's tiles are ScaLAPACK's blocks). The other precisions on
# 4 processes. A failure injected into any stage before the first write into A or TAU (the
# kernel's allocation, "compute", and the move back's agreement included) forwards every call,
# A untouched.
random_cases_preloaded(pdgeqrf shim_random_pdgeqrf 5 RANKS 1 2 3 4 6 LARGER_SEED 162 IN_PLACE
                       ARGS --square-blocks ENV HETSCAL_ROUTINES=pdgeqrf)
set(precisions s c z)
set(digits 6 7 8)
foreach(precision digit IN ZIP_LISTS precisions digits)
  set(preloaded_p${precision}geqrf_cases_per_grid_4 ${preloaded_pdgeqrf_cases_per_grid_4})
  random_cases_preloaded(p${precision}geqrf shim_random_p${precision}geqrf ${digit} RANKS 4 IN_PLACE
                         ARGS --square-blocks ENV HETSCAL_ROUTINES=p${precision}geqrf)
endforeach()
faults_forwarded(pdgeqrf shim_random_pdgeqrf 9 SUFFIX _in_place ARGS --square-blocks
                 ENV HETSCAL_ROUTINES=pdgeqrf HETSCAL_TAKE_OVER=in-place
                 CASES 2:allocate@0 4:allocate@1 2:move-in@0 6:move-in@4 2:compute@0 4:compute@2 2:move-out@0
                       6:move-out@3)
