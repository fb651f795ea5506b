// SimGrid smoke test, run under smpirun on a platform of tests/simgrid/platforms/.
// Usage: simgrid_smoke <speed of each rank's host in flop/s, comma-separated>
// Checks that hetscal's flop-injected compute steps take simulated time flops / host speed,
// so that simulated runs of hetscal's kernels follow the platform's host speeds, and that
// hetscal's redistribution (block-cyclic -> heterogeneous grid -> back) is exact when the
// same source is built with smpicxx.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/flop_counter.hpp"
#include "kernels/local_blas.hpp"
#include "layout/cartesian_distribution.hpp"
#include "layout/local_storage.hpp"
#include "mpi/redistribute.hpp"
#include "mpi/redistribution_plan.hpp"

namespace {

std::vector<double> parse_list(const std::string& text) {
  std::vector<double> values;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) values.push_back(std::stod(item));
  return values;
}

struct Tally {
  int passed = 0, failed = 0;
  void check(bool ok, int rank, const char* what, double got, double want) {
    if (ok) {
      ++passed;
    } else {
      ++failed;
      std::printf("rank %d: FAILED %s: got %.9g, want %.9g\n", rank, what, got, want);
    }
  }
};

// A local GEMM through the wrapper in Skip mode: only its flops reach the simulator.
double timed_skipped_gemm(std::int64_t n) {
  using namespace hetscal::kernels;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  gemm<double>(Op::NoTrans, Op::NoTrans, n, n, n, 1.0, nullptr, n, nullptr, n, 0.0, nullptr, n);
  return MPI_Wtime() - start;
}

// A value no other element has: mismatches cannot cancel out.
double element(std::int64_t i, std::int64_t j) { return static_cast<double>(i * 100003 + j) + 0.25; }

// Every element this rank holds in `storage`, set (or checked) against element(i, j).
template <typename Visit>
void for_each_owned(const hetscal::layout::LocalLayout& storage, Visit visit) {
  for (const auto& tile : storage.owned_tiles()) {
    const auto where = storage.tile_location(tile);
    for (std::int64_t c = 0; c < storage.cols().size(tile.col); ++c)
      for (std::int64_t r = 0; r < storage.rows().size(tile.row); ++r)
        visit(where.offset + r + c * where.ld, storage.rows().offset(tile.row) + r,
              storage.cols().offset(tile.col) + c);
  }
}

// An N×N matrix on a square-ish block-cyclic grid of all ranks, moved to a heterogeneous
// Cartesian grid (uneven periodic row/column maps) and back: both moves must be exact.
bool redistribution_round_trip(int rank, int size, double* seconds) {
  using namespace hetscal;
  int rows = 1;
  for (int p = 1; p * p <= size; ++p)
    if (size % p == 0) rows = p;
  const layout::ProcessGrid grid = layout::ProcessGrid::row_major(rows, size / rows);
  const std::int64_t n = 301, nb = 16;
  std::vector<int> cyclic_rows, cyclic_cols, uneven_rows, uneven_cols;
  for (int r = 0; r < grid.nprow(); ++r) {
    cyclic_rows.push_back(r);
    for (int k = 0; k <= r; ++k) uneven_rows.push_back(r);  // grid row r gets r+1 tiles a panel
  }
  for (int c = 0; c < grid.npcol(); ++c) {
    cyclic_cols.push_back(c);
    for (int k = 0; k <= c % 2; ++k) uneven_cols.push_back(c);
  }
  const layout::TileSplit split(n, nb);
  const layout::CartesianDistribution block_cyclic(split, split, cyclic_rows, cyclic_cols, grid);
  const layout::CartesianDistribution heterogeneous(split, split, uneven_rows, uneven_cols, grid);
  const auto source_storage = layout::make_local_layout(block_cyclic, rank);
  const auto target_storage = layout::make_local_layout(heterogeneous, rank);

  std::vector<double> source(static_cast<std::size_t>(source_storage->local_elements()));
  std::vector<double> target(static_cast<std::size_t>(target_storage->local_elements()), -1.0);
  std::vector<double> back(source.size(), -1.0);
  for_each_owned(*source_storage, [&](std::int64_t at, std::int64_t i, std::int64_t j) {
    source[static_cast<std::size_t>(at)] = element(i, j);
  });

  const mpi::RedistributionPlan there(
      MPI_COMM_WORLD, {{&block_cyclic, source_storage.get(), &heterogeneous, target_storage.get()}});
  const mpi::RedistributionPlan back_again(
      MPI_COMM_WORLD, {{&heterogeneous, target_storage.get(), &block_cyclic, source_storage.get()}});
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  mpi::redistribute<double>(there, source.data(), target.data());
  mpi::redistribute<double>(back_again, target.data(), back.data());
  *seconds = MPI_Wtime() - start;

  bool exact = back == source;
  for_each_owned(*target_storage, [&](std::int64_t at, std::int64_t i, std::int64_t j) {
    exact = exact && target[static_cast<std::size_t>(at)] == element(i, j);
  });
  return exact;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::vector<double> speeds = argc > 1 ? parse_list(argv[1]) : std::vector<double>{};
  if (speeds.size() != static_cast<std::size_t>(size)) {
    if (rank == 0) std::printf("usage: simgrid_smoke <one host speed (flop/s) per rank>\n");
    MPI_Finalize();
    return 2;
  }

  using namespace hetscal::kernels;
  set_compute_mode(ComputeMode::Skip);
  Tally tally;

  const std::int64_t n = 400;  // 1.28e8 flops: 1.28 s on a 100 Mflop/s host
  const double elapsed = timed_skipped_gemm(n);
  const double expected = gemm_flops(n, n, n) / speeds[static_cast<std::size_t>(rank)];
  // SMPI charges a few nanoseconds per MPI_Wtime call: allow 1 µs on top of rounding.
  tally.check(std::fabs(elapsed - expected) <= 1e-6 * expected + 1e-6, rank,
              "simulated time of an injected GEMM", elapsed, expected);
  tally.check(local_flops() == gemm_flops(n, n, n), rank, "flops counted", local_flops(),
              gemm_flops(n, n, n));

  // Every rank did the same work F, so the slowest host finishes last:
  // balance = (P·F/Σs) / (F/min s) = P·min(s)/Σs.
  const FlopBalance balance = gather_flop_balance(MPI_COMM_WORLD, speeds);
  double slowest = speeds[0], total = 0.0;
  for (double s : speeds) {
    slowest = std::min(slowest, s);
    total += s;
  }
  const double want_balance = static_cast<double>(size) * slowest / total;
  tally.check(std::fabs(balance.balance - want_balance) <= 1e-12, rank, "flop balance",
              balance.balance, want_balance);

  double seconds = 0.0;
  const bool exact = redistribution_round_trip(rank, size, &seconds);
  tally.check(exact, rank, "redistribution round trip is exact", exact ? 1.0 : 0.0, 1.0);
  tally.check(seconds > 0.0, rank, "simulated redistribution time", seconds, 0.0);

  int counts[2] = {tally.passed, tally.failed}, totals[2] = {0, 0};
  MPI_Reduce(counts, totals, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) std::printf("%d passed, %d failed\n", totals[0], totals[1]);
  MPI_Finalize();
  return totals[1] == 0 ? 0 : 1;
}
