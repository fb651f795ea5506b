#pragma once
/// @file pattern_gcrm.hpp
/// Greedy ColRow & Matching (GCR&M, Beaumont et al. 2023, §V-A, Algorithm 1): square r×r
/// patterns for symmetric factorisations (Cholesky) on any number of nodes P.
///
/// Phase 1 gives each node a set A[p] of colrows (round robin first, then repeatedly the
/// least-loaded node takes the colrow covering most uncovered cells; ties: least-used colrow,
/// then seeded random). Phase 2 assigns off-diagonal cells to nodes covering them with a
/// maximum matching against ⌊r(r−1)/P⌋ copies per node, then a second one against one copy
/// per node, then greedily to the least-loaded node holding one of the cell's colrows.
/// Diagonal cells stay unassigned: resolve() gives each replica to its colrow's least-loaded node.
#include <cstdint>
#include <optional>

#include "core/patterns/pattern.hpp"
#include "core/patterns/pattern_gcrm_table.hpp"

namespace hetscal::core {

/// Equation 3: ⌈r(r−1)/P⌉ <= r²/P, the condition for a balanced r×r pattern to exist.
/// @throws InvalidArgument if P < 1 or r < 1.
bool gcrm_size_is_balanceable(int num_nodes, int size);

/// One run of Algorithm 1 for pattern size r; deterministic for a given seed.
/// "Least loaded" means fewest colrows in phase 1 and fewest cells in phase 2's fallback.
/// @throws InvalidArgument if P < 1 or r < 2.
Pattern gcrm_pattern(int num_nodes, int size, std::uint64_t seed);

/// How best_gcrm searches (the paper: r <= 6√P satisfying Equation 3, 100 seeds each).
struct GcrmSearchOptions {
  double max_size_factor = 6.0;  ///< sizes r <= max_size_factor·√P
  int seeds_per_size = 100;      ///< runs per size, each with its own derived seed
  std::uint64_t seed = 0;        ///< base seed; the whole search is deterministic in it
  /// Remember the result for the process (a runtime plans many call shapes on the same
  /// process counts); false searches afresh, as a tool timing one plan does.
  bool remember = true;
  /// With the Cholesky planner's options (kTabledGcrmSearch), rebuild the search's result from
  /// pattern_gcrm_table.hpp instead of searching (the same pattern); false always searches.
  bool tabled = true;
};

/// The cheapest pattern found, its cost z̄, its size and the seed and index of the run that built it.
struct GcrmResult {
  Pattern pattern;
  double cost = 0.0;
  int size = 0;
  std::uint64_t run_seed = 0;
  int run = 0;  ///< which of its size's runs built it (0 … seeds_per_size − 1)
};

/// Runs Algorithm 1 over every size r with r(r−1) >= P (so every node owns a cell) and
/// Equation 3, r <= max_size_factor·√P, and `seeds_per_size` seeds per size; keeps the
/// lowest z̄ among balanceable patterns (is_balanceable: Equation 3 holds for the cells
/// actually given, and the diagonal cells can top every node up), the first found on ties
/// (smallest r, then earliest seed). With options.remember, each search runs once a process:
/// its result (or refusal) is remembered for the same arguments, under a lock. With
/// options.tabled and the table's options, P <= kTabledGcrmNodes is not searched: the table
/// names the size and run of the result, which one run rebuilds.
/// @throws InvalidArgument if P < 1, seeds_per_size < 1 or no size qualifies.
GcrmResult best_gcrm(int num_nodes, const GcrmSearchOptions& options = {});

/// The table's entry best_gcrm(num_nodes, options) rebuilds its result from (size 0: it
/// refuses P), known without a search; nullopt where it searches.
std::optional<TabledGcrm> gcrm_table_entry(int num_nodes, const GcrmSearchOptions& options);

}  // namespace hetscal::core
