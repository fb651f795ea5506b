# Smoke run of the simulated adaptive scenario (tests/bench/adaptive/run_simgrid.sh) at a tiny
# size: N = 1000, 8 calls, guinness (rank 1) 3x slower from call 3. Requires, from the CSV:
#   - the platform did slow rank 1's host 3x from the change call on, and not before;
#   - the adaptive variant kept its plan before the change and re-planned within 3 calls of
#     it (calls 3-5), for a speed of rank 1 within 15 % of its host's new speed;
#   - its calls from the change on took less time in all than the static variant's.
# Inputs: -DSOURCE_DIR= -DWORK_DIR= -DSMPIRUN= [-DBUILD_DIR=] (SimgridBuild.cmake)
cmake_policy(VERSION 3.18)  # lists keep empty elements (2dbc's planned speed is empty)
include(${CMAKE_CURRENT_LIST_DIR}/SimgridBuild.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/SimgridBenchChecks.cmake)
simgrid_build(bench_adaptive_nine_workstations)

set(prefix ${WORK_DIR}/smoke_nine_workstations_adaptive)
set(calls 8)
run_bench(${prefix} 9 nine_workstations_slowing bench_adaptive_nine_workstations 1000 ${calls})
math(EXPR count "4 * ${calls}")  # static, adaptive, oracle, 2dbc
read_rows(${prefix}.csv ${count} rows)

# Fields: routine, n, scenario, change_call, call, seconds, planned_speed, actual_speed.
set(static_after 0)
set(adaptive_after 0)
set(replanned_at 0)
foreach(row ${rows})
  string(REPLACE "|" ";" fields "${row}")
  list(GET fields 2 scenario)
  list(GET fields 3 change)
  list(GET fields 4 call)
  list(GET fields 5 seconds)
  list(GET fields 6 planned)
  list(GET fields 7 actual)
  if(call EQUAL 1)
    set(starting_speed ${actual})
    set(starting_plan ${planned})
  endif()
  # The host: at full speed before the change, a third of it from the change on.
  math(EXPR third "${starting_speed} / 3")  # flop/s rounded down, the CSV's rounded
  math(EXPR third_up "${third} + 1")
  if(call LESS change)
    require("${scenario}, call ${call}: rank 1's host at ${actual} flop/s before the change"
            actual EQUAL starting_speed)
  else()
    require("${scenario}, call ${call}: rank 1's host at ${actual} flop/s, not a third of ${starting_speed}"
            NOT actual LESS third AND NOT actual GREATER third_up)
  endif()
  microseconds(${seconds} us)
  if(NOT call LESS change AND scenario MATCHES "^(static|adaptive)$")
    math(EXPR ${scenario}_after "${${scenario}_after} + ${us}")
  endif()
  if(scenario STREQUAL "adaptive" AND replanned_at EQUAL 0 AND NOT planned EQUAL starting_plan)
    set(replanned_at ${call})
    set(replanned_speed ${planned})
    set(host_speed ${actual})
  endif()
endforeach()

math(EXPR latest "${change} + 2")
require("adaptive: rank 1's planned speed never changed (the change is at call ${change})"
        replanned_at GREATER 0)
require("adaptive: re-planned at call ${replanned_at}, the change is at call ${change}: not within 3 calls"
        NOT replanned_at LESS change AND NOT replanned_at GREATER latest)
math(EXPR low "${host_speed} * 100 / 115")
math(EXPR high "${host_speed} * 115 / 100")
require("adaptive: re-planned for rank 1 at ${replanned_speed} flop/s, its host runs at ${host_speed}"
        NOT replanned_speed LESS low AND NOT replanned_speed GREATER high)
require("adaptive: calls ${change}-${calls} took ${adaptive_after} us, static ${static_after} us"
        adaptive_after LESS static_after)
message("adaptive: re-planned at call ${replanned_at} (change at ${change}) for ${replanned_speed} flop/s; "
        "after the change adaptive ${adaptive_after} us, static ${static_after} us")
