#pragma once
/// @file pattern_hetero.hpp
/// Heterogeneous patterns: node k owns a share of the R×C cells proportional to its speed,
/// within one cell (|cells_k − s_k·R·C/Σs| < 1), with a communication cost T = x̄ + ȳ close
/// to what G-2DBC achieves for the same P. None of the papers of docs/references.md gives one;
/// Beaumont2023 (§VI) names it as open work. hetscal's construction:
///
/// 1. Size: R·C >= N = min_cells_per_node·Σs/min s cells, so the slowest node's quota is
///    >= min_cells_per_node cells and rounding unbalances by < 1/that (shape: step 3).
/// 2. Counts: largest-remainder apportionment (Hamilton) of R·C cells — it keeps every count
///    within one cell of its quota, which Alg. 2.3.1's min-max rule does not promise.
/// 3. Start: a column-based partition (as in Beaumont, Legrand, Rastello & Robert 2000):
///    nodes sorted by speed are cut into q groups of consecutive nodes; group j gets a strip
///    holding exactly its nodes' cells (a strip boundary may cut a column: its top rows go
///    left), so no node spills over two strips; inside a strip cells are taken row by row in
///    boustrophedon order, each node taking its count in turn. Then x̄ ≈ q (+1 in each row
///    where a node boundary falls) and ȳ ≈ Σ_j |group j|·share_j. Every q with
///    |q − √P| <= 2 is tried, with C = 1..4 columns per strip (R = ⌈N/C⌉: many rows make
///    the in-strip boundaries rare) or the square size, and the cheapest start kept. With
///    equal speeds, G-2DBC stacked until each node owns min_cells_per_node cells is a
///    candidate too.
/// 4. Improve: seeded local search swapping the owners of two cells (counts unchanged),
///    accepting swaps that do not raise T; a candidate pair moves a node next to one of its
///    own cells (same row or column). Sweeps of R·C attempts, until one gains less than
///    0.1 % of T: on large patterns the search gains little over the start (1,024 nodes of
///    speeds 1, 2, 4: T 64.36 at the start, 64.35 after 2 sweeps, 64.30 after 60) and 60
///    sweeps took 1.35 s of the pattern's 1.74 s, on every rank that plans. The sweeps also
///    stay within a budget of attempts (max_attempts), which only large patterns reach.
///
/// Guarantee: the counts (step 2). The cost is measured, not bounded: with equal speeds and
/// P = q² the start is exactly 2DBC (T = 2√P), for other P it is G-2DBC's; bench_patterns
/// prints T next to G-2DBC's for random speeds (ratios up to 1:10: within a few percent).
#include <cstdint>
#include <vector>

#include "core/common/speeds.hpp"
#include "core/patterns/pattern.hpp"

namespace hetscal::core {

/// Largest-remainder apportionment of `total` units by weight: each count is ⌊q_k⌋ or ⌈q_k⌉
/// with q_k = total·w_k/Σw; leftover units go to the largest remainders (ties: lowest index).
/// @throws InvalidArgument if total < 0 or a weight is not finite and > 0.
std::vector<std::int64_t> apportion(const std::vector<double>& weights, std::int64_t total);

/// How hetero_pattern sizes and improves its pattern.
struct HeteroPatternOptions {
  int min_cells_per_node = 32;  ///< quota of the slowest node, at least (sets R×C)
  int improvement_sweeps = 60;  ///< at most; local-search attempts = sweeps × R·C
  double stall_fraction = 1e-3; ///< a sweep lowering T by less than this fraction ends it
  std::uint64_t seed = 0;       ///< local search is deterministic in it
  /// Local-search attempts in all, at most: whole sweeps within it (none when one sweep
  /// exceeds it). Below it (60 sweeps of up to 2,184 cells: every pattern of 128 nodes of
  /// speeds 1, 2, 4 with 4 cells for the slowest) the search is unchanged. Above, it is where
  /// the search gains least and costs most: on 1,024 nodes (282×34 cells) 60 sweeps lower T
  /// by 0.09 % (64.934 to 64.877) in 0.04 s on every rank that plans; the 13 this budget
  /// allows stop at 64.905, 0.04 % above.
  std::int64_t max_attempts = std::int64_t{1} << 17;
};

/// Cells the sized pattern needs (step 1): min_cells_per_node·Σs/min s, computed on speeds
/// relative to the slowest so that huge speeds (1e308) do not overflow. It grows with the
/// speed ratio, and the construction's time and memory with it: callers bound it first.
/// @throws InvalidArgument if min_cells_per_node < 1.
double hetero_pattern_cells_needed(const Speeds& speeds, int min_cells_per_node);

/// The pattern for `speeds` (P = speeds.size() nodes), sized as in the file comment.
/// Deterministic for given speeds and options.
/// @throws InvalidArgument if min_cells_per_node < 1, improvement_sweeps < 0, max_attempts < 0,
///   or the size would exceed 4096×4096 cells.
Pattern hetero_pattern(const Speeds& speeds, const HeteroPatternOptions& options = {});

/// The same construction with an explicit size R×C.
/// @throws InvalidArgument if rows or cols < 1 or > 65535, improvement_sweeps < 0 or max_attempts < 0.
Pattern hetero_pattern(const Speeds& speeds, int rows, int cols,
                       const HeteroPatternOptions& options = {});

}  // namespace hetscal::core
