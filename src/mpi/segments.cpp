#include "mpi/segments.hpp"

#include <algorithm>
#include <string>

#include "core/common/error.hpp"

namespace hetscal::mpi {

std::vector<Segment> intersect(const layout::TileSplit& source, const layout::TileSplit& target) {
  if (source.extent() != target.extent()) {
    throw InvalidArgument("hetscal: redistribution between extents " +
                          std::to_string(source.extent()) + " and " +
                          std::to_string(target.extent()));
  }
  std::vector<Segment> segments;
  std::int64_t source_tile = 0, target_tile = 0, start = 0;
  while (start < source.extent()) {
    const std::int64_t source_end = source.offset(source_tile) + source.size(source_tile);
    const std::int64_t target_end = target.offset(target_tile) + target.size(target_tile);
    const std::int64_t end = std::min(source_end, target_end);
    segments.push_back({start, end - start, source_tile, target_tile});
    if (end == source_end) ++source_tile;
    if (end == target_end) ++target_tile;
    start = end;
  }
  return segments;
}

}  // namespace hetscal::mpi
