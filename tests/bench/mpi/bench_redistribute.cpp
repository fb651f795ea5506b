// Redistribution speed: a caller's 2D block-cyclic matrix (1 x P grid, 64 x 64 blocks) moved
// to a heterogeneous Cartesian layout (speeds 1:3:5:..., 128 x 128 tiles) and back by hetscal,
// and a block-cyclic -> block-cyclic move (64 -> 128 blocks) done both by hetscal and by
// ScaLAPACK's PDGEMR2D on the same data. Medians of interleaved repetitions; GB/s counts
// the matrix's bytes (N*N*8) per second of the slowest rank.
//
// Usage: OPENBLAS_NUM_THREADS=1 mpirun -np 2 bench_redistribute [--reps R]
//        [--message-bytes B] [N ...]
//        (default sizes 2048 4096 8192; B: the point-to-point messages' bound, default the
//        plans' own)
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "layout/cartesian_distribution.hpp"
#include "layout/local_storage.hpp"
#include "mpi/blacs.hpp"
#include "mpi/blacs_context.hpp"
#include "mpi/caller_matrix.hpp"
#include "mpi/redistribute.hpp"

extern "C" void pdgemr2d_(const int* m, const int* n, const double* a, const int* ia, const int* ja,
                          const int* desca, double* b, const int* ib, const int* jb,
                          const int* descb, const int* context);

namespace {

using namespace hetscal;

constexpr int kCallerBlock = 64;
constexpr int kTargetTile = 128;

double seconds_of(const std::function<void()>& run, MPI_Comm comm) {
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  run();
  double elapsed = MPI_Wtime() - start, slowest = 0;
  MPI_Allreduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
  return slowest;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Tile columns per panel of the heterogeneous layout: rank k gets 2k+1 of them (1:3 for two).
std::vector<int> uneven_col_map(int ranks) {
  std::vector<int> map;
  for (int k = 0; k < ranks; ++k) map.insert(map.end(), static_cast<std::size_t>(2 * k + 1), k);
  return map;
}

struct Measurement {
  const char* name;
  std::function<void()> run;
  std::vector<double> times;
};

void bench_size(int n, int reps, std::size_t message_bytes, int context,
                const mpi::ContextInfo& info) {
  const int ranks = info.num_ranks(), me = info.my_rank;
  const long long local_cols = [&] {
    long long count = 0;
    for (int j = 0; j < n; ++j) count += (j / kCallerBlock) % ranks == info.mycol;
    return count;
  }();
  std::vector<int> desc_a = {1, context, n, n, kCallerBlock, kCallerBlock, 0, 0, n};
  std::vector<int> desc_b = {1, context, n, n, kTargetTile, kTargetTile, 0, 0, n};
  const long long b_cols = [&] {
    long long count = 0;
    for (int j = 0; j < n; ++j) count += (j / kTargetTile) % ranks == info.mycol;
    return count;
  }();
  std::vector<double> a(static_cast<std::size_t>(n * std::max(1LL, local_cols)));
  for (std::size_t k = 0; k < a.size(); ++k) a[k] = static_cast<double>(k % 1000003) + 0.5 * me;
  std::vector<double> back(a.size(), 0.0),
      b_ref(static_cast<std::size_t>(n * std::max(1LL, b_cols)), 0.0), b_mine(b_ref.size(), 0.0);

  const layout::MatrixArgument arg_a{n, 1, n, 2, 1, 1, desc_a.data(), 6};
  const layout::MatrixArgument arg_b{n, 1, n, 2, 1, 1, desc_b.data(), 6};
  MPI_Barrier(info.comm);
  const double describe_start = MPI_Wtime();
  const mpi::CallerMatrix ma =
      mpi::describe_caller_matrix(info, context, arg_a, mpi::CheckRules::Scalapack);
  const mpi::CallerMatrix mb =
      mpi::describe_caller_matrix(info, context, arg_b, mpi::CheckRules::Scalapack);
  const double describe_seconds = (MPI_Wtime() - describe_start) / 2;
  const layout::CartesianDistribution het(
      layout::TileSplit(n, kTargetTile), layout::TileSplit(n, kTargetTile), {0},
      uneven_col_map(ranks), layout::ProcessGrid(1, ranks, info.rank_table));
  const layout::CartesianLocalLayout het_storage(het, me);
  std::vector<double> x(static_cast<std::size_t>(het_storage.local_elements()), 0.0);
  const double plan_start = MPI_Wtime();
  mpi::RedistributionPlan to_bc(info.comm, {{ma.distribution.get(), ma.storage.get(),
                                             mb.distribution.get(), mb.storage.get()}});
  mpi::RedistributionPlan to_het(info.comm,
                                 {{ma.distribution.get(), ma.storage.get(), &het, &het_storage}});
  mpi::RedistributionPlan from_het(info.comm,
                                   {{&het, &het_storage, ma.distribution.get(), ma.storage.get()}});
  mpi::RedistributionPlan to_het_transposed(info.comm, {{ma.distribution.get(), ma.storage.get(),
                                                         &het, &het_storage, mpi::Op::Transpose}});
  const double plan_seconds = (MPI_Wtime() - plan_start) / 4;
  if (message_bytes > 0) {
    for (mpi::RedistributionPlan* plan : {&to_bc, &to_het, &from_het, &to_het_transposed}) {
      plan->set_message_bytes(message_bytes);
    }
  }

  const int one = 1, gctx = context;
  std::vector<Measurement> runs = {
      {"pdgemr2d  BC64 -> BC128",
       [&] {
         pdgemr2d_(&n, &n, a.data(), &one, &one, desc_a.data(), b_ref.data(), &one, &one,
                   desc_b.data(), &gctx);
       },
       {}},
      {"hetscal   BC64 -> BC128 (p2p)",
       [&] { mpi::redistribute<double>(to_bc, a.data(), b_mine.data()); },
       {}},
      {"hetscal   BC64 -> BC128 (alltoallv)",
       [&] { mpi::redistribute<double>(to_bc, a.data(), b_mine.data(), mpi::Exchange::Alltoallv); },
       {}},
      {"hetscal   BC64 -> het 1:3 (p2p)",
       [&] { mpi::redistribute<double>(to_het, a.data(), x.data()); },
       {}},
      {"hetscal   het 1:3 -> BC64 (p2p)",
       [&] { mpi::redistribute<double>(from_het, x.data(), back.data()); },
       {}},
      {"hetscal   BC64 -> het 1:3 (alltoallv)",
       [&] { mpi::redistribute<double>(to_het, a.data(), x.data(), mpi::Exchange::Alltoallv); },
       {}},
      {"hetscal   BC64 -> het 1:3 transposed (p2p)",
       [&] { mpi::redistribute<double>(to_het_transposed, a.data(), x.data()); },
       {}},
      // As PDGEMR2D does, with message buffers allocated afresh by this execution.
      {"hetscal   BC64 -> het 1:3 (p2p, cold)",
       [&] {
         to_het.release_buffers();
         mpi::redistribute<double>(to_het, a.data(), x.data());
       },
       {}},
  };
  for (int rep = 0; rep < reps; ++rep) {
    for (Measurement& m : runs) m.times.push_back(seconds_of(m.run, info.comm));
  }
  const bool same_as_scalapack =
      std::memcmp(b_ref.data(), b_mine.data(), b_ref.size() * sizeof(double)) == 0;
  const bool round_trip = std::memcmp(a.data(), back.data(), a.size() * sizeof(double)) == 0;
  int ok_local = same_as_scalapack && round_trip, ok = 0;
  MPI_Allreduce(&ok_local, &ok, 1, MPI_INT, MPI_LAND, info.comm);

  if (me != 0) return;
  const double gigabytes = 8.0 * n * static_cast<double>(n) / 1e9;
  const double reference = median(runs[0].times);
  std::printf(
      "\nN = %d (%.3f GB), %d ranks, %d repetitions, messages of at most %zu bytes; one "
      "argument checked in %.4f s, one plan built in %.4f s\n"
      "results: %s\n",
      n, gigabytes, ranks, reps, to_het.message_bytes(), describe_seconds, plan_seconds,
      ok ? "bit-identical to PDGEMR2D, round trip exact" : "MISMATCH");
  std::printf("  %-44s %10s %8s %10s\n", "move", "median s", "GB/s", "vs pdgemr2d");
  for (const Measurement& m : runs) {
    const double t = median(m.times);
    std::printf("  %-44s %10.4f %8.2f %9.2fx\n", m.name, t, gigabytes / t, reference / t);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int reps = 5;
  std::size_t message_bytes = 0;
  std::vector<int> sizes;
  for (int k = 1; k < argc; ++k) {
    if (std::string(argv[k]) == "--reps" && k + 1 < argc) {
      reps = std::atoi(argv[++k]);
    } else if (std::string(argv[k]) == "--message-bytes" && k + 1 < argc) {
      message_bytes = static_cast<std::size_t>(std::atoll(argv[++k]));
    } else {
      sizes.push_back(std::atoi(argv[k]));
    }
  }
  if (sizes.empty()) sizes = {2048, 4096, 8192};
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int context = Csys2blacs_handle(MPI_COMM_WORLD);
  Cblacs_gridinit(&context, "Row", 1, size);
  {
    const hetscal::mpi::ContextInfo& info = hetscal::mpi::context_info(context);
    for (int n : sizes) bench_size(n, reps, message_bytes, context, info);
  }
  Cblacs_gridexit(context);
  MPI_Finalize();
  return 0;
}
