#pragma once
/// @file separation.hpp
/// Separating very slow processors from the others before arranging them on a grid
/// (Boudet, Petitet, Rastello & Robert 1999, §4.4).
///
/// The paper sorts the cycle-times x_1 <= … <= x_n, draws σ_k/k where σ_k is the standard
/// deviation of the k smallest values, and calls a "jump" a place where the angle between
/// two consecutive segments of that graph exceeds a fixed value. The paper prints
/// σ_k = (Σ_i (x_i − e_k))^{1/2}, which is identically zero (the square and the 1/k of a
/// standard deviation are missing); we use the standard deviation sqrt(Σ_i (x_i − e_k)²/k).
///
/// An angle depends on the units of both axes, so the paper's test is not defined until the
/// units are. Ours (scale-free):
///  - vertical unit = the fastest cycle-time x_1: the curve is y_k = σ_k / (k·x_1). Dividing
///    by x_1 makes the curve invariant when every cycle-time is multiplied by a constant,
///    and it is the unit the paper itself draws in: every example of §4.4 and Table 3
///    gives cycle-times relative to the fastest processor (x_1 = 1);
///  - horizontal unit = one processor (consecutive points are one unit apart, as drawn);
///  - only an upward turn counts: at point k the turn is atan(y_{k+1} − y_k) −
///    atan(y_k − y_{k−1}). A slow group after a tight fast group bends the curve up; values
///    that are all close (e.g. t_k = k) give a concave curve, whose turns are all downward.
///    A downward turn is the curve flattening out, not a jump;
///  - the jump is the largest upward turn, if it exceeds kDefaultJumpAngle (10°), at some
///    k in 2…n−1: the k fastest processors are "fast", the others "slow". k = 1 is never a
///    cut: y_1 = 0 always and the first segment carries no information about a jump.
/// With these units the paper's examples turn by 74.8° ((1,…,7,100,100) at k = 7) and
/// 18.0° (the 9 workstations at k = 3), while t_k = k never turns up. 10° separates a
/// group that is about 3× slower than a tight fast group ({1,1,1,3} turns by 12.2°,
/// {1,1,1,2.5} by 9.2°).
/// Limitation (inherent to σ_k/k): the rise caused by a slow group shrinks roughly like
/// k^{-3/2} with the number k of fast processors before it, so on large machines only very
/// pronounced gaps are detected; otherwise the "all close" arrangement is used, which still
/// puts the slowest processors at the bottom-right of the grid.
#include <cstddef>
#include <vector>

namespace hetscal::core {

/// Default threshold of the jump test, in radians (10 degrees).
inline constexpr double kDefaultJumpAngle = 10.0 * 3.14159265358979323846 / 180.0;

/// Processors sorted by cycle-time together with the σ_k/k curve of the sorted values.
/// Every prefix of it is the same object for the k fastest processors, so a planner that
/// tries many grid sizes sorts only once.
struct SortedProcessors {
  std::vector<double> cycle_time;   ///< non-decreasing
  std::vector<std::size_t> index;   ///< position of each value in the caller's list
  std::vector<double> spread;       ///< spread[k-1] = σ_k / (k·x_1), k = 1…n
  std::vector<double> turn;         ///< turn[k-1] = spread_turn(spread, k), k = 2…n−1; 0 elsewhere
  std::size_t size() const { return cycle_time.size(); }
};

/// Sorts (stably: equal cycle-times keep the caller's order) and computes the spread curve.
/// @param cycle_times t_k > 0 per processor.
/// @return the sorted processors.
/// @throws InvalidArgument if the list is empty or a value is not finite and > 0.
SortedProcessors sort_processors(const std::vector<double>& cycle_times);

/// Upward turn (radians) of the spread curve at 1-based point k, 2 <= k <= n−1.
/// @pre spread.size() >= k + 1 and k >= 2.
double spread_turn(const std::vector<double>& spread, std::size_t k);

/// Number of fast processors among the `count` fastest of `sorted` (the jump test above
/// applied to that prefix): `count` when all values are close.
/// @param sorted processors from sort_processors.
/// @param count prefix length, 1 <= count <= sorted.size().
/// @param jump_angle threshold in radians.
/// @return k0 in 2…count−1 when there is a jump, else count.
/// @throws InvalidArgument if count is 0 or larger than sorted.size().
std::size_t fast_prefix_count(const SortedProcessors& sorted, std::size_t count,
                              double jump_angle = kDefaultJumpAngle);

/// The split of §4.4: indices of the processors, fastest first, and how many are fast.
struct SpeedSeparation {
  std::vector<std::size_t> order;  ///< indices into the caller's list, fastest first
  std::size_t fast_count = 0;      ///< order[0 … fast_count) are fast
  bool separated() const { return fast_count < order.size(); }
};

/// Separates the slow processors from the fast ones (§4.4, with the units defined above).
/// @param cycle_times t_k > 0 per processor.
/// @param jump_angle threshold in radians, > 0.
/// @return the processors sorted by cycle-time and the number of fast ones.
/// @throws InvalidArgument on a bad cycle-time or a jump_angle that is not in (0, π).
SpeedSeparation separate_slow_processors(const std::vector<double>& cycle_times,
                                         double jump_angle = kDefaultJumpAngle);

}  // namespace hetscal::core
