#pragma once
/// @file flop_counter.hpp
/// Flop accounting: every local BLAS/LAPACK call of hetscal's kernels goes through
/// kernels/local_blas.hpp, which adds its operation count here. With two cores a wall clock
/// measures contention, not balance; the flop counts are deterministic (DESIGN.md,
/// "Measuring performance", instrument 1).
#include <mpi.h>

#include <vector>

#include "kernels/scalar.hpp"

namespace hetscal::kernels {

/// An operation count in the form of LAPACK Working Note 41 ("Installation Guide for
/// LAPACK", Appendix C): real multiplications and additions of one call, counted apart
/// because the two weigh differently on complex data.
struct OperationCount {
  double multiplications = 0.0;
  double additions = 0.0;
};

/// Flops of `ops` on scalar type T, by LAWN 41's convention: on real data a multiplication
/// and an addition are one flop each; on complex data a multiplication is 6 flops (four
/// real multiplications, two real additions) and an addition 2. A complex multiply-add is
/// thus 8 flops against 2, and an operation made of as many multiplications as additions
/// (GEMM, TRSM, SYRK, HERK) counts 4 times its real count.
template <typename T>
constexpr double flops_of(OperationCount ops) {
  static_assert(is_blas_scalar_v<T>, "flops_of: not a BLAS scalar type");
  return is_complex_v<T> ? 6.0 * ops.multiplications + 2.0 * ops.additions
                         : ops.multiplications + ops.additions;
}

/// What the local BLAS wrapper does with a call.
enum class ComputeMode {
  Execute,  ///< run the BLAS call (and, in SimGrid builds, also inject its flops)
  Skip,     ///< SimGrid builds only: inject the flops without computing (large simulated runs)
};

/// Sets how local BLAS calls are executed on this process. Skip is refused outside SimGrid
/// builds, since a real run would then return garbage. @throws InvalidArgument
void set_compute_mode(ComputeMode mode);
ComputeMode compute_mode();

/// False in ComputeMode::Skip, where no computation reads the matrices' elements: the
/// kernels then skip their local copies of elements too (panel and message packing, row
/// interchanges), which cost no simulated time but most of a large simulation's real time;
/// the messages still travel at their full size. Always true outside SimGrid builds.
inline bool elements_are_copied() { return compute_mode() == ComputeMode::Execute; }

/// Adds `flops` to this process's tally and, in SimGrid builds, advances simulated time by
/// `flops` on this host (smpi_execute_flops) so simulated times are bit-reproducible.
void account_flops(double flops);

/// In SimGrid builds, while one lives on this process, account_flops counts but does not
/// inject: the flops are injected as one computation when the outermost batch ends. A kernel
/// opens one around a loop of local BLAS calls with no message in between (one call per tile
/// of a tile-by-tile update): the rank computes them back to back either way, so the simulated
/// time is the same, but one simulated computation per tile was most of the real time of a
/// simulation at hundreds of ranks. No MPI call may be made while a batch lives. Counts only
/// the nesting outside SimGrid builds.
class FlopBatch {
 public:
  FlopBatch();
  ~FlopBatch();
  FlopBatch(const FlopBatch&) = delete;
  FlopBatch& operator=(const FlopBatch&) = delete;
};

/// Flops counted on this process since the last reset.
double local_flops();
void reset_flops();

/// Adds `seconds` of local BLAS/LAPACK work (wall clock around the call, ComputeMode::Execute
/// only) to this process's tally: with local_flops() it gives the rate this rank computes at,
/// which the run time observes to learn speeds (runtime/adaptation.hpp).
void account_compute_seconds(double seconds);

/// Seconds on the clock that times compute (each local BLAS/LAPACK call, and the speed
/// probe): the wall clock. For tests only, HETSCAL_TEST_EMULATED_CLOCK=1 with the
/// heterogeneity emulator preloaded (src/tools/slowdown) makes it the emulator's charged time
/// instead: a call of F flops on a rank slowed by f takes (f − 1)·F/HETSCAL_SLOWDOWN_RATE, what
/// its sleep costs, whatever else runs on the machine. The speeds hetscal observes are then
/// exactly the emulated ones under any load. Every rank must be slowed (f > 1: an unslowed
/// call takes no time on that clock), as in every test that sets it. Set without the emulator,
/// it is reported once on stderr and the wall clock is kept.
double compute_clock_seconds();

/// Whether compute_clock_seconds() is the emulator's clock (HETSCAL_TEST_EMULATED_CLOCK=1 with
/// the emulator preloaded). Tests only: the machine's calibration then leaves the network
/// unmeasured too (runtime/machine.cpp).
bool compute_clock_is_emulated();

/// The flops and seconds of the local BLAS/LAPACK calls that ran (not skipped) on this
/// process since it started; never reset, so that observers take differences. In SimGrid
/// builds: every call's injected flops, in either mode, and the simulated seconds they took
/// on this host (the wall clock of a real BLAS call says nothing of the simulated host).
struct ComputeTally {
  double flops = 0.0;
  double seconds = 0.0;
};
ComputeTally compute_tally();

/// Per-rank flop counts and the balance figure of DESIGN.md.
struct FlopBalance {
  std::vector<double> flops;   ///< per rank of the communicator
  std::vector<double> speeds;  ///< per rank, as given
  /// (Σ flops / Σ speeds) / max_i(flops_i / speeds_i): 1 when every rank finishes its share
  /// at the same time, smaller when the slowest-finishing rank holds more than its share.
  double balance = 1.0;
};

/// Collective over `comm`: gathers every rank's local_flops() and computes the balance for
/// the given per-rank speeds (one per rank of `comm`, all > 0).
/// @throws InvalidArgument if speeds has the wrong size or a non-positive value.
FlopBalance gather_flop_balance(MPI_Comm comm, const std::vector<double>& speeds);

/// The balance figure for given counts and speeds (pure; used by gather_flop_balance).
double flop_balance(const std::vector<double>& flops, const std::vector<double>& speeds);

}  // namespace hetscal::kernels
