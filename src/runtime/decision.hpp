#pragma once
/// @file decision.hpp
/// Forward a call to ScaLAPACK or compute it on hetscal's heterogeneous plan. Pure: every
/// input is global (identical on all ranks of the context once the configuration and speeds
/// are agreed), so every rank reaches the same decision without talking.
///
/// The time comparison is a small model of one PDGEMM call (predicted_gemm_seconds in
/// kernels/gemm_layout.hpp), kept behind decide() so that
/// core/time_model.hpp replaces it when that model prices rectangular GEMMs (it prices square
/// N×N problems today):
///   compute        max over grid cells of 2·rows_i·cols_j·K / (speed_ij · rate)
///                  on the caller's block-cyclic grid (forward) or the planned grid;
///   broadcasts     SUMMA on either grid: each cell receives its rows of op(A) and its
///                  columns of op(B): (rows_i + cols_j)·K elements, max over cells;
///   redistribution planned path only: op(A), op(B), C (in unless beta = 0, and out) cross
///                  the network once each, shared over the ranks, plus one message per peer
///                  per round.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernels/gemm_layout.hpp"

namespace hetscal::shim {

enum class Route { Forward, Heterogeneous };

using kernels::GridLoad;
using kernels::ModelConstants;
using kernels::predicted_gemm_seconds;

/// Everything decide() looks at; all values global.
struct DecisionInput {
  // Agreed configuration.
  bool disabled = false;
  bool force = false;
  std::int64_t min_n = 0;
  std::string configuration_problem;  ///< non-empty: malformed or disagreeing settings
  std::string speeds_problem;         ///< non-empty: no usable speeds for the context
  // The call.
  std::int64_t m = 0, n = 0, k = 0;
  bool beta_zero = false;
  std::string unsupported;            ///< non-empty: a feature hetscal forwards (why)
  std::int64_t caller_k_block = 1;    ///< block of the K dimension in the caller's op(A)
  int ranks = 1;                      ///< processes of the context
  std::vector<double> speeds;         ///< agreed relative speed per rank of the context
  GridLoad caller;                    ///< C on the caller's grid
  /// The planned grid's load, computed only when the cheaper rules let the call through;
  /// nullopt (or a throwing callback) when no heterogeneous plan fits the shape.
  std::function<std::optional<GridLoad>()> planned;
};

struct Decision {
  Route route = Route::Forward;
  std::string reason;             ///< why (printed under HETSCAL_VERBOSE)
  double forward_s = 0.0;         ///< predicted, when the model ran (else 0)
  double heterogeneous_s = 0.0;   ///< predicted, redistribution included
};

/// Predicted seconds of moving the operands to the planned layout and C back.
double predicted_redistribution_seconds(std::int64_t m, std::int64_t n, std::int64_t k,
                                        bool beta_zero, int ranks,
                                        const ModelConstants& constants);

/// The decision, first rule that applies: disabled; configuration problem; min(M,N,K) <
/// min_n; unsupported; no speeds; one rank; (unless forced) uniform speeds, a single-panel
/// update (K <= the caller's K block: the rank-NB updates of blocked factorisations, which
/// never repay moving C twice); no plan fits; forced; predicted times.
Decision decide(const DecisionInput& input, const ModelConstants& constants = {});

}  // namespace hetscal::shim
