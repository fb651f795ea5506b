#pragma once
/// @file allocation_1d.hpp
/// Load balancing of identical chunks of work over a linear array of processors of different
/// cycle-times (Boudet, Petitet, Rastello & Robert 1999, §2.3).
///
/// Tie-break used everywhere in this file: when several processors would give the same
/// cost t_k·(c_k + 1) to the next chunk, the one with the smallest t_k·(c_k + 1) wins, and
/// among exact equals the lowest index. This reproduces Table 1 of the paper, whose row for
/// 7 chunks has a tie between P1 and P2 (both 15) and selects P1.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace hetscal::core {

/// Algorithm 2.3.1: the allocation of `chunks` identical chunks minimising
/// max_k c_k·t_k. Starts from c_k = floor(M·(1/t_k) / Σ 1/t_j), then gives each remaining
/// chunk to argmin_k t_k·(c_k + 1) (tie-break: see the file comment). The paper's loop
/// "for m = c_1 + … + c_p to M" would hand out one chunk too many; the increments stop at
/// Σ c_k = M.
/// @param cycle_times t_k > 0 of each processor (time per chunk).
/// @param chunks M >= 0.
/// @return c_k per processor, Σ c_k = M.
/// @throws InvalidArgument if a cycle-time is not finite and > 0, the list is empty, or M < 0.
std::vector<std::int64_t> optimal_allocation(const std::vector<double>& cycle_times,
                                             std::int64_t chunks);

/// Value of IncrementalStep::selected on the last row, which selects nobody (blank in
/// Table 1).
inline constexpr std::size_t kNoSelection = std::numeric_limits<std::size_t>::max();

/// One row of Table 1: the incremental allocation of `chunks` chunks.
struct IncrementalStep {
  std::int64_t chunks = 0;           ///< Σ counts
  std::vector<std::int64_t> counts;  ///< c_k per processor
  /// max_k c_k·t_k / Σ c_k; NaN on the row for 0 chunks, where it is undefined (blank in
  /// Table 1).
  double average_cost = 0.0;
  /// 0-based processor receiving chunk number `chunks + 1`; kNoSelection on the last row.
  std::size_t selected = kNoSelection;
};

/// The dynamic-programming allocation of §2.3.2 (Table 1): starting from no chunk, each
/// chunk goes to argmin_k t_k·(c_k + 1) (tie-break: see the file comment).
/// @param cycle_times t_k > 0 of each processor.
/// @param chunks B >= 0, the last row computed.
/// @return chunks + 1 rows, for 0, 1, …, B chunks.
/// @throws InvalidArgument as optimal_allocation.
std::vector<IncrementalStep> incremental_allocation(const std::vector<double>& cycle_times,
                                                    std::int64_t chunks);

/// Owner (0-based) of chunk 1…B within a slice of B chunks for LU/QR (§2.3.2, Table 2): the
/// selection sequence of incremental_allocation read from right to left, so that every
/// suffix of the slice (what remains to update as the factorisation advances) is
/// balanced as well as the greedy allows.
/// @param cycle_times t_k > 0 of each processor.
/// @param slice B >= 0.
/// @return B owners; for t = (3, 5, 8) and B = 10: (2,1,0,0,1,0,2,0,1,0).
/// @throws InvalidArgument as optimal_allocation.
std::vector<std::size_t> lu_slice_order(const std::vector<double>& cycle_times,
                                        std::int64_t slice);

/// lu_slice_order with fixed totals: the same greedy, where processor k stops receiving
/// chunks once it holds counts[k] of them; the sequence is then reversed. Orders the block
/// rows/columns of a 2D panel once their numbers per processor row/column are known
/// (§3.2.2: equivalent cycle-times 3/20 and 5/17 with counts 4 and 2 give ABAABA).
/// @param cycle_times t_k > 0 of each processor (e.g. equivalent cycle-time of a grid column).
/// @param counts chunks owned by each processor, >= 0; the slice length is their sum.
/// @return Σ counts owners, processor k appearing counts[k] times.
/// @throws InvalidArgument on a bad cycle-time, a negative count, or mismatched sizes.
std::vector<std::size_t> lu_order_with_counts(const std::vector<double>& cycle_times,
                                              const std::vector<std::int64_t>& counts);

}  // namespace hetscal::core
