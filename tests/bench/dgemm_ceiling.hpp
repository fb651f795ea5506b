#pragma once
/// @file dgemm_ceiling.hpp
/// What no factorisation kernel can beat on these ranks: all of its flops at the ranks' DGEMM
/// peak. The real-run factorisation benchmarks (factorization_report.hpp) print it as a
/// ceiling on hetscal/ScaLAPACK beside each homogeneous target, so that a target above it is
/// seen to be out of reach on this machine rather than missed by the kernel.
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "kernels/local_blas.hpp"

namespace hetscal::bench {

/// The sum over the ranks of `comm` of each rank's best DGEMM rate (flop/s), all ranks
/// multiplying at the same time, as they do in a factorisation (on one host they share its
/// memory and its clock). Square 2,048² products of inner dimension 512: past that size
/// OpenBLAS's rate no longer grows (64.1 GFLOP/s at 2,000³ against 62.9 at rank 64 here).
/// Each rank keeps its best of 5 runs: with 3, the sum varied from 123 to 131 GFLOP/s between
/// benchmark runs, and a low peak would understate the ceiling. Collective over `comm`.
inline double concurrent_dgemm_peak(MPI_Comm comm) {
  constexpr std::int64_t kOrder = 2048, kInner = 512;
  constexpr int kRuns = 5;
  std::vector<double> a(kOrder * kInner, 0.5), b(kInner * kOrder, 0.25), c(kOrder * kOrder, 0.0);
  const auto product = [&] {
    kernels::gemm<double>(kernels::Op::NoTrans, kernels::Op::NoTrans, kOrder, kOrder, kInner, -1.0,
                          a.data(), kOrder, b.data(), kInner, 1.0, c.data(), kOrder);
  };
  product();  // the first call pays the library's start and the pages' first touch
  double best = 0.0;
  for (int run = 0; run < kRuns; ++run) {
    MPI_Barrier(comm);
    const auto start = std::chrono::steady_clock::now();
    product();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    best = std::max(best, 2.0 * kOrder * kOrder * kInner / took.count());
  }
  double total = 0.0;
  MPI_Allreduce(&best, &total, 1, MPI_DOUBLE, MPI_SUM, comm);
  return total;
}

}  // namespace hetscal::bench
