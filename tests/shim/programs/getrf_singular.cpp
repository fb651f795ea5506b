// Issue 28: PxGETRF on a singular matrix leaves what ScaLAPACK's PxGETRF leaves, whatever
// route hetscal took: ScaLAPACK completes the factorization and returns INFO = i for the
// first exactly zero U(i,i); sub(A) holds its L and U (to rounding) and IPIV its pivots.
// In place no second ScaLAPACK call can restore sub(A), so hetscal's own factors of the
// singular matrix are what the caller gets. Matrices whose column c (0-based) is zero, so
// that U(c+1,c+1) is exactly zero, c at the start, the end and inside a block of the
// caller's layout, and one with two zero columns (INFO the first); every precision. Each call
// through hetscal (linked: ScaLAPACK's entry points are hetscal's) is compared, INFO, every
// IPIV entry and every local element, with the real ScaLAPACK's call on the same input.
//
// usage: getrf_singular PxQ N NB   (run with HETSCAL_FORCE=1 so that hetscal takes the calls
// over; prints one line per case and "getrf_singular: passed" or "FAILED")
#include <mpi.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "caller_matrices.hpp"

namespace {

using namespace caller_matrices;

// Diagonally weighted, with the columns of `zeros` (0-based) all zero.
template <typename T>
T singular_at(int i, int j, int n, const std::vector<int>& zeros) {
  for (const int z : zeros)
    if (j == z) return element<T>(0.0, 0.0);
  const double diagonal = i == j ? 0.5 * n : 0.0;
  return element<T>(diagonal + std::sin(0.37 * i + 1.3 * j), std::cos(0.9 * i - 0.4 * j));
}

// The largest |ours - theirs| and |theirs| over the ranks.
template <typename T>
void largest_difference(const std::vector<T>& ours, const std::vector<T>& theirs, double* error, double* scale) {
  *error = 0.0;
  *scale = 0.0;
  for (std::size_t i = 0; i < ours.size(); ++i) {
    *scale = std::max(*scale, static_cast<double>(std::abs(theirs[i])));
    const double d = std::abs(ours[i] - theirs[i]);
    *error = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(*error, d);
  }
  double global[2] = {*error, *scale};
  MPI_Allreduce(MPI_IN_PLACE, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  *error = global[0];
  *scale = global[1];
}

// One case: @return whether hetscal's call left what ScaLAPACK's does.
template <typename T>
bool same_factors(const Grid& grid, int n, int nb, const std::vector<int>& zeros, int my_rank) {
  const Local<T> given = distributed<T>(grid, n, n, nb, [&](int i, int j) { return singular_at<T>(i, j, n, zeros); });
  using Fn = scalapack_overloads::Getrf<T>;
  const Fn hetscal = scalapack_overloads::getrf(static_cast<T*>(nullptr));
  const Fn scalapack = reinterpret_cast<Fn>(scalapack_symbol("p" + std::string(1, prefix<T>()) + "getrf_"));
  Local<T> ours = given, theirs = given;
  // LOCr(M_A) + MB_A entries, filled alike so that an entry one route writes and the other
  // does not shows.
  std::vector<int> our_ipiv(static_cast<std::size_t>(given.rows + nb), -7), their_ipiv = our_ipiv;
  const int one = 1;
  int our_info = 0, their_info = 0;
  hetscal(&n, &n, ours.data.data(), &one, &one, ours.desc, our_ipiv.data(), &our_info);
  scalapack(&n, &n, theirs.data.data(), &one, &one, theirs.desc, their_ipiv.data(), &their_info);
  double error = 0.0, scale = 0.0;
  largest_difference(ours.data, theirs.data, &error, &scale);
  int differ[2] = {our_info != their_info, our_ipiv != their_ipiv};
  MPI_Allreduce(MPI_IN_PLACE, differ, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const double tolerance = 100.0 * n * std::numeric_limits<typename Real<T>::type>::epsilon();
  const bool same = !differ[0] && !differ[1] && their_info == zeros.front() + 1 && error <= tolerance * scale;
  if (my_rank == 0) {
    std::printf("getrf_singular: P%cGETRF N=%d NB=%d zero column %d%s: INFO %d (ScaLAPACK %d), IPIV %s, largest "
                "difference %.3g of %.3g: %s\n",
                std::toupper(prefix<T>()), n, nb, zeros.front() + 1, zeros.size() > 1 ? " and later" : "",
                our_info, their_info, differ[1] ? "unlike ScaLAPACK's" : "alike", error, scale,
                same ? "same" : "DIFFERENT");
  }
  return same;
}

template <typename T>
bool every_case(const Grid& grid, int n, int nb, int my_rank) {
  bool all = true;
  // The zero column: the first of a block, the last of a block, inside a block; two of them.
  const std::vector<std::vector<int>> cases = {{2 * nb}, {3 * nb - 1}, {3 * nb + nb / 2}, {nb + 1, 3 * nb}};
  for (const std::vector<int>& zeros : cases) all = same_factors<T>(grid, n, nb, zeros, my_rank) && all;
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  return run_every_precision(argc, argv, "getrf_singular", [](auto scalar, const Grid& grid, int n, int nb, int my_rank) {
    return every_case<decltype(scalar)>(grid, n, nb, my_rank);
  });
}
