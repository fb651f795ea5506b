#pragma once
/// @file compute_or_forward.hpp
/// How every intercepted routine ends, once its own checks and quick returns are done:
/// hetscal's attempt (the runtime's route) either completed the call, or left the caller's
/// data untouched and the call goes to ScaLAPACK, or lost the result while writing it back
/// (ScaLAPACK's error path then). An exception before any agreement — the context's own
/// set-up, which every rank of the context meets alike — forwards too, with a note. A
/// forwarded call's time goes to the runtime (runtime::forwarded_call_finished).
#include <algorithm>
#include <chrono>
#include <exception>
#include <string>

#include "runtime/report.hpp"
#include "runtime/route.hpp"
#include "runtime/take_over.hpp"
#include "shim/lost_result.hpp"

namespace hetscal::shim {

/// @param routine ScaLAPACK's name, e.g. "PDGETRF".
/// @param context the call's BLACS context (aborted when the result is lost).
/// @param attempt returns Computed (the call is complete: results and INFO written), Forward
///        (nothing written) or FailedAfterWrite.
/// @param forward calls ScaLAPACK's routine with the caller's arguments.
template <typename Attempt, typename Forward>
void compute_or_forward(const char* routine, int context, const Attempt& attempt,
                        const Forward& forward) {
  using Status = runtime::TakeOverOutcome::Status;
  try {
    const Status status = attempt();
    if (status == Status::Computed) return;
    if (status == Status::FailedAfterWrite) {
      abort_lost_result(context, routine);
      return;
    }
  } catch (const std::exception& e) {
    // Printed at every verbosity (once per text; every time at HETSCAL_VERBOSE=2). Building
    // the line may fail for want of memory too: the call is forwarded all the same.
    try {
      const std::string line = std::string(routine) + " forwarded after an internal error: " + e.what();
      const runtime::Verbosity verbosity =
          std::max(runtime::Verbosity::Once, runtime::process_configuration().verbosity);
      runtime::report_once_per_key(verbosity, true, line, line);
    } catch (const std::exception&) {
    }
  }
  // Timed for decisions from observation: the runtime keeps it if it was the call it measures.
  const auto start = std::chrono::steady_clock::now();
  forward();
  runtime::forwarded_call_finished(
      routine, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}

}  // namespace hetscal::shim
