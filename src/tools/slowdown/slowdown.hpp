#pragma once
/// @file slowdown.hpp
/// The heterogeneity emulator (libhetscal-slowdown.so, used with LD_PRELOAD): it makes chosen
/// MPI ranks slower by given factors by sleeping after each local BLAS/LAPACK call in
/// proportion to the call's flops. Plain ScaLAPACK, hetscal's block-cyclic kernel and
/// hetscal's heterogeneous plan are all slowed identically, deterministically.
///
/// Configuration (environment, read once per process):
///   HETSCAL_SLOWDOWN        rank:factor pairs, e.g. "1:3" or "0:2,3:1.5" (factor >= 1);
///                           ranks are MPI_COMM_WORLD ranks (from the launcher's environment)
///   HETSCAL_SLOWDOWN_RATE   flop/s the sleep is computed against (default 1e10): a call of F
///                           flops on a rank slowed by f sleeps (f - 1) * F / rate seconds.
///                           Set it to the machine's single-core DGEMM rate.
///   HETSCAL_SLOWDOWN_REPORT if set, each slowed rank prints its totals at exit.
#include <string>

namespace hetscal::slowdown {

/// The slowdown factor of `rank` given a HETSCAL_SLOWDOWN text (1 when not listed).
/// @throws hetscal::InvalidArgument naming the bad entry.
double factor_for_rank(const std::string& spec, int rank);

/// Charges a call of `flops` flops: accumulates (factor − 1)·flops/rate seconds and sleeps
/// them off in chunks, so tiny calls do not each pay a nanosleep's overhead.
void charge(double flops);

/// Seconds charged so far on this process (slept plus still owed).
double charged_seconds();

/// RAII marker of an intercepted call: calls nested inside one (a LAPACK routine calling an
/// exported BLAS routine) are not charged twice.
class OuterCall {
 public:
  OuterCall();
  ~OuterCall();
  OuterCall(const OuterCall&) = delete;
  OuterCall& operator=(const OuterCall&) = delete;
  bool is_outermost() const { return outermost_; }

 private:
  bool outermost_;
};

/// Address of the next definition of `symbol` after this library (dlsym RTLD_NEXT); aborts
/// with a message naming the symbol when there is none, since nothing sensible can follow.
void* next_symbol(const char* symbol);

}  // namespace hetscal::slowdown
