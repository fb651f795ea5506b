#pragma once
/// @file plan_test_support.hpp
/// Helpers shared by the factorisation planners' tests.
#include <algorithm>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "core/common/error.hpp"
#include "core/planners/factorization_plan.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/tile_ownership.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// The fastest candidate of `kind` the planner priced. @throws Error if it priced none.
template <typename Kind>
const PricedCandidate<Kind>& fastest_of(const PlanChoice<Kind>& choice, Kind kind) {
  const PricedCandidate<Kind>* best = nullptr;
  for (const auto& c : choice.priced)
    if (c.priced && c.kind == kind && (best == nullptr || c.prediction.total_s() < best->prediction.total_s()))
      best = &c;
  if (best == nullptr) throw Error("no candidate of kind " + std::to_string(static_cast<int>(kind)) + " was priced");
  return *best;
}

/// Planner options (LuPlanOptions, CholeskyPlanOptions) with the full search: every candidate
/// priced, none pruned, for the tests that check every candidate.
template <typename Options>
Options exhaustive() {
  Options options;
  options.search.exhaustive = true;
  return options;
}

/// Processors of `speeds` flop/s, 5 µs latency, kernels at half speed on 16-tiles.
inline Platform planner_platform(const std::vector<double>& speeds, double bandwidth = 1.0e9,
                                 NetworkKind kind = NetworkKind::Switched, double memory = 1.0e12) {
  Platform p;
  for (double s : speeds) p.processors.push_back({s, memory});
  p.network = {5.0e-6, bandwidth, kind, {}};
  p.kernel.half_tile = 16.0;
  return p;
}

/// The caller's p×q grid, ranks row-major, blocks of 64.
inline CallerLayout caller_grid(std::size_t p, std::size_t q) {
  CallerLayout caller{p, q, 64, {}};
  for (std::size_t r = 0; r < p * q; ++r) caller.processor_at.push_back(r);
  return caller;
}

/// The message of the InvalidArgument `call` throws, or "no InvalidArgument".
inline std::string message_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "no InvalidArgument";
}

/// A random layout of an n×n matrix on `processors` processors: a Cartesian grid of random
/// shapes (1–4 a side) and shares, or, every third trial, a pattern whose cells name random
/// processors (ranks repeat). For the tests of the bounds against the step models.
inline TileOwnership random_layout(std::mt19937_64& rng, std::size_t processors, std::size_t n, std::size_t tile,
                                   int trial) {
  std::uniform_int_distribution<std::size_t> side(1, 4), rank(0, processors - 1);
  std::uniform_real_distribution<double> share(0.5, 3.0);
  const std::size_t rows = side(rng), cols = side(rng);
  std::vector<std::size_t> owner(rows * cols);
  if (trial % 3 == 0) {
    for (std::size_t& x : owner) x = rank(rng);
    return pattern_ownership(n, tile, rows, cols, owner);
  }
  for (std::size_t c = 0; c < owner.size(); ++c) owner[c] = c % processors;
  std::vector<double> row_share(rows), col_share(cols);
  for (double& s : row_share) s = share(rng);
  for (double& s : col_share) s = share(rng);
  return cartesian_ownership(n, tile, rows, cols, owner, row_share, col_share);
}

/// A rows × cols grid of distinct processors first, first + 1, … in shuffled cells over an
/// n × n matrix: 2D block-cyclic when `cyclic`, otherwise Cartesian with random shares.
inline TileOwnership random_grid(std::mt19937_64& rng, std::size_t rows, std::size_t cols, std::size_t first,
                                 std::size_t n, std::size_t tile, bool cyclic) {
  std::uniform_real_distribution<double> share(0.3, 4.0);
  std::vector<std::size_t> owner(rows * cols);
  std::iota(owner.begin(), owner.end(), first);
  std::shuffle(owner.begin(), owner.end(), rng);
  if (cyclic) return block_cyclic_ownership(n, tile, rows, cols, owner);
  std::vector<double> row_share(rows), col_share(cols);
  for (double& s : row_share) s = share(rng);
  for (double& s : col_share) s = share(rng);
  return cartesian_ownership(n, tile, rows, cols, owner, row_share, col_share);
}

}  // namespace hetscal::core
