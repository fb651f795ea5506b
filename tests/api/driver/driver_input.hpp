#pragma once
// The input of hetscal's tester-style drivers, read from a file in the format of ScaLAPACK's
// testers (PDBLAS3TST.dat, LLT.dat): one item per line, its values first, then free text.
// The problems differ per routine; block sizes, grids, speeds, repetitions and threshold
// follow them in every file.
#include <string>
#include <vector>

namespace hetscal::driver {

/// The items every driver's file ends with.
struct DriverSettings {
  std::string title;
  std::vector<int> block;                 ///< MB = NB of the ScaLAPACK operands
  std::vector<int> grid_rows, grid_cols;  ///< P, Q, one per grid
  std::vector<double> speeds;             ///< one per process (the first P·Q are used)
  int repetitions = 1;                    ///< timed runs per routine
  double threshold = 16.0;                ///< residual bound
};

/// PDGEMM-HETSCAL.dat: C = op(A)·op(B) problems.
struct GemmInput : DriverSettings {
  std::vector<int> m, n, k;            ///< problem sizes, one per problem
  std::vector<char> trans_a, trans_b;  ///< 'N', 'T' or 'C', one per problem
};

/// PDPOTRF-HETSCAL.dat: Cholesky problems.
struct PotrfInput : DriverSettings {
  std::vector<int> n;        ///< order of A, one per problem
  std::vector<char> uplo;    ///< 'L' or 'U', one per problem
  std::vector<char> layout;  ///< in-place context: 'A' (any), 'C' (Cartesian), 'P' (pattern)
};

/// PDGETRF-HETSCAL.dat and PDGEQRF-HETSCAL.dat: LU or QR problems of an M×N matrix.
struct RectangularInput : DriverSettings {
  std::vector<int> m, n;     ///< size of A, one per problem
  std::vector<char> layout;  ///< in-place context: 'A' (any), 'C' (Cartesian), 'P' (pattern)
};

/// Reads a PDGEMM driver input.
/// @throws std::runtime_error naming the line that is missing or malformed.
GemmInput read_gemm_input(const std::string& path);

/// Reads a PDPOTRF driver input.
/// @throws std::runtime_error naming the line that is missing or malformed.
PotrfInput read_potrf_input(const std::string& path);

/// Reads a PDGETRF or PDGEQRF driver input.
/// @throws std::runtime_error naming the line that is missing or malformed.
RectangularInput read_rectangular_input(const std::string& path);

}  // namespace hetscal::driver
