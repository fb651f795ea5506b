#pragma once
/// @file pattern_gcrm_table.hpp
/// What best_gcrm finds with the Cholesky planner's search options (kTabledGcrmSearch: sizes
/// up to 6√P, 10 seeds per size, base seed 0) for P = 2 … kTabledGcrmNodes: the size and run
/// of the pattern it keeps. gcrm_pattern rebuilds that pattern in one run, where the search
/// makes hundreds (a third of a second at 128 nodes, seconds at 512, on every rank that plans):
/// the search is deterministic, so its result is a constant of the algorithm.
///
/// The table holds for pattern_gcrm.cpp's algorithm as it is: a change to gcrm_pattern (or to
/// cholesky_cost, is_balanceable, the seeds) changes what the search finds, and
/// pattern_gcrm_test.cpp's PatternGcrm.TableIsTheSearchsResult then fails; its disabled
/// companion PatternGcrm.DISABLED_PrintTable prints the table afresh (half an hour).
#include <optional>

namespace hetscal::core {

/// The search options the table was made with (GcrmSearchOptions' first three fields).
struct TabledGcrmSearch {
  double max_size_factor = 6.0;
  int seeds_per_size = 10;
  unsigned long long seed = 0;
};
inline constexpr TabledGcrmSearch kTabledGcrmSearch{};

/// The largest P the table holds (cholesky_plan.hpp's kMaxGcrmProcessors).
inline constexpr int kTabledGcrmNodes = 512;

/// The search's pattern for one P: its size and the run (0 … seeds_per_size − 1) that built it.
struct TabledGcrm {
  int size = 0;  ///< 0: no size gives a balanceable pattern (best_gcrm refuses P)
  int run = 0;
};

/// The table's entry for P; nullopt outside 2 … kTabledGcrmNodes.
std::optional<TabledGcrm> tabled_gcrm(int num_nodes);

}  // namespace hetscal::core
