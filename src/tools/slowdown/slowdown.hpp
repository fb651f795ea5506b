#pragma once
/// @file slowdown.hpp
/// The heterogeneity emulator (libhetscal-slowdown.so, used with LD_PRELOAD): it makes chosen
/// MPI ranks slower by given factors by sleeping after each local BLAS/LAPACK call in
/// proportion to the call's flops. Plain ScaLAPACK, hetscal's block-cyclic kernel and
/// hetscal's heterogeneous plan are all slowed identically, deterministically.
///
/// Configuration (environment, read once per process):
///   HETSCAL_SLOWDOWN        entries rank:factor[@window], comma-separated (factor >= 1);
///                           ranks are MPI_COMM_WORLD ranks (from the launcher's environment).
///                           Without a window the factor holds for the whole run ("1:3",
///                           "0:2,3:1.5"). A window makes it time-varying:
///                             @calls=A..B  from the rank's BLAS call number A (counted from
///                                          0, outermost calls only) up to, not including, B
///                             @t=A..B      from A seconds after the rank's first BLAS call
///                                          up to, not including, B seconds
///                           B may be left out ("@calls=200.."): to the end of the run.
///                           One rank may have several windowed entries if they do not
///                           overlap ("1:3@calls=100..200,1:2@calls=300.."); outside its
///                           windows a rank runs unslowed. Call windows are deterministic;
///                           time windows follow the wall clock.
///   HETSCAL_SLOWDOWN_RATE   flop/s the sleep is computed against (default 1e10): a call of F
///                           flops on a rank slowed by f sleeps (f - 1) * F / rate seconds.
///                           Set it to the machine's single-core DGEMM rate.
///   HETSCAL_SLOWDOWN_REPORT if set, each slowed rank prints its totals at exit.
#include <limits>
#include <string>
#include <vector>

namespace hetscal::slowdown {

/// What a window of a time-varying entry counts.
enum class WindowClock {
  Always,   ///< no window: the whole run
  Calls,    ///< the rank's outermost BLAS/LAPACK calls, numbered from 0
  Seconds,  ///< seconds since the rank's first BLAS/LAPACK call
};

/// One factor and when it applies: from `start` (included) to `end` (excluded) on `clock`.
struct Phase {
  double factor = 1.0;
  WindowClock clock = WindowClock::Always;
  double start = 0.0;
  double end = std::numeric_limits<double>::infinity();
};

/// The phases of `rank` in a HETSCAL_SLOWDOWN text, in the order given (none when the rank
/// is not listed). Every entry is checked, also the other ranks', so that a mistake is
/// reported whichever rank reads it.
/// @throws hetscal::InvalidArgument naming the bad entry: not rank:factor, a bad rank, a
///         factor that is not a number >= 1, a window that is not calls=A..B or t=A..B with
///         0 <= A < B, or two entries of one rank that overlap (an unwindowed entry overlaps
///         every other entry of its rank).
std::vector<Phase> phases_for_rank(const std::string& spec, int rank);

/// The factor of the phases at call number `call` and `seconds` since the first call (1
/// outside every window).
double factor_at(const std::vector<Phase>& phases, double call, double seconds);

/// The slowdown factor of `rank` given a HETSCAL_SLOWDOWN text without windows (1 when not
/// listed). @throws hetscal::InvalidArgument as phases_for_rank, and for a windowed entry of
/// `rank` (whose factor changes during the run).
double factor_for_rank(const std::string& spec, int rank);

/// Charges a call of `flops` flops at the factor in force for this call: accumulates
/// (factor − 1)·flops/rate seconds and sleeps them off in chunks, so tiny calls do not each
/// pay a nanosleep's overhead. Counts the call (every outermost call, charged or not).
void charge(double flops);

/// Outermost calls counted so far on this process (the clock of @calls windows).
double calls_so_far();

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
