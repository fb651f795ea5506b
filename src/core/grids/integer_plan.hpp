#pragma once
/// @file integer_plan.hpp
/// Integer numbers of block rows and block columns per grid row and column inside a block
/// panel (Boudet, Petitet, Rastello & Robert 1999, §3.1.2 and §4.1: "we scale them … and
/// round", which the paper leaves open).
///
/// A B_p×B_q panel gives r_i >= 1 block rows to grid row i and c_j >= 1 block columns to
/// grid column j, Σr = B_p, Σc = B_q; processor (i, j) then needs r_i·t_ij·c_j per panel and
/// the panel takes T = max_ij r_i·t_ij·c_j. We minimise T. For a fixed integer c, the best
/// integer r is the 1D problem of Algorithm 2.3.1 with cycle-times k_i = max_j t_ij·c_j,
/// with a floor of one block per grid row (every grid row must own rows of the matrix so
/// that the grid keeps its shape); symmetrically for c. Hence:
///  - exhaustive (exact): when one side has few compositions (C(B−1, n−1) within a budget),
///    every composition of that side with the best other side;
///  - otherwise alternating: from the largest-remainder rounding of the rational shares,
///    best r for c, best c for r, … while T strictly decreases; never worse than the
///    rounding it starts from.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/grids/grid_shares.hpp"

namespace hetscal::core {

/// Integer shares of a block panel.
struct PanelCounts {
  std::vector<std::int64_t> r;  ///< block rows per grid row, each >= 1, Σ = B_p
  std::vector<std::int64_t> c;  ///< block columns per grid column, each >= 1, Σ = B_q
};

/// max_ij r_i·t_ij·c_j: time of one panel on its slowest processor.
double panel_time(const Arrangement& a, const PanelCounts& counts);

/// (Σr)(Σc) / panel_time: blocks per unit of time, comparable with the rational W.
double panel_work_per_time(const Arrangement& a, const PanelCounts& counts);

/// Algorithm 2.3.1 with a floor of one chunk per processor: minimises max_k n_k·t_k with
/// n_k >= 1 and Σ n_k = chunks (greedy from one chunk each: the next chunk goes to
/// argmin t_k·(n_k + 1), lowest index among equals; optimal for this min-max problem).
/// Algorithm 2.3.1 itself (allocation_1d.hpp) may leave a processor with 0 chunks.
/// @param cycle_times t_k > 0.
/// @param chunks total, >= cycle_times.size().
/// @return n_k per processor.
/// @throws InvalidArgument on a bad cycle-time or chunks < cycle_times.size().
std::vector<std::int64_t> allocation_at_least_one(const std::vector<double>& cycle_times,
                                                  std::int64_t chunks);

/// Where allocation_at_least_one's greedy starts: a state it passes through, most of its way
/// to `chunks`. The greedy hands out the chunks' finish times j·t_k (j >= 2) in increasing
/// (time, index) order, so giving at once every one at most some time τ is a prefix of its run
/// whenever their number fits in the chunks; τ = chunks / Σ 1/t_k, the rational balance, fits
/// but for rounding (checked: one chunk each otherwise), and leaves at most one chunk per
/// processor to the greedy. GEMM's planner at 1,024 processors spent 40 % of its time in that
/// greedy, a heap step per chunk.
/// @pre cycle_times > 0 and finite; chunks >= cycle_times.size() (allocation_at_least_one checks).
std::vector<std::int64_t> allocation_at_least_one_start(const std::vector<double>& cycle_times,
                                                        std::int64_t chunks);

/// Largest-remainder rounding of shares s to integers >= 1 that sum to `total`: s scaled to
/// `total`, rounded down (at least 1), the missing units to the largest remainders (or,
/// when the floor of 1 overshoots, units taken back from the most over-served entries).
/// @throws InvalidArgument if a share is not finite and > 0 or total < shares.size().
std::vector<std::int64_t> largest_remainder_round(const std::vector<double>& shares,
                                                  std::int64_t total);

/// Limits of plan_panel_counts.
struct IntegerPlanOptions {
  /// Largest number of compositions searched exhaustively (one side).
  std::uint64_t exhaustive_budget = 100000;
  /// Safety cap on alternation rounds.
  std::size_t max_rounds = 1000;
};

/// How plan_panel_counts found its answer.
enum class IntegerSearch { Exhaustive, Alternating };

/// Result of plan_panel_counts.
struct IntegerPlan {
  PanelCounts counts;
  double work_per_time = 0.0;  ///< panel_work_per_time(counts)
  IntegerSearch search = IntegerSearch::Alternating;
};

/// Integer shares of a B_p×B_q panel (see the file comment).
/// @param a the arrangement.
/// @param rational rational shares (the start of the alternating search).
/// @param panel_rows B_p >= a.rows.
/// @param panel_cols B_q >= a.cols.
/// @param options exhaustive budget and round cap.
/// @return counts minimising the panel time (exact when search == Exhaustive).
/// @throws InvalidArgument if the panel is smaller than the grid or the shares do not fit.
IntegerPlan plan_panel_counts(const Arrangement& a, const Shares& rational,
                              std::int64_t panel_rows, std::int64_t panel_cols,
                              const IntegerPlanOptions& options = {});

}  // namespace hetscal::core
