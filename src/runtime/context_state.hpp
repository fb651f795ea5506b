#pragma once
/// @file context_state.hpp
/// What the run time keeps per BLACS context: the configuration and speeds every rank of the
/// context agreed on, the measured machine figures, and the plan cache. Built collectively
/// on the first intercepted call of the context (every rank of the context makes that call
/// together, so every rank builds it there, whatever its own environment says: ranks that
/// skipped the agreement because they read HETSCAL_DISABLE would leave the others waiting).
/// Dies with the context (an attribute of BLACS's communicator).
#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/adaptation/route_ledger.hpp"
#include "core/adaptation/speed_tracking.hpp"
#include "kernels/flop_counter.hpp"
#include "mpi/blacs_context.hpp"
#include "runtime/adaptation.hpp"
#include "runtime/config.hpp"
#include "runtime/machine.hpp"
#include "runtime/plan_cache.hpp"
#include "runtime/routine.hpp"
#include "runtime/workspace.hpp"

namespace hetscal::runtime {

/// The last observed call of the context, until the next observed call's agreement records
/// its time (decisions from observation, core/adaptation/route_ledger.hpp). Identical on every rank
/// but for `seconds`, this rank's own time of the route taken (0: not timed).
struct PendingMeasurement {
  bool active = false;
  std::string routine;      ///< ScaLAPACK's name, which the forwarded call's end must match
  std::string shape_class;  ///< core::shape_class of the call
  core::MeasuredRoute route = core::MeasuredRoute::Forward;
  double predicted_s = 0.0;  ///< the model's time of that route
  double seconds = 0.0;      ///< measured on this rank
};

/// The HETSCAL_* settings (all but the speeds) every rank of the context agreed on.
struct AgreedSettings {
  bool disabled = false;
  bool force = false;
  std::int64_t min_n = 0;
  std::int64_t min_flops_per_rank = 0;
  std::set<std::string> routines;                          ///< HETSCAL_ROUTINES (lower case; default all)
  std::vector<core::CholeskyLayoutKind> cholesky_layouts;  ///< HETSCAL_CHOLESKY_LAYOUTS
  std::vector<core::LuLayoutKind> lu_layouts;              ///< HETSCAL_LU_LAYOUTS
  std::vector<core::LuLayoutKind> qr_layouts;              ///< HETSCAL_QR_LAYOUTS
  TakeOverMode take_over = TakeOverMode::Auto;             ///< HETSCAL_TAKE_OVER
  std::int64_t memory_bytes = 0;  ///< HETSCAL_MEMORY, the ranks' minimum (0: MemAvailable decides)
  std::string problem;  ///< non-empty: malformed or disagreeing settings, every call forwarded

  /// The settings `config` holds (problem left empty: the agreement finds it).
  static AgreedSettings of(const Configuration& config);
  /// False when HETSCAL_ROUTINES leaves `routine` to ScaLAPACK.
  bool allows(RoutineId routine) const;
  /// The layout kinds `routine`'s planner may choose from: Kind is core::LuLayoutKind for LU
  /// and QR, core::CholeskyLayoutKind for Cholesky.
  template <typename Kind>
  const std::vector<Kind>& layouts_for(core::Routine routine) const;
};

template <>
inline const std::vector<core::LuLayoutKind>& AgreedSettings::layouts_for(core::Routine routine) const {
  return routine == core::Routine::QR ? qr_layouts : lu_layouts;
}

template <>
inline const std::vector<core::CholeskyLayoutKind>& AgreedSettings::layouts_for(core::Routine) const {
  return cholesky_layouts;
}

/// The context's speeds: agreed on its first call, then learnt from its calls
/// (runtime/adaptation.hpp). The same on every rank.
struct ContextSpeeds {
  std::vector<double> values;  ///< per rank of the context (when agreed)
  std::uint64_t version = 0;   ///< part of every plan key, bumped when `values` change
  bool probed = false;         ///< the speeds come from the probe, not given
  /// Probed speeds are measured and agreed on the first call that needs them
  /// (agree_probed_speeds), not when the context starts: a program whose calls are all
  /// forwarded by the rules that need no speeds never runs the probe.
  bool awaiting_probe = false;
  std::string problem;         ///< non-empty: no usable speeds, every call forwarded
  bool adapt = true;           ///< HETSCAL_ADAPT: learn speeds
  std::optional<core::SpeedTracker> tracker;  ///< the estimates, from the first adapted call
  AdaptationStep step;                        ///< the last adaptation, its room reused
  std::vector<double> planned;                ///< the speeds in use at the last adaptation
  kernels::ComputeTally observed_mark;        ///< this rank's computing observed so far

  bool agreed() const { return problem.empty(); }
};

/// What the context's calls measured (decisions from observation,
/// core/adaptation/route_ledger.hpp).
struct RouteMeasurements {
  core::RouteLedger ledger;    ///< measured over predicted time per route and class
  PendingMeasurement pending;  ///< the last observed call, not yet recorded
};

/// What a context keeps for the calls hetscal computes: the machine's figures, the plans made
/// for it and the planned copies' memory. The native API's contexts hold one too.
struct ComputeResources {
  std::optional<MachineFigures> machine;  ///< measured on first need (machine_figures)
  PlanCache plans;
  Workspace workspace;  ///< planned copies, reused by computed calls (route.cpp)
};

/// Everything the run time keeps per BLACS context, in its parts.
struct ContextState {
  const mpi::ContextInfo* context = nullptr;
  Verbosity verbosity = Verbosity::Quiet;  ///< this process's own (printing only)
  AgreedSettings settings;
  ContextSpeeds speeds;
  RouteMeasurements measurements;
  ComputeResources resources;

  bool is_root() const { return context->my_rank == 0; }
};

/// The state of `blacs_context`, agreed collectively over the context on first use.
/// @throws InvalidArgument / hetscal::Error as mpi::context_info.
ContextState& context_state(int blacs_context);

/// Probes this rank's speed and agrees every rank's, once per context, when the context's
/// speeds come from the probe (ContextSpeeds::awaiting_probe); nothing otherwise. Collective
/// over the context; every rank calls it alike (after the rules that need no speeds).
/// @throws mpi::StageFailed on every rank when a rank cannot take part (it is tried again on
///         the next call).
void agree_probed_speeds(ContextState& state);

/// The context's machine figures, measured collectively on the first call that needs them.
/// @throws mpi::StageFailed on every rank when a rank cannot measure.
const MachineFigures& machine_figures(ContextState& state);

/// This process's own relative speed under `config` (HETSCAL_SPEEDS or its file, or the
/// probe), or 0 with `problem` saying why there is none. Never throws: a process without a
/// speed still joins the agreement, which then refuses on every rank alike.
double configured_speed(const Configuration& config, std::string& problem);

}  // namespace hetscal::runtime
