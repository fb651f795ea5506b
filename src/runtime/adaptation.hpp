#pragma once
/// @file adaptation.hpp
/// Speeds learnt at run time (HETSCAL_ADAPT, on by default). At the start of every call that
/// could be taken over, each rank of the context observes itself: the rate of the local
/// BLAS/LAPACK work hetscal's kernels did since the last such call (their flops over the
/// seconds those calls took, waiting excluded, kernels/flop_counter.hpp), or, when it did
/// none (the calls were forwarded, or too little ran to time), a short probe
/// (runtime/speed_probe.hpp) sized to cost at most 1 % of the rank's share of the call
/// (short_probe_order); a call too small for any probe observes nothing on that rank. One
/// MPI_Allgather of one double per rank agrees the observations; every rank then feeds the same
/// values to the same smoothing rule (core/adaptation/speed_tracking.hpp), so every rank holds the
/// same estimates and takes the same decisions. The context's first call starts from the probe or
/// the given speeds (the machine figures).
///
/// The plan follows the estimates only when it pays: a plan made for the speeds in use is
/// replaced when its slowest rank would take at least (1 + 10 %) of the balanced time under
/// the estimates (core::replanning_gain); the shim moves the operands in and out on every
/// call whichever plan it uses, so a new plan adds no data movement, and whether the call is
/// taken over at all is still decided by the full predicted times, moves included
/// (runtime/decision.hpp). Estimates within 15 % of each other are planned as uniform speeds.
///
/// HETSCAL_VERBOSE=1 prints each change of speeds and why (rank 0 of the context):
///   hetscal: speeds changed: observed 9.1e+09, 3.0e+09 flop/s (planned with 1, 1): ...
/// HETSCAL_VERBOSE=2 also prints the estimates at every call:
///   hetscal: speeds: estimates 9.1e+09, 3.0e+09 flop/s (rank 0 verdicts: noise, confirmed)
#include <mpi.h>

#include <string>
#include <vector>

#include "runtime/speed_observation.hpp"  // observe_self, agree_on_observations
#include "runtime/speed_probe.hpp"        // kProbeOrder

namespace hetscal::runtime {

struct ContextState;

/// The largest short probe (the starting probe's order, so that a forwarded call's
/// observation measures what the estimate was started from: with order 160, a rank slowed 3x
/// by the emulator was once observed 5.3x slower, and planned for so), and the smallest worth
/// timing.
inline constexpr int kMaxProbeOrder = kProbeOrder;
inline constexpr int kMinProbeOrder = 32;
/// The share of a call's work a short probe may cost. Every forwarded call pays it, so it is
/// most of what a homogeneous run loses to ScaLAPACK: at 2 %, order 384 cost 7 ms of a 0.53 s
/// PDGETRF (N = 4,000, 2 ranks); at 1 %, order 328 costs about 4 ms.
inline constexpr double kProbeBudget = 0.01;

/// The order of the short probe a rank may run before a call giving it `share_flops` flops:
/// the largest n <= kMaxProbeOrder whose 3 DGEMMs (6n³ flops) cost at most kProbeBudget of
/// the share, or 0 (no probe) when that n is below kMinProbeOrder.
int short_probe_order(double share_flops);

/// The route's hook, collective over the context: observes, agrees and, when the step says
/// so, makes the estimates the context's speeds (new plans, new machine rates) and reports
/// it under HETSCAL_VERBOSE. The same agreement records the previous observed call
/// (state.measurements.pending) in the context's route ledger: its time is the slowest rank's, and a
/// call some rank did not time, or during which a rank's speed left the noise band (the
/// change, not the model, would be measured), is not recorded. Starts the tracker on the context's first call (an agreed
/// stage: a rank that cannot, for memory, leaves every rank without one). A rank whose probe
/// fails observes nothing.
/// @param call_flops the call's work (all ranks), which bounds the short probe.
/// @throws mpi::StageFailed on every rank when the machine figures cannot be measured.
void adapt_speeds(ContextState& state, double call_flops);

/// Whether calls on `state`'s context learn speeds at all: HETSCAL_ADAPT on, hetscal neither
/// disabled nor misconfigured, speeds agreed, and at least two ranks. The same on every rank.
bool adapts(const ContextState& state);

/// adapt_speeds, its refusals (a failed agreed stage, values refused on every rank alike)
/// reported once under HETSCAL_VERBOSE instead of thrown: the call then goes on with the
/// speeds already agreed. Collective over the context. Used by the shim's route and by the
/// native API's calls on hetscal descriptors (api/kept_balanced.hpp), so both learn alike.
void adapt_speeds_or_report(ContextState& state, double call_flops);

/// "9.1e+09, 3e+09".
std::string speeds_text(const std::vector<double>& speeds);

}  // namespace hetscal::runtime
