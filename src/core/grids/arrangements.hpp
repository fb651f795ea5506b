#pragma once
/// @file arrangements.hpp
/// Non-decreasing arrangements of p·q processors on a p×q grid (Boudet, Petitet, Rastello &
/// Robert 1999, §4.2 and Appendix 7.1).
///
/// With the processors sorted by cycle-time, an arrangement is non-decreasing when the rank
/// (position in the sorted list) grows along every grid row and every grid column: the
/// arrangements are exactly the standard Young tableaux of a p×q rectangle, counted by the
/// hook-length formula (Table 4 of the paper).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace hetscal::core {

/// Receives one arrangement: rank_at[i * q + j] is the index, in the list of processors
/// sorted by cycle-time, of the processor at grid position (i, j). The vector is reused
/// between calls; copy it to keep it.
using ArrangementVisitor = std::function<void(const std::vector<std::size_t>& rank_at)>;

/// Calls `visit` once for every non-decreasing arrangement of a p×q grid, in the order of
/// Appendix 7.1's generator (the k-th smallest processor goes to the end of some grid row
/// that is shorter than the row above it). Allocates nothing per arrangement.
///
/// The appendix's pseudo-code stops its recursion at "deep = p + q"; the recursion places one
/// processor per level, so the stop must be deep = p × q (only then is every cell filled and
/// σ(p, q) the last, largest processor). This implementation uses p × q.
/// @param p grid rows >= 1.
/// @param q grid columns >= 1.
/// @throws InvalidArgument if p or q is 0.
void for_each_nondecreasing_arrangement(std::size_t p, std::size_t q,
                                        const ArrangementVisitor& visit);

/// The number of non-decreasing arrangements of a p×q grid, by enumeration
/// (for_each_nondecreasing_arrangement); exponential, meant for checks.
/// @throws InvalidArgument as for_each_nondecreasing_arrangement.
std::uint64_t count_nondecreasing_arrangements(std::size_t p, std::size_t q);

/// The same number from the hook-length formula (pq)! Π_{i=1}^{p-1} i! / Π_{i=q}^{q+p-1} i!
/// (Appendix 7.1, Frame-Robinson-Thrall), computed exactly in integers.
/// @throws InvalidArgument if p or q is 0; Error if the count does not fit 64 bits.
std::uint64_t hook_length_count(std::size_t p, std::size_t q);

}  // namespace hetscal::core
