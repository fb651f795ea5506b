// The exhaustive row plan: Dijkstra over net shifts. Kept apart from the polynomial
// algorithms because it is only a yardstick for them.
#include <algorithm>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <utility>

#include "core/common/error.hpp"
#include "core/rebalancing/row_balancing.hpp"
#include "core/rebalancing/row_balancing_detail.hpp"

namespace hetscal::core {

namespace {

// Shifts m in [low, high]^n numbered in base (high - low + 1), position 0 least significant.
struct ShiftSpace {
  std::size_t positions = 0;
  long long low = 0;
  std::size_t values = 1;
  std::vector<std::size_t> place;  // values^p

  std::size_t digit(std::size_t state, std::size_t p) const { return state / place[p] % values; }
  std::vector<long long> decode(std::size_t state) const {
    std::vector<long long> shift(positions);
    for (std::size_t p = 0; p < positions; ++p)
      shift[p] = low + static_cast<long long>(digit(state, p));
    return shift;
  }
};

ShiftSpace shift_space(const RowImbalance& imbalance, std::size_t positions,
                       std::size_t max_states) {
  const auto [low, high] = detail::need_range(imbalance);
  ShiftSpace space;
  space.positions = positions;
  space.low = low;
  space.values = static_cast<std::size_t>(high - low + 1);
  std::size_t states = 1;
  for (std::size_t p = 0; p < positions; ++p) {
    space.place.push_back(states);
    if (states > max_states / space.values)
      throw InvalidArgument("an exhaustive row plan over " + std::to_string(positions) +
                            " positions and " + std::to_string(space.values) +
                            " shift values exceeds " + std::to_string(max_states) + " states");
    states *= space.values;
  }
  space.place.push_back(states);
  return space;
}

}  // namespace

RowPlan exhaustive_row_plan(const RowImbalance& imbalance, RowMigrationCost pricing,
                            std::size_t max_states) {
  const detail::BorderAxis axis(imbalance);
  const std::size_t n = axis.size();
  const ShiftSpace space = shift_space(imbalance, n, max_states);
  const std::size_t states = space.place.back();
  const double inf = std::numeric_limits<double>::infinity();

  std::vector<double> spent(states, inf);  // cheapest migrations reaching each shift
  std::vector<std::size_t> parent(states, states);
  std::vector<detail::Run> last_run(states);
  using Entry = std::pair<double, std::size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
  std::size_t start = 0;
  for (std::size_t p = 0; p < n; ++p)
    start += static_cast<std::size_t>(-space.low) * space.place[p];
  spent[start] = 0.0;
  queue.push({0.0, start});

  double best_total = inf;
  std::size_t best_state = start;
  while (!queue.empty()) {
    const auto [cost, state] = queue.top();
    queue.pop();
    if (cost > spent[state]) continue;
    if (cost >= best_total) break;  // slidings cost >= 0: nothing left can do better
    const double total = cost + axis.sliding_cost(space.decode(state));
    if (total < best_total) {
      best_total = total;
      best_state = state;
    }
    for (std::size_t first = 0; first < n; ++first) {
      for (std::size_t last = first; last < n; ++last) {
        const double next_cost = cost + axis.price(first, last, pricing);
        for (int step : {+1, -1}) {
          // Moving every digit of first..last by step; refuse to leave the range.
          bool inside = true;
          std::size_t run_value = 0;  // Σ place[p] over the run
          for (std::size_t p = first; p <= last && inside; ++p) {
            const std::size_t d = space.digit(state, p);
            inside = step > 0 ? d + 1 < space.values : d > 0;
            run_value += space.place[p];
          }
          if (!inside) continue;
          const std::size_t next = step > 0 ? state + run_value : state - run_value;
          if (next_cost < spent[next]) {
            spent[next] = next_cost;
            parent[next] = state;
            last_run[next] = {first, last, step};
            queue.push({next_cost, next});
          }
        }
      }
    }
  }
  std::vector<detail::Run> runs;
  for (std::size_t state = best_state; state != start; state = parent[state])
    runs.push_back(last_run[state]);
  std::reverse(runs.begin(), runs.end());
  return axis.make_plan(runs, pricing);
}

}  // namespace hetscal::core
