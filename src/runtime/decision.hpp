#pragma once
/// @file decision.hpp
/// Forward a call to ScaLAPACK or compute it on hetscal's heterogeneous plan, for any
/// routine. Pure: every input is global (identical on all ranks of the context once the
/// configuration and speeds are agreed and the plan stage agreed), so every rank reaches
/// the same decision without talking.
///
/// The times compared come from the core time model (core/time_models/time_model.hpp) on the
/// context's measured machine figures (runtime/machine.hpp): the routine on the caller's
/// block-cyclic layout (what ScaLAPACK does) against the routine on the planned layout plus moving
/// the operands in and the results out (runtime/pricing.hpp). With a route ledger (decisions from
/// observation, core/adaptation/route_ledger.hpp) the measured ratios correct both predictions, and
/// equal speeds are priced too: hetscal's kernels may be measured faster than ScaLAPACK's.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/adaptation/route_ledger.hpp"

namespace hetscal::runtime {

enum class Route { Forward, Heterogeneous };

/// Predicted seconds of both routes.
struct Prices {
  double forward_s = 0.0;        ///< ScaLAPACK on the caller's layout
  double heterogeneous_s = 0.0;  ///< hetscal's plan, moves in and out included
  /// Of heterogeneous_s, what this call alone pays: the first touch of the planned copy's
  /// new memory (later calls reuse it). Priced apart from what measurements correct.
  double first_touch_s = 0.0;
  double first_touch_bytes = 0.0;  ///< the most any rank newly allocates for the call
  /// Of heterogeneous_s, the moves between the caller's layout and the route's, in and out.
  double moves_s = 0.0;
  /// Non-empty: no take-over route of the call fits (memory, runtime/memory_budget.hpp) or is
  /// allowed (HETSCAL_TAKE_OVER): the call is forwarded with this reason, whatever the times.
  std::string no_route;
  /// The take-over route priced: "copy" (hetscal's own layout) or "in place".
  std::string route = "copy";
  /// When both routes were priced (HETSCAL_TAKE_OVER=auto): the route taken and both prices,
  /// or why the other does not fit (runtime/route_choice.hpp), for HETSCAL_VERBOSE.
  std::string route_note;
};

/// Everything decide() looks at; all values global.
struct DecisionInput {
  // Agreed configuration.
  bool disabled = false;
  bool force = false;
  bool routine_allowed = true;        ///< HETSCAL_ROUTINES lets hetscal take this routine
  std::int64_t min_n = 0;
  /// HETSCAL_MIN_FLOPS: a call of fewer flops per rank is forwarded unpriced (config.hpp)
  double min_flops_per_rank = 0.0;
  std::string configuration_problem;  ///< non-empty: malformed or disagreeing settings
  std::string speeds_problem;         ///< non-empty: no usable speeds for the context
  // The call.
  std::string routine = "PDGEMM";     ///< ScaLAPACK's name
  std::vector<std::int64_t> dims;     ///< GEMM: M, N, K; LU, QR: M, N; Cholesky: N
  double flops = 0.0;                 ///< the call's flops (LAWN 41's leading terms)
  std::string unsupported;            ///< non-empty: a feature hetscal forwards (why)
  /// GEMM's K fits in one block of the caller's layout: a rank-NB update of a blocked
  /// factorization, which never repays moving C twice.
  bool single_panel_update = false;
  int ranks = 1;                      ///< processes of the context
  std::vector<double> speeds;         ///< agreed relative speed per rank of the context
  /// Measured routes of the context (HETSCAL_ADAPT), or null: the predictions decide alone
  /// and equal speeds are forwarded unpriced.
  const core::RouteLedger* ledger = nullptr;
  std::string shape_class;            ///< the call's class in `ledger` (core::shape_class)
};

struct Decision {
  Route route = Route::Forward;
  std::string reason;             ///< why (printed under HETSCAL_VERBOSE)
  double forward_s = 0.0;         ///< predicted, when the model ran (else 0)
  double heterogeneous_s = 0.0;   ///< predicted, redistribution included
  /// The ledger's advice, when it was asked (the corrected times are in advice, the model's
  /// above).
  std::optional<core::LedgerAdvice> advice;
  double first_touch_s = 0.0;     ///< of heterogeneous_s, paid by this call only (Prices)
  double first_touch_bytes = 0.0;  ///< (Prices)
};

/// "0.123 s".
std::string seconds_text(double seconds);

/// "4000x4000x4000".
std::string shape_text(const std::vector<std::int64_t>& dims);

/// The rules that need neither a plan nor the speeds, first that applies: disabled;
/// configuration problem; routine not in HETSCAL_ROUTINES; smallest dimension < min_n;
/// unsupported; (unless forced) one rank, fewer than min_flops_per_rank flops per rank.
/// `in.speeds` is not read.
/// @return the decision to forward, or nullopt: the speeds are needed.
std::optional<Decision> decide_without_speeds(const DecisionInput& input);

/// The rules that need no plan, first that applies: decide_without_speeds's; no speeds;
/// (unless forced) uniform speeds without a ledger, a single-panel update.
/// @return the decision to forward, or nullopt: the call must be planned and priced
///         (decide_by_prices), or forwarded when no plan fits (forward_unplanned).
std::optional<Decision> decide_before_pricing(const DecisionInput& input);

/// The decision for a call decide_before_pricing let through, by both routes' predicted
/// times: forced calls are computed; otherwise the faster route, the times corrected by the
/// ledger when there is one.
Decision decide_by_prices(const DecisionInput& input, const Prices& prices);

/// The decision to forward a call that has no heterogeneous plan (`why`), or whose plan is
/// ScaLAPACK's own layout.
Decision forward_unplanned(const std::string& why);

}  // namespace hetscal::runtime
