/// @file block_cyclic.cpp
/// Block-cyclic index arithmetic written from the definitions: block 0 is [0, first_block)
/// on the source; block k >= 1 is [first_block + (k-1)*block, first_block + k*block) on
/// coordinate (source + k) mod nprocs.
#include "layout/block_cyclic.hpp"

#include <algorithm>
#include <string>

#include "core/common/error.hpp"

namespace hetscal::layout {

namespace {

/// Distance of `proc` from the source, in [0, nprocs).
int distance_from_source(const CyclicAxis& axis, int proc) {
  const int d = (proc - axis.source) % axis.nprocs;
  return d < 0 ? d + axis.nprocs : d;
}

std::string field(const char* name, std::int64_t value) {
  return std::string(name) + " = " + std::to_string(value);
}

}  // namespace

void validate(const CyclicAxis& axis) {
  if (axis.extent < 0) {
    throw InvalidArgument("CyclicAxis: " + field("extent", axis.extent) + " is negative");
  }
  if (axis.block < 1) {
    throw InvalidArgument("CyclicAxis: " + field("block", axis.block) + " must be >= 1");
  }
  if (axis.first_block < 1) {
    throw InvalidArgument("CyclicAxis: " + field("first_block", axis.first_block) +
                          " must be >= 1");
  }
  if (axis.nprocs < 1) {
    throw InvalidArgument("CyclicAxis: " + field("nprocs", axis.nprocs) + " must be >= 1");
  }
  if (axis.source < kReplicated || axis.source >= axis.nprocs) {
    throw InvalidArgument("CyclicAxis: " + field("source", axis.source) + " must be -1 or in [0, " +
                          std::to_string(axis.nprocs) + ")");
  }
}

int owner_coordinate(const CyclicAxis& axis, std::int64_t global) {
  if (axis.undistributed() || global < axis.first_block) return axis.source;
  const std::int64_t block_index = 1 + (global - axis.first_block) / axis.block;
  return static_cast<int>((axis.source + block_index) % axis.nprocs);
}

std::int64_t local_count_before(const CyclicAxis& axis, std::int64_t global, int proc) {
  if (axis.undistributed()) return global;
  const int d = distance_from_source(axis, proc);
  if (global <= axis.first_block) return d == 0 ? global : 0;
  // Blocks k >= 1 entirely below `global`: 1..full; block full+1 holds `partial` of them.
  const std::int64_t past_first = global - axis.first_block;
  const std::int64_t full = past_first / axis.block;
  const std::int64_t partial = past_first % axis.block;
  const std::int64_t first_mine = d == 0 ? axis.nprocs : d;  // smallest k >= 1 with k = d
  const std::int64_t full_mine = full >= first_mine ? (full - first_mine) / axis.nprocs + 1 : 0;
  std::int64_t count = (d == 0 ? axis.first_block : 0) + full_mine * axis.block;
  if (partial > 0 && (full + 1) % axis.nprocs == d) count += partial;
  return count;
}

std::int64_t local_count(const CyclicAxis& axis, std::int64_t start, std::int64_t count, int proc) {
  return local_count_before(axis, start + count, proc) - local_count_before(axis, start, proc);
}

std::int64_t global_to_local(const CyclicAxis& axis, std::int64_t global) {
  if (axis.undistributed()) return global;
  return local_count_before(axis, global, owner_coordinate(axis, global));
}

std::int64_t local_to_global(const CyclicAxis& axis, std::int64_t local, int proc) {
  if (axis.undistributed()) return local;
  const int d = distance_from_source(axis, proc);
  std::int64_t block_index = 0;  // global block k holding the index
  std::int64_t within = 0;       // position inside that block
  if (d == 0) {
    if (local < axis.first_block) return local;
    const std::int64_t rest = local - axis.first_block;
    block_index = (rest / axis.block + 1) * axis.nprocs;
    within = rest % axis.block;
  } else {
    block_index = d + (local / axis.block) * axis.nprocs;
    within = local % axis.block;
  }
  return axis.first_block + (block_index - 1) * axis.block + within;
}

std::int64_t block_remainder(const CyclicAxis& axis, std::int64_t global) {
  if (global < axis.first_block) return axis.first_block - global;
  return axis.block - (global - axis.first_block) % axis.block;
}

CyclicAxis sub_axis(const CyclicAxis& axis, std::int64_t start, std::int64_t count) {
  CyclicAxis sub = axis;
  sub.extent = count;
  sub.first_block = block_remainder(axis, start);
  sub.source = owner_coordinate(axis, start);
  return sub;
}

}  // namespace hetscal::layout
