#pragma once
/// @file plan_model.hpp
/// `hetscal-plan --model ROUTINE`: predicted times of the candidate distributions (caller's
/// block-cyclic layout, heterogeneous grids, block-cyclic grids on the fastest processors,
/// every tile size) for one call, on a platform built from the given speeds. For Cholesky the
/// candidates and the choice are core::choose_cholesky_plan's (2DBC, ordered heterogeneous
/// grids, G-2DBC, GCR&M, heterogeneous symmetric patterns), for LU core::choose_lu_plan's
/// (2DBC, heterogeneous grids in LU order, G-2DBC, heterogeneous patterns, each panel rank),
/// for QR core::choose_qr_plan's (the same, priced by the QR time model).
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/common/speeds.hpp"
#include "core/planners/cholesky_plan.hpp"
#include "core/planners/lu_plan.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"
#include "tools/plan/input.hpp"

namespace hetscal::tools::plan {

/// The machine and the call the model prices, as the command line sets them.
struct ModelSettings {
  core::Routine routine = core::Routine::LU;
  std::size_t order = 4096;                  ///< N of the N×N matrices
  double flops_at_speed_one = 100.0e6;       ///< flop/s of a processor of normalised speed 1
  double memory_bytes = 512.0 * 1024 * 1024;  ///< per processor
  core::NetworkKind network = core::NetworkKind::SharedBus;
  double latency_s = 1.0e-4;
  double bandwidth_bytes_per_s = 100.0e6 / 8.0;
  /// Switched: processors k·K … k·K + K − 1 share node k's link (core::Network::node_of);
  /// 0: a link per processor.
  std::size_t ranks_per_node = 0;
  std::optional<Shape> caller_grid;          ///< otherwise the squarest p×q = P, p <= q
  std::size_t caller_block = 64;
  /// --exhaustive: every process count and every candidate priced (no pruning), the full
  /// search the scalable one is checked against (core/planners/candidate_search.hpp).
  bool exhaustive = false;
};

/// The routine named `name` (gemm, lu, qr, cholesky; any case).
/// @throws InvalidArgument for any other name.
core::Routine routine_from(const std::string& name);

/// What --model reports.
struct ModelReport {
  ModelSettings settings;
  core::Platform platform;
  core::Problem problem;
  std::vector<core::Prediction> predictions;  ///< the priced candidates, in candidate order
  std::size_t chosen = 0;                     ///< index of the fastest that fits in memory
  std::size_t candidates = 0;                 ///< candidates built (priced or pruned)
  std::size_t pruned = 0;                     ///< candidates not priced: their lower bound lost
  /// Wall seconds of this process's planner call (building and pricing the candidates).
  double planning_s = 0.0;
  /// CPU seconds of the same call (std::clock): what planning_s would be on an idle core.
  double planning_cpu_s = 0.0;
  /// CPU seconds of the largest share one rank takes when the runtime splits the pricing
  /// over the platform's P ranks: building the candidates plus the slowest slice
  /// (core::price_slice timed here on the slices whose candidates core::prediction_cost
  /// estimates costliest).
  double planning_per_rank_s = 0.0;
  /// The smallest process count k whose heterogeneous pattern was left out, if any (every
  /// larger k is left out too): core::largest_hetero_pattern_count.
  std::optional<std::size_t> patterns_left_out_from;
  /// Cholesky: the kind of distribution chosen.
  std::optional<core::CholeskyLayoutKind> cholesky_kind;
  /// LU and QR: the kind of distribution chosen.
  std::optional<core::LuLayoutKind> lu_kind;
  /// Cholesky and LU: T of the chosen pattern or 2DBC (Cholesky: average nodes per colrow;
  /// LU: x̄ + ȳ); 0 for a heterogeneous grid or the caller's layout.
  double pattern_cost = 0.0;
};

/// Builds the platform and the problem and runs the runtime's planner on them (the core
/// planner the shim calls, with its scalable search unless settings.exhaustive), timed.
/// @throws InvalidArgument if a setting is out of range (message names it), or if pricing
///         the candidates would exceed kMaxModelOperations or kMaxModelBytes (the message
///         gives the largest --order that fits); Error if no candidate fits in memory.
ModelReport model_report(const core::Speeds& speeds, const ModelSettings& settings);

/// The platform the settings describe for processors of the given relative speeds (the
/// fastest runs at settings.flops_at_speed_one). @throws InvalidArgument on bad settings.
core::Platform platform_of(const core::Speeds& speeds, const ModelSettings& settings);

/// The problem the settings describe, the caller's data on settings.caller_grid (or the
/// squarest grid of all processors). @throws InvalidArgument if that grid does not fit.
core::Problem problem_of(const core::Speeds& speeds, const ModelSettings& settings);

/// The predictions as text (fastest first; the table is core's).
std::string model_text(const ModelReport& report);

/// The predictions as JSON (every candidate).
nlohmann::ordered_json model_json(const ModelReport& report);

}  // namespace hetscal::tools::plan
