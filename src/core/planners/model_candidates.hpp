#pragma once
/// @file model_candidates.hpp
/// Candidates for the time model (time_model.hpp), in the spirit of HeteroPBLAS's context
/// creation (Reddy2009, §4.2): every process count k (the fastest k processors: dropping slow
/// ones can pay), every grid shape p×q = k, every tile size; for each, the heterogeneous grid
/// of the grid planner (grid_planner.hpp: Boudet et al.'s heuristic, exact for small grids)
/// and the plain block-cyclic grid on the same processors; G-2DBC where k has no near-square
/// factorisation, a heterogeneous pattern (pattern_hetero.hpp); plus the caller's own
/// layout, which needs no redistribution.
#include <cstddef>
#include <string>
#include <vector>

#include "core/patterns/pattern.hpp"
#include "core/time_models/platform.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// Kinds of candidate the generator builds.
enum class CandidateFamily {
  CallerLayout,       ///< compute in place (caller_layout_candidate)
  HeterogeneousGrid,  ///< plan_grid_heuristic on the fastest p·q processors
  BlockCyclicGrid,    ///< equal shares on the fastest p·q processors (sorted row-major)
  G2dbcPattern,       ///< G-2DBC on the fastest k when k is not r·r or r·(r+1)
  HeterogeneousPattern,  ///< hetero_pattern on the fastest k, 2 <= k <= largest_hetero_pattern_count
};

struct CandidateOptions {
  std::vector<std::size_t> tile_sizes{32, 64, 128, 256};
  std::vector<CandidateFamily> families{
      CandidateFamily::CallerLayout, CandidateFamily::HeterogeneousGrid,
      CandidateFamily::BlockCyclicGrid, CandidateFamily::G2dbcPattern,
      CandidateFamily::HeterogeneousPattern};
  int pattern_min_cells_per_node = 4;  ///< HeteroPatternOptions::min_cells_per_node
  /// Cells of all heterogeneous patterns together (on the fastest 2, 3, … processors): their
  /// construction and pricing grow with their cells, and a pattern's cells with k and the
  /// speed ratio (hetero_pattern_cells_needed). 2^16 keeps equal speeds on 128 processors
  /// and a ratio of 16,000 on 2; beyond it the larger k are left out.
  double max_pattern_cells = 65536;
  std::size_t max_processors = 0;  ///< 0: all of the platform's
  /// The process counts k (fastest k processors) to build for, each <= max_processors;
  /// empty: every k (searched_process_counts, candidate_search.hpp, gives the scalable ones).
  std::vector<std::size_t> process_counts;
};

/// Builds the candidates for `problem` on `platform`. Tile sizes larger than N are skipped
/// (except that at least the smallest listed one is kept).
/// @throws InvalidArgument on an invalid platform, an empty or zero tile size list.
std::vector<Candidate> generate_candidates(const Platform& platform, const Problem& problem,
                                           const CandidateOptions& options = {});

/// A Cartesian candidate from grid shape, row-major processors and shares; the label says
/// "<family> pxq".
Candidate cartesian_candidate(std::string label, std::size_t tile, std::size_t rows,
                              std::size_t cols, std::vector<std::size_t> processor_at,
                              std::vector<double> row_share, std::vector<double> col_share);

/// A pattern candidate: pattern node k runs on platform processor node_processor[k].
/// Unassigned diagonal cells (GCR&M) go to the node of their colrow owning the fewest cells
/// (the model prices one owner per cell, not per replica).
/// @throws InvalidArgument if node_processor does not have one entry per pattern node.
Candidate pattern_candidate(std::string label, std::size_t tile, const Pattern& pattern,
                            const std::vector<std::size_t>& node_processor);

/// The largest process count k whose heterogeneous pattern generate_candidates builds (on
/// the fastest k): the patterns for 2, 3, …, k together need at most max_pattern_cells
/// cells. 1 when none is built (a single processor, or the pattern on 2 is too large).
std::size_t largest_hetero_pattern_count(const Platform& platform, const CandidateOptions& options);

/// Processors of the platform by decreasing speed (stable: ties keep index order).
std::vector<std::size_t> fastest_first(const Platform& platform);

}  // namespace hetscal::core
