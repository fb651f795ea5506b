#pragma once
/// @file route.hpp
/// The path every intercepted routine follows once its arguments are checked, top-down: the
/// context's agreed state, the decision (runtime/decision.hpp), the plan, the prices, the
/// take-over when hetscal computes, and the report (runtime/report.hpp). A routine supplies
/// what is its own, as small pieces route() calls in turn: its facts, its plan, its prices
/// and the run of its plan.
#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mpi/agreement.hpp"
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
};

/// One call's way through the route's stages, which route() below takes in order: on
/// construction the speeds are observed (adaptation) and the rules that need no plan decide;
/// then, if they let the call through, the decision by the prices (or a forward when there
/// is no plan); last, finish() measures the call and reports it.
class CallRoute {
 public:
  /// Local only (what it allocates is agreed by route()).
  CallRoute(ContextState& state, RoutedCall call);

  /// Collective over the context (the speeds' agreement): observes the speeds and applies
  /// the rules that need no plan. @return whether the call must be planned and priced.
  bool start();
  /// The call has no heterogeneous plan (`why`: the planner's or the pricing's refusal, or
  /// ScaLAPACK's own layout chosen): it goes to ScaLAPACK.
  void forward_unplanned(const std::string& why) noexcept;
  /// Decides by the predicted times of both routes. @return whether hetscal computes the call.
  bool decide(const Prices& prices);

  /// Once per process, whatever the verbosity: the ranks the computed `plan` leaves idle
  /// because they are slower than the ranks it uses (plan_description.hpp's idle_ranks).
  /// A rank short of memory loses the line. Local.
  void report_idle_ranks(const core::Candidate& plan) const noexcept;
  /// Measures and reports the call. Collective when the call was computed.
  /// @param outcome the take-over's, when hetscal computed (or tried to); default: forwarded.
  /// Never throws (a rank short of memory loses its report, never its route).
  /// @return `outcome`: Computed, Forward (nothing written: call ScaLAPACK) or FailedAfterWrite.
  TakeOverOutcome finish(TakeOverOutcome outcome = {}) noexcept;

 private:
  void settle(Decision decision) noexcept;
  // Applies `rules` (decide_without_speeds, decide_before_pricing) and settles the forward
  // they decide. Local. @return whether the call is decided (forwarded).
  bool forwarded_by(std::optional<Decision> (*rules)(const DecisionInput&));
  // finish()'s local part: the measurement's start, the copies given back, the reports.
  void report_finished(const TakeOverOutcome& outcome);
  // The call's line when report_finished failed for memory, built without any.
  void report_cut_short(bool computed) const noexcept;

  ContextState& state_;
  RoutedCall call_;
  DecisionInput input_;
  Decision decision_;
  bool decided_ = false;
  bool measured_ = false;  ///< the call is measured for decisions from observation
  const std::chrono::steady_clock::time_point deciding_ = std::chrono::steady_clock::now();
  double decide_s_ = 0.0;  ///< from construction to the decision
};

/// The report of a call forwarded because its start failed on some rank (`why`: the
/// agreed failure), printed at every verbosity. Never throws.
void report_unrouted_failure(const ContextState& state, const char* why) noexcept;

/// Counts and reports the forward of a call decide_without_speeds sends to ScaLAPACK. Local.
void report_forwarded_by_sizes(const ContextState& state, const RoutedCall& facts);

/// What route() knows of a call before anything is allocated: its routine and sizes.
struct CallSizes {
  RoutineId routine;
  std::array<std::int64_t, 3> dims{};  ///< GEMM: M, N, K; LU, QR: M, N; Cholesky: N
  std::size_t count = 0;               ///< of dims
};

/// True when rules that need neither the call's facts nor the ranks' speeds forward it
/// (HETSCAL_DISABLE, a size below HETSCAL_MIN_N, a single process, fewer flops per rank than
/// HETSCAL_MIN_FLOPS; the last two not under HETSCAL_FORCE): decide_without_speeds's rules,
/// taken from the sizes and the agreed settings alone (never where the ranks' settings
/// disagree: they may then differ from rank to rank). Nothing is allocated, so every rank
/// finds the same, and the call needs no agreement: ScaLAPACK's own small inner calls (PDGELS's
/// thousands of tiny PDGEQRF and PDGEMM) reached ScaLAPACK through one collective each before.
bool forwarded_by_sizes(const AgreedSettings& settings, int ranks, const CallSizes& sizes) noexcept;

/// Decides, runs and reports one call of the routine `make_routine()` returns, top-down.
/// Collective over the context. `Routine` is the routine's own part of the route (gemm_route.cpp, factorization_route.hpp):
///   RoutedCall facts() const;                         the call's global facts
///   std::shared_ptr<const Plan> plan(ContextState&) const;    agreed on every rank
///   Prices price(ContextState&, const Plan&) const;  both routes, agreed on every rank
///   TakeOverOutcome run(ContextState&, const Plan&) const;   the take-over sequence
/// and Plan has keeps_caller_layout() and description. plan() and price() fail alike on
/// every rank (an agreed stage, or the same deterministic refusal): the call is forwarded.
/// @return the take-over's outcome: Computed (with INFO), Forward (nothing written: call
///         ScaLAPACK) or FailedAfterWrite.
/// Counts and reports a call forwarded_by_sizes() sends to ScaLAPACK, with the reason the
/// route itself would give (its facts, `make_routine().facts()`, made only for the line).
/// Local; a rank short of memory loses the line, not the forward.
template <typename MakeRoutine>
TakeOverOutcome forward_by_sizes(const ContextState& state, const MakeRoutine& make_routine) noexcept {
  try {
    report_forwarded_by_sizes(state, make_routine().facts());
  } catch (const std::exception&) {
  }
  return {};
}

template <typename MakeRoutine>
TakeOverOutcome route(ContextState& state, const CallSizes& sizes, const MakeRoutine& make_routine) {
  if (forwarded_by_sizes(state.settings, state.context->num_ranks(), sizes)) return forward_by_sizes(state, make_routine);
  // What the call's start allocates (the routine's facts and options, the route's own copy
  // of them) is agreed before the first collective, so that a rank short of memory sends
  // every rank to ScaLAPACK, none waits for it.
  using Routine = decltype(make_routine());
  std::optional<Routine> routine;
  std::optional<CallRoute> call;
  try {
    mpi::run_agreed(state.context->comm, "decision", [&] {
      routine.emplace(make_routine());
      call.emplace(state, routine->facts());
    });
  } catch (const mpi::StageFailed& e) {
    TakeOverOutcome forwarded;
    forwarded.reason = e.what();
    report_unrouted_failure(state, e.what());
    return forwarded;
  }
  if (!call->start()) return call->finish();
  decltype(routine->plan(state)) plan;
  try {
    plan = routine->plan(state);
    if (plan->keeps_caller_layout()) {
      // Every rank holds the same plan, so every rank forwards alike.
      call->forward_unplanned("ScaLAPACK's own layout is predicted fastest (" + plan->description + ")");
      return call->finish();
    }
    if (!call->decide(routine->price(state, *plan))) return call->finish();
    call->report_idle_ranks(plan->candidate);
  } catch (const std::exception& e) {
    call->forward_unplanned(e.what());
    return call->finish();
  }
  return call->finish(routine->run(state, *plan));
}

/// The shim's report that ScaLAPACK finished the call `route` last forwarded: this rank's
/// `seconds` in it, for decisions from observation (core/adaptation/route_ledger.hpp). Ignored
/// unless the last observed call was forwarded and is `routine` (ScaLAPACK's own inner calls, e.g.
/// PDGEMM inside a forwarded PDGETRF, end first and are not it).
void forwarded_call_finished(const char* routine, double seconds) noexcept;

}  // namespace hetscal::runtime
