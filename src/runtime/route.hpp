#pragma once
/// @file route.hpp
/// The path every intercepted routine follows once its arguments are checked: the context's
/// agreed state, the decision (runtime/decision.hpp), the take-over when hetscal computes,
/// and the report (runtime/report.hpp). A routine supplies what is its own: its dimensions,
/// what it leaves to ScaLAPACK, how to plan and price it, and how to run the plan.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "runtime/context_state.hpp"
#include "runtime/decision.hpp"
#include "runtime/routine.hpp"
#include "runtime/take_over.hpp"

namespace hetscal::runtime {

/// One intercepted call, as the route sees it. Every value is global (the same on every
/// rank of the context), so every rank reaches the same decision.
struct RoutedCall {
  RoutineId routine;
  std::vector<std::int64_t> dims;  ///< the routine's dimensions (GEMM: M, N, K; Cholesky: N)
  std::string unsupported;         ///< non-empty: a feature left to ScaLAPACK (why)
  bool single_panel_update = false;
  /// Plans the call (collectively, ending with an agreement) and prices both routes.
  /// Called only when the cheaper rules let the call through. @throws mpi::StageFailed,
  /// InvalidArgument (no plan fits): the call is forwarded on every rank.
  std::function<std::optional<Prices>(ContextState&)> plan_and_price;
  /// Runs the plan made by plan_and_price through the take-over sequence.
  std::function<TakeOverOutcome()> run;
};

/// Decides, runs and reports the call. Collective over the call's context.
/// @return Computed, Forward (nothing written: call ScaLAPACK) or FailedAfterWrite.
TakeOverOutcome::Status route(ContextState& state, const RoutedCall& call);

/// The shim's report that ScaLAPACK finished the call `route` last forwarded: this rank's
/// `seconds` in it, for decisions from observation (core/route_ledger.hpp). Ignored unless
/// the last observed call was forwarded and is `routine` (ScaLAPACK's own inner calls, e.g.
/// PDGEMM inside a forwarded PDGETRF, end first and are not it).
void forwarded_call_finished(const char* routine, double seconds) noexcept;

}  // namespace hetscal::runtime
