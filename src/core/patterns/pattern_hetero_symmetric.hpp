#pragma once
/// @file pattern_hetero_symmetric.hpp
/// Heterogeneous symmetric patterns for Cholesky: square r×r owner tables in which node p owns
/// a share of the cells proportional to its speed while every colrow (row i ∪ column i) keeps
/// few distinct nodes, so the volume m(m+1)/2·(T − 1) of Beaumont et al. (Beaumont2023,
/// Equation 2) stays close to GCR&M's. Neither that paper (§VI names it as open work) nor the
/// other papers of docs/references.md give one; hetscal's construction extends GCR&M's
/// Algorithm 1 to speeds:
///
/// 1. Quotas: largest-remainder apportionment of the r² cells (diagonal included) by speed,
///    so |cells_p − r²·s_p/Σs| < 1 (the balance guarantee).
/// 2. Colrows: node p needs a set A_p of colrows with |A_p|² >= quota_p (the cells (i, j),
///    i, j ∈ A_p, are those it may own, and its colrow count is what it adds to T). Colrow t
///    first goes to node t mod P, nodes sorted by decreasing speed; then, while a node lacks
///    room or a cell is covered by nobody, the node with the least room |A_p|²/quota_p takes
///    the colrow covering most uncovered cells (ties: least used colrow, then seeded random).
/// 3. Cells: a maximum matching of the r² cells to quota_p slots per node, a cell (i, j)
///    joining the nodes holding both i and j. When some cells stay unmatched, nodes with free
///    slots take their colrows (most free slots first) and the matching is redone, until every
///    cell has an owner: the quotas then hold exactly.
///
/// T = Σ_i |colrow i| / r is measured (cholesky_cost), not bounded; with equal speeds it is
/// GCR&M with the diagonal assigned, and the tests compare it with GCR&M and 2DBC.
#include <cstdint>

#include "core/common/speeds.hpp"
#include "core/patterns/pattern.hpp"

namespace hetscal::core {

/// One run of the construction for pattern size r; deterministic for a given seed. Every cell
/// is assigned.
/// @throws InvalidArgument if r < 1 or r² < P (some node would own no cell).
Pattern hetero_symmetric_pattern(const Speeds& speeds, int size, std::uint64_t seed);

/// How best_hetero_symmetric searches.
struct HeteroSymmetricOptions {
  int min_cells_per_node = 8;  ///< the slowest node's quota at the smallest size tried
  int extra_sizes = 6;         ///< sizes tried above the smallest one
  int seeds_per_size = 4;      ///< runs per size
  int max_size = 64;           ///< never larger (the quota of the slowest node may then be < min)
  std::uint64_t seed = 0;      ///< the search is deterministic in it
};

/// The cheapest pattern found (lowest cholesky_cost; ties: smaller size, earlier run).
struct HeteroSymmetricResult {
  Pattern pattern;
  double cost = 0.0;
  int size = 0;
};

/// Tries sizes r_min … r_min + extra_sizes, r_min = ⌈√(min_cells_per_node · Σs / min s)⌉
/// (at least 2 and ⌈√P⌉), capped at max_size, seeds_per_size runs each.
/// @throws InvalidArgument if an option is < 1 (extra_sizes < 0) or max_size² < P.
HeteroSymmetricResult best_hetero_symmetric(const Speeds& speeds,
                                            const HeteroSymmetricOptions& options = {});

}  // namespace hetscal::core
