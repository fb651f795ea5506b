#pragma once
/// @file segments.hpp
/// Intersection of two tile splits of one dimension: the element intervals that lie in one
/// tile of each. Two distributions of the same matrix may have different tile sizes and
/// first-tile sizes; every rectangle (row segment x column segment) then has exactly one
/// source owner and one target owner, which is what the redistribution plan enumerates.
#include <cstdint>
#include <vector>

#include "layout/distribution.hpp"

namespace hetscal::mpi {

/// Elements [start, start+length) of one dimension, inside tile `source_tile` of the source
/// split and tile `target_tile` of the target split.
struct Segment {
  std::int64_t start = 0;
  std::int64_t length = 0;
  std::int64_t source_tile = 0;
  std::int64_t target_tile = 0;
};

/// The segments of [0, extent) cut at every tile boundary of `source` and of `target`, in
/// increasing order.
/// @pre source.extent() == target.extent() (checked: @throws InvalidArgument otherwise).
std::vector<Segment> intersect(const layout::TileSplit& source, const layout::TileSplit& target);

}  // namespace hetscal::mpi
