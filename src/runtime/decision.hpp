#pragma once
/// @file decision.hpp
/// Forward a call to ScaLAPACK or compute it on hetscal's heterogeneous plan, for any
/// routine. Pure: every input is global (identical on all ranks of the context once the
/// configuration and speeds are agreed and the plan stage agreed), so every rank reaches
/// the same decision without talking.
///
/// The times compared come from the core time model (core/time_model.hpp) on the context's
/// measured machine figures (runtime/machine.hpp): the routine on the caller's block-cyclic
/// layout (what ScaLAPACK does) against the routine on the planned layout plus moving the
/// operands in and the results out (runtime/pricing.hpp). With a route ledger (decisions from
/// observation, core/route_ledger.hpp) the measured ratios correct both predictions, and
/// equal speeds are priced too: hetscal's kernels may be measured faster than ScaLAPACK's.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/route_ledger.hpp"

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
};

/// Everything decide() looks at; all values global.
struct DecisionInput {
  // Agreed configuration.
  bool disabled = false;
  bool force = false;
  bool routine_allowed = true;        ///< HETSCAL_ROUTINES lets hetscal take this routine
  std::int64_t min_n = 0;
  std::string configuration_problem;  ///< non-empty: malformed or disagreeing settings
  std::string speeds_problem;         ///< non-empty: no usable speeds for the context
  // The call.
  std::string routine = "PDGEMM";     ///< ScaLAPACK's name
  std::vector<std::int64_t> dims;     ///< GEMM: M, N, K; LU, QR: M, N; Cholesky: N
  std::string unsupported;            ///< non-empty: a feature hetscal forwards (why)
  /// GEMM's K fits in one block of the caller's layout: a rank-NB update of a blocked
  /// factorization, which never repays moving C twice.
  bool single_panel_update = false;
  int ranks = 1;                      ///< processes of the context
  std::vector<double> speeds;         ///< agreed relative speed per rank of the context
  /// Both routes' predicted times, computed only when the cheaper rules let the call
  /// through; nullopt (or a throw) when no heterogeneous plan fits the call.
  std::function<std::optional<Prices>()> price;
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

/// The decision, first rule that applies: disabled; configuration problem; routine not in
/// HETSCAL_ROUTINES; smallest dimension < min_n; unsupported; no speeds; one rank; (unless
/// forced) uniform speeds without a ledger, a single-panel update; no plan fits; forced;
/// predicted times, corrected by the ledger when there is one.
Decision decide(const DecisionInput& input);

}  // namespace hetscal::runtime
