#include "runtime/pricing.hpp"

#include "layout/descriptor.hpp"
#include "mpi/mpi_error.hpp"

namespace hetscal::runtime {

core::CallerLayout caller_layout(const mpi::ContextInfo& context, const layout::Descriptor& d, int ia, int ja) {
  // The process row/column holding sub(X)'s first row/column (first block IMB/INB apart).
  const auto first_process = [](std::int64_t offset, std::int64_t first, std::int64_t block,
                                int source, int count) {
    const std::int64_t blocks = offset < first ? 0 : 1 + (offset - first) / block;
    return static_cast<int>((source + blocks) % count);
  };
  // The model knows one block size and where sub(X) starts in its first block; inside the
  // first block of IMB (or INB) rows, the offset that leaves as many rows in it, or none when
  // more than a block's worth remain (a first block larger than MB is priced as a whole one).
  const auto offset_in_block = [](std::int64_t offset, std::int64_t first, std::int64_t block) {
    if (offset >= first) return (offset - first) % block;
    const std::int64_t remaining = first - offset;
    return remaining >= block ? std::int64_t{0} : block - remaining;
  };
  const int row0 = first_process(ia - 1, d.imb, d.mb, d.rsrc, context.nprow);
  const int col0 = first_process(ja - 1, d.inb, d.nb, d.csrc, context.npcol);
  core::CallerLayout caller;
  caller.grid_rows = static_cast<std::size_t>(context.nprow);
  caller.grid_cols = static_cast<std::size_t>(context.npcol);
  caller.block = static_cast<std::size_t>(d.mb);
  caller.row_block = static_cast<std::size_t>(d.mb);
  caller.col_block = static_cast<std::size_t>(d.nb);
  caller.row_offset = static_cast<std::size_t>(offset_in_block(ia - 1, d.imb, d.mb));
  caller.col_offset = static_cast<std::size_t>(offset_in_block(ja - 1, d.inb, d.nb));
  for (int i = 0; i < context.nprow; ++i) {
    for (int j = 0; j < context.npcol; ++j) {
      caller.processor_at.push_back(static_cast<std::size_t>(
          context.rank((row0 + i) % context.nprow, (col0 + j) % context.npcol)));
    }
  }
  return caller;
}

std::vector<std::size_t> caller_layout_key(const core::CallerLayout& caller) {
  std::vector<std::size_t> key{caller.grid_rows, caller.grid_cols, caller.mb(), caller.nb(),
                               caller.row_offset, caller.col_offset};
  key.insert(key.end(), caller.processor_at.begin(), caller.processor_at.end());
  return key;
}

Prices price_routes(const core::Platform& platform, const core::Problem& problem,
                    const core::Candidate& planned) {
  Prices prices;
  prices.forward_s =
      core::predict(platform, problem, core::caller_layout_candidate(problem)).total_s();
  const core::Prediction heterogeneous = core::predict(platform, problem, planned);
  prices.heterogeneous_s = heterogeneous.total_s();
  prices.moves_s = heterogeneous.time.redistribution;
  return prices;
}

void price_first_touch(Prices& prices, MPI_Comm comm, double local_growth_bytes,
                       double fresh_memory_bytes_per_s) {
  double most = 0.0;
  mpi::check_mpi(MPI_Allreduce(&local_growth_bytes, &most, 1, MPI_DOUBLE, MPI_MAX, comm),
                 "MPI_Allreduce");
  prices.first_touch_bytes = most;
  prices.first_touch_s = most / fresh_memory_bytes_per_s;
  prices.heterogeneous_s += prices.first_touch_s;
}

double predicted_compute_seconds(const core::Platform& platform, const core::Problem& problem,
                                 const core::Candidate& candidate) {
  const core::Prediction p = core::predict(platform, problem, candidate);
  return p.total_s() - p.time.redistribution;
}

}  // namespace hetscal::runtime
