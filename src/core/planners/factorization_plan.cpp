#include "core/planners/factorization_plan.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>

#include "core/common/error.hpp"
#include "core/planners/model_candidates.hpp"

namespace hetscal::core {

std::vector<std::size_t> usable_tile_sizes(const std::vector<std::size_t>& listed, std::size_t extent,
                                           const std::string& planner, const KernelRate& kernel) {
  if (listed.empty()) throw InvalidArgument(planner + ": no tile size");
  std::vector<std::size_t> tiles;
  for (std::size_t nb : listed) {
    if (nb == 0) throw InvalidArgument(planner + ": tile size 0");
    if (nb <= extent) tiles.push_back(nb);
  }
  if (tiles.empty()) tiles.push_back(*std::min_element(listed.begin(), listed.end()));
  const double efficient = kernel.smallest_efficient_tile(kEfficientTileRate);
  const auto too_narrow = [&](std::size_t nb) { return static_cast<double>(nb) < efficient; };
  if (!std::all_of(tiles.begin(), tiles.end(), too_narrow))
    tiles.erase(std::remove_if(tiles.begin(), tiles.end(), too_narrow), tiles.end());
  return tiles;
}

std::size_t planned_processor_count(const Platform& platform, std::size_t max_processors) {
  return max_processors == 0 ? platform.size() : std::min(max_processors, platform.size());
}

std::vector<std::size_t> planned_process_counts(const Platform& platform, std::size_t max_processors,
                                                bool exhaustive) {
  std::vector<std::size_t> counts = searched_process_counts(platform, max_processors, exhaustive);
  for (std::size_t k : pattern_process_counts(platform, max_processors)) counts.push_back(k);
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  return counts;
}

std::vector<std::size_t> fastest_processors(const Platform& platform, std::size_t k) {
  std::vector<std::size_t> order = fastest_first(platform);
  order.resize(k);
  return order;
}

std::vector<std::size_t> pattern_process_counts(const Platform& platform, std::size_t max_processors) {
  const std::size_t most = planned_processor_count(platform, max_processors);
  const auto order = fastest_first(platform);
  std::vector<std::size_t> counts;
  for (std::size_t k = 1; k < most; ++k)
    if (2.0 * platform.processors[order[k]].speed_flops < platform.processors[order[k - 1]].speed_flops)
      counts.push_back(k);
  counts.push_back(most);
  return counts;
}

std::vector<GridShape> grid_shapes(std::size_t k) {
  std::vector<GridShape> shapes;
  for (std::size_t p = 1; p <= k; ++p)
    if (k % p == 0) shapes.push_back({p, k / p});
  return shapes;
}

std::string plan_label(const std::string& name, std::size_t p, std::size_t q) {
  std::ostringstream s;
  s << name << ' ' << p;
  if (q != 0) s << 'x' << q;
  return s.str();
}

Candidate block_cyclic_grid(std::string label, std::size_t tile, GridShape shape,
                            std::vector<std::size_t> processors) {
  Candidate c = cartesian_candidate(std::move(label), tile, shape.rows, shape.cols,
                                    std::move(processors), std::vector<double>(shape.rows, 1.0),
                                    std::vector<double>(shape.cols, 1.0));
  c.row_order.resize(shape.rows);
  c.col_order.resize(shape.cols);
  std::iota(c.row_order.begin(), c.row_order.end(), std::size_t{0});
  std::iota(c.col_order.begin(), c.col_order.end(), std::size_t{0});
  return c;
}

Candidate cartesian_sketch(std::string label, std::size_t tile, GridShape shape) {
  Candidate sketch;
  sketch.kind = CandidateKind::Cartesian;
  sketch.label = std::move(label);
  sketch.tile = tile;
  sketch.rows = shape.rows;
  sketch.cols = shape.cols;
  return sketch;
}

double summed_speed(const Platform& platform, const std::vector<std::size_t>& processors) {
  double speed = 0.0;
  for (std::size_t x : processors) speed += platform.processors[x].speed_flops;
  return speed;
}

bool columns_mix_speeds(const Platform& platform, std::size_t rows, std::size_t cols,
                        const std::vector<std::size_t>& owner) {
  for (std::size_t b = 0; b < cols; ++b)
    for (std::size_t a = 1; a < rows; ++a)
      if (platform.processors[owner[a * cols + b]].speed_flops != platform.processors[owner[b]].speed_flops)
        return true;
  return false;
}

std::vector<double> cycle_times_of(const Platform& platform) {
  std::vector<double> t;
  for (const auto& proc : platform.processors) t.push_back(1.0 / proc.speed_flops);
  return t;
}

Speeds speeds_of(const Platform& platform, const std::vector<std::size_t>& processors) {
  std::vector<double> speeds;
  for (std::size_t x : processors) speeds.push_back(platform.processors[x].speed_flops);
  return Speeds::from_speeds(std::move(speeds));
}

bool speeds_differ(const Platform& platform, const std::vector<std::size_t>& processors) {
  for (std::size_t x : processors)
    if (platform.processors[x].speed_flops != platform.processors[processors.front()].speed_flops)
      return true;
  return false;
}

}  // namespace hetscal::core
