#pragma once
// The input of the hetscal PDGEMM driver, read from a file in the format of ScaLAPACK's
// testers (PDBLAS3TST.dat, LU.dat): one item per line, its values first, then free text.
#include <string>
#include <vector>

namespace hetscal::driver {

struct DriverInput {
  std::string title;
  std::vector<int> m, n, k;               ///< problem sizes, one per problem
  std::vector<char> trans_a, trans_b;     ///< 'N' or 'T', one per problem
  std::vector<int> block;                 ///< MB = NB of the ScaLAPACK operands
  std::vector<int> grid_rows, grid_cols;  ///< P, Q, one per grid
  std::vector<double> speeds;             ///< one per process (the first P·Q are used)
  int repetitions = 1;                    ///< timed runs per routine (the best is shown)
  double threshold = 16.0;                ///< residual bound
};

/// Reads a driver input.
/// @throws std::runtime_error naming the line that is missing or malformed.
DriverInput read_driver_input(const std::string& path);

}  // namespace hetscal::driver
