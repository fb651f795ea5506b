#pragma once
/// @file pattern_cost.hpp
/// Communication cost T of a pattern (Beaumont et al. 2023, §III-C) and the load balance of
/// a pattern laid over an actual matrix.
///
/// T = x̄ + ȳ for LU (average distinct nodes per pattern row, plus per pattern column);
/// T = z̄ for Cholesky (average distinct nodes per colrow). The volume of communication of
/// the whole factorisation is m(m+1)/2 · (T − 2) for LU and m(m+1)/2 · (T − 1) for Cholesky
/// (Equations 1–2), so T is what a pattern should minimise.
#include <cstdint>
#include <vector>

#include "core/patterns/pattern.hpp"
#include "core/patterns/pattern_resolve.hpp"

namespace hetscal::core {

/// x̄ + ȳ. Unassigned diagonal cells are left out: their replicas go to colrow nodes, which
/// may add at most one node to a row or column (such patterns are meant for Cholesky).
double lu_cost(const Pattern& pattern);

/// z̄: the average number of distinct nodes on a colrow of the laid-over matrix. For a square
/// pattern that is the average over its r colrows; for an R×C pattern, matrix colrow I meets
/// pattern row I mod R and column I mod C, so z̄ averages |row ∪ column| over I in
/// [0, lcm(R, C)) — which gives r + c − 1 for an r×c block-cyclic pattern (the paper's
/// "non-symmetric cost minus 1", §V-B).
double cholesky_cost(const Pattern& pattern);

/// lu_cost or cholesky_cost.
double cost(const Pattern& pattern, Factorization f);

/// True when the pattern can be perfectly balanced over its replicas: every node owns at
/// most R·C/P assigned cells, and the unassigned diagonal cells can be shared (fractionally,
/// across replicas) among their colrows' nodes so that every node reaches R·C/P. Equation 3
/// of the paper is the first condition only; the second one matters for small patterns.
bool is_balanceable(const Pattern& pattern);

/// Work balance of a pattern laid over a matrix, counted in tiles of the factorisation's region.
struct LoadBalance {
  std::vector<std::int64_t> tiles;  ///< tiles per node
  double max_over_average = 0.0;    ///< max_k tiles_k/s_k ÷ Σtiles/Σs; 1 is perfect
};

/// Balance of `pattern` over a tile_rows × tile_cols matrix for factorisation `f` (LU: full
/// matrix; Cholesky: lower triangle), unassigned cells resolved as resolve() does.
/// @param speeds relative node speeds (empty: all equal); a node's fair share is ∝ speed.
/// @throws InvalidArgument if speeds is neither empty nor one positive value per node.
LoadBalance load_balance(const Pattern& pattern, std::int64_t tile_rows, std::int64_t tile_cols,
                         Factorization f, const std::vector<double>& speeds = {});

/// Balance of tiles already counted per node. @throws InvalidArgument as load_balance.
LoadBalance balance_of(std::vector<std::int64_t> tiles, const std::vector<double>& speeds = {});

}  // namespace hetscal::core
