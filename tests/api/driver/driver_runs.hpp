#pragma once
// What the tester-style drivers share around their cases: timed repetitions on a grid, and
// the tally of checks with ScaLAPACK's testers' closing summary and exit status.
#include <mpi.h>

#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "driver_input.hpp"
#include "driver_matrices.hpp"

namespace hetscal::driver {

/// Times `run` `repetitions` times on the processes of `comm`, calling `restore` (untimed)
/// before each run; each time is the slowest process's, the same on every process.
template <typename Run, typename Restore>
std::vector<double> timed_runs(int repetitions, MPI_Comm comm, Run run, Restore restore) {
  std::vector<double> seconds;
  for (int r = 0; r < repetitions; ++r) {
    restore();
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    run();
    double took = MPI_Wtime() - start, slowest = 0.0;
    MPI_Allreduce(&took, &slowest, 1, MPI_DOUBLE, MPI_MAX, comm);
    seconds.push_back(slowest);
  }
  return seconds;
}

/// Checks passed, failed and skipped on this process.
struct Tally {
  int passed = 0, failed = 0, skipped = 0;

  void count(bool check_passed) { (check_passed ? passed : failed) += 1; }

  /// Collective over MPI_COMM_WORLD: rank 0 prints the summary (the largest count of any
  /// process, since processes outside a grid count nothing).
  /// @return the exit status: 0 when no check failed, 1 otherwise.
  int finish() const {
    int mine[3] = {passed, failed, skipped}, most[3] = {0, 0, 0}, me = 0;
    MPI_Allreduce(mine, most, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) {
      std::printf(
          "\n%d tests completed and passed residual checks.\n"
          "%d tests completed and failed residual checks.\n%d tests skipped.\n",
          most[0], most[1], most[2]);
    }
    return most[1] == 0 ? 0 : 1;
  }
};

/// Calls cases(grid) on the members of each grid of the input, in turn; a grid needing more
/// processes or speeds than there are is reported (by MPI_COMM_WORLD's rank 0) and skipped.
template <typename Cases>
void for_each_grid(const DriverSettings& in, Tally& tally, Cases cases) {
  int me = 0, procs = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  for (std::size_t g = 0; g < in.grid_rows.size(); ++g) {
    const int p = in.grid_rows[g], q = in.grid_cols[g];
    if (p < 1 || q < 1 || p * q > procs || p * q > static_cast<int>(in.speeds.size())) {
      if (me == 0) std::printf("grid %dx%d skipped: needs %d processes and speeds\n", p, q, p * q);
      ++tally.skipped;
      continue;
    }
    const Grid grid(p, q);
    if (grid.member()) cases(grid);
    std::fflush(stdout);
  }
}

/// A driver's main: MPI initialised and finalised around reading the input named by the
/// first argument (else `default_input`), rank 0's header, run_grid on every grid, and the
/// summary.
/// @return the exit status: 2 when the input cannot be read (the reason on stderr), else as
///         Tally::finish.
template <typename Input>
int driver_main(int argc, char** argv, const char* program, const char* default_input,
                Input (*read)(const std::string&), void (*print_header)(const Input&),
                void (*run_grid)(const Grid&, const Input&, Tally&)) {
  MPI_Init(&argc, &argv);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  Input in;
  try {
    in = read(argc > 1 ? argv[1] : default_input);
  } catch (const std::exception& e) {
    if (me == 0) std::fprintf(stderr, "%s: %s\n", program, e.what());
    MPI_Finalize();
    return 2;
  }
  if (me == 0) print_header(in);
  Tally tally;
  for_each_grid(in, tally, [&](const Grid& grid) { run_grid(grid, in, tally); });
  const int status = tally.finish();
  MPI_Finalize();
  return status;
}

}  // namespace hetscal::driver
