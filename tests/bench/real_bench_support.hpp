#pragma once
/// @file real_bench_support.hpp
/// Shared by the real-run benchmarks (bench_gemm_real, bench_cholesky_real, bench_lu_real,
/// bench_qr_real): comma lists on the command line, a timed run agreed by every rank, and
/// medians of repetitions.
#include <mpi.h>

#include <algorithm>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace hetscal::bench {

/// "1,0.3333" → {1, 0.3333}.
template <typename T>
std::vector<T> parse_list(const std::string& text) {
  std::vector<T> values;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    values.push_back(static_cast<T>(std::stod(item)));
  return values;
}

/// Wall time of `run` between two barriers, the slowest rank's, on every rank.
inline double timed(const std::function<void()>& run) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  run();
  MPI_Barrier(MPI_COMM_WORLD);
  double seconds = MPI_Wtime() - start;
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return seconds;
}

/// The median (the upper one of an even count); 0 when empty.
inline double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values.empty() ? 0.0 : values[values.size() / 2];
}

}  // namespace hetscal::bench
