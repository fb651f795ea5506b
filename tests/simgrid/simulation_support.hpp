#pragma once
/// @file simulation_support.hpp
/// Shared by the simulated benchmarks (SimGrid builds): a rank's matrix storage in SMPI shared
/// memory, the simulated duration of one collective call on any communicator, and main().
/// Command-line lists: parse_list of ../bench/real_bench_support.hpp.
#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>

#include "layout/local_storage.hpp"

namespace hetscal::bench {

/// One matrix's local storage on this rank, in SMPI shared memory (global mode: every
/// allocation maps the same few physical pages). The contents are meaningless: the simulated
/// kernels run in ComputeMode::Skip and only their messages and injected flops count, so a
/// matrix of order 20,000 on 39 ranks costs a few pages of real memory.
class SharedLocalMatrix {
 public:
  explicit SharedLocalMatrix(const layout::LocalLayout& storage)
      : data_(static_cast<double*>(SMPI_SHARED_MALLOC(
            static_cast<std::size_t>(std::max<std::int64_t>(1, storage.local_elements())) *
            sizeof(double)))) {}
  ~SharedLocalMatrix() { SMPI_SHARED_FREE(data_); }
  SharedLocalMatrix(const SharedLocalMatrix&) = delete;
  SharedLocalMatrix& operator=(const SharedLocalMatrix&) = delete;

  double* data() const { return data_; }

 private:
  double* data_;
};

/// Simulated seconds of `call`, collective over `comm`: from a barrier before it to a
/// barrier after it, so that the slowest rank's finish is what is measured.
template <typename Call>
double simulated_seconds(MPI_Comm comm, Call&& call) {
  MPI_Barrier(comm);
  const double start = MPI_Wtime();
  call();
  MPI_Barrier(comm);
  return MPI_Wtime() - start;
}

/// Rank 0 prints one result row (row.print()) and writes it to `csv` (row.write(csv)) when
/// open; the other ranks do nothing.
template <typename Row>
void report_row(const Row& row, int rank, std::FILE* csv) {
  if (rank != 0) return;
  row.print();
  if (csv != nullptr) row.write(csv);
  std::fflush(stdout);
}

/// Rank 0's end of a benchmark: closes `csv` (PREFIX.csv, null when it could not be opened)
/// and says whether it was written. The figures are drawn from the CSV by tests/report.
/// @return the exit status: 0, or 1 when the CSV could not be written.
inline int finish_outputs(std::FILE* csv, const std::string& prefix) {
  const bool written = csv != nullptr && std::fclose(csv) == 0;
  std::printf("%s %s.csv\n", written ? "wrote" : "could not write", prefix.c_str());
  return written ? 0 : 1;
}

/// main() of a simulated benchmark: MPI_Init, `run(argc, argv, world rank)`, MPI_Finalize.
/// An exception is printed with the rank and makes the exit status 1; otherwise run's value.
inline int run_simulation(int argc, char** argv, int (*run)(int, char**, int)) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int status = 0;
  try {
    status = run(argc, argv, rank);
  } catch (const std::exception& e) {
    std::printf("rank %d: %s\n", rank, e.what());
    std::fflush(stdout);  // a rank that fails may be followed by another's abort
    status = 1;
  }
  MPI_Finalize();
  return status;
}

}  // namespace hetscal::bench
