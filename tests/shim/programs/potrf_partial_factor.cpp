// Issue 30 item 3: PxPOTRF on a matrix that is not positive definite leaves in sub(A) what
// ScaLAPACK's PxPOTRF leaves (to rounding), whatever layout hetscal planned. Hermitian
// matrices whose leading minor of order j is the first that is not positive definite (its
// last diagonal entry made negative), j at the start, the end and inside a block of the
// caller's layout, both UPLO, every precision; each call through hetscal (linked: ScaLAPACK's
// entry points are hetscal's) is compared, INFO and every local element, with the real
// ScaLAPACK's call on the same input.
//
// usage: potrf_partial_factor PxQ N NB   (run with HETSCAL_FORCE=1 so that hetscal takes
// the calls over; prints one line per case and "potrf_partial_factor: passed" or "FAILED")
#include <mpi.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>

#include "caller_matrices.hpp"

namespace {

using namespace caller_matrices;

// Hermitian, positive definite except at the diagonal entry of row `failing` (0-based).
template <typename T>
T failing_at(int i, int j, int n, int failing) {
  if (i == j) return element<T>(i == failing ? -1.0 : n + 1.0 + 0.1 * i, 0.0);
  const int lo = std::min(i, j), hi = std::max(i, j);
  const double im = 0.3 * std::cos(0.7 * lo + 0.2 * hi);
  return element<T>(0.5 * std::sin(0.3 * lo + 0.9 * hi), i < j ? im : -im);
}

template <typename T>
double magnitude(const T& x) {
  return std::abs(x);
}

// One case: @return whether hetscal's call left what ScaLAPACK's does.
template <typename T>
bool same_partial_factor(const Grid& grid, int n, int nb, const char* uplo, int minor, int my_rank) {
  const Local<T> given =
      distributed<T>(grid, n, n, nb, [&](int i, int j) { return failing_at<T>(i, j, n, minor - 1); });
  using Fn = scalapack_overloads::Potrf<T>;
  const Fn hetscal = scalapack_overloads::potrf(static_cast<T*>(nullptr));
  const Fn scalapack = reinterpret_cast<Fn>(scalapack_symbol("p" + std::string(1, prefix<T>()) + "potrf_"));
  Local<T> ours = given, theirs = given;
  const int one = 1;
  int our_info = 0, their_info = 0;
  hetscal(uplo, &n, ours.data.data(), &one, &one, ours.desc, &our_info);
  scalapack(uplo, &n, theirs.data.data(), &one, &one, theirs.desc, &their_info);
  double error = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < ours.data.size(); ++i) {
    scale = std::max(scale, magnitude(theirs.data[i]));
    const double d = magnitude(ours.data[i] - theirs.data[i]);
    error = std::isnan(d) ? std::numeric_limits<double>::infinity() : std::max(error, d);
  }
  double global[2] = {error, scale};
  MPI_Allreduce(MPI_IN_PLACE, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int infos_differ = our_info != their_info;
  MPI_Allreduce(MPI_IN_PLACE, &infos_differ, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const double tolerance = 100.0 * n * std::numeric_limits<typename Real<T>::type>::epsilon();
  const bool same = !infos_differ && their_info == minor && global[0] <= tolerance * global[1];
  if (my_rank == 0) {
    std::printf("potrf_partial_factor: P%cPOTRF %s N=%d NB=%d minor %d: INFO %d (ScaLAPACK %d), largest "
                "difference %.3g of %.3g: %s\n",
                std::toupper(prefix<T>()), uplo, n, nb, minor, our_info, their_info, global[0], global[1],
                same ? "same" : "DIFFERENT");
  }
  return same;
}

template <typename T>
bool every_case(const Grid& grid, int n, int nb, int my_rank) {
  bool all = true;
  // The minor's last row: the first of a block, the last of a block, inside a block.
  for (int minor : {2 * nb + 1, 3 * nb, 3 * nb + nb / 2 + 1})
    for (const char* uplo : {"L", "U"}) all = same_partial_factor<T>(grid, n, nb, uplo, minor, my_rank) && all;
  return all;
}

}  // namespace

int main(int argc, char** argv) {
  return run_every_precision(argc, argv, "potrf_partial_factor", [](auto scalar, const Grid& grid, int n, int nb, int my_rank) {
    return every_case<decltype(scalar)>(grid, n, nb, my_rank);
  });
}
