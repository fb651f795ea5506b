#include "runtime/route.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "core/common/error.hpp"
#include "kernels/local_blas.hpp"
#include "mpi/agreement.hpp"
#include "runtime/adaptation.hpp"
#include "runtime/plan_description.hpp"
#include "runtime/report.hpp"

namespace hetscal::runtime {
namespace {

// The context whose last observed call went to ScaLAPACK and waits for the shim to say how
// long ScaLAPACK took (forwarded_call_finished). Calls are made one at a time per process.
ContextState* awaiting_forward = nullptr;

// Whether the call's start observes the ranks and agrees their speeds: only calls the rules
// that need no plan (decide_before_pricing) let through (all global, so every rank of the context joins the
// collective, or none does); ScaLAPACK's own small and rank-NB PDGEMM calls cost nothing.
bool observes_speeds(const ContextState& state, const RoutedCall& call) {
  if (!adapts(state)) return false;
  if (!state.settings.allows(call.routine) || !call.unsupported.empty() || call.single_panel_update)
    return false;
  if (call.dims.empty()) return false;
  return *std::min_element(call.dims.begin(), call.dims.end()) >= state.settings.min_n;
}

// The flops of `routine` on sizes `d` (GEMM: M, N, K; LU, QR: M, N; Cholesky: N), LAWN 41's
// leading terms (enough: they size a probe and the smallest calls worth a take-over).
double flops_of(core::Routine routine, const std::int64_t* d) {
  switch (routine) {
    case core::Routine::Gemm:
      return kernels::gemm_flops(d[0], d[1], d[2]);
    case core::Routine::LU:
      return kernels::getrf_flops(d[0], d[1]);
    case core::Routine::QR:
      return kernels::geqrf_flops(d[0], d[1]);
    case core::Routine::Cholesky:
      return kernels::potrf_flops(d[0]);
  }
  return 0.0;
}

// The call's flops on real data.
double call_flops(const RoutedCall& call) {
  const std::size_t needed = call.routine.routine == core::Routine::Gemm       ? 3
                             : call.routine.routine == core::Routine::Cholesky ? 1
                                                                                : 2;
  if (call.dims.size() < needed) throw std::out_of_range("call_flops: too few dimensions");
  return flops_of(call.routine.routine, call.dims.data());
}

DecisionInput decision_input(const ContextState& state, const RoutedCall& call) {
  DecisionInput in;
  in.disabled = state.settings.disabled;
  in.force = state.settings.force;
  in.routine_allowed = state.settings.allows(call.routine);
  in.min_n = state.settings.min_n;
  in.min_flops_per_rank = static_cast<double>(state.settings.min_flops_per_rank);
  in.configuration_problem = state.settings.problem;
  in.speeds_problem = state.speeds.problem;
  in.routine = call.routine.name();
  in.dims = call.dims;
  in.flops = call_flops(call);
  in.unsupported = call.unsupported;
  in.single_panel_update = call.single_panel_update;
  in.ranks = state.context->num_ranks();
  in.speeds.reserve(static_cast<std::size_t>(in.ranks));  // room for speeds probed later (start)
  in.speeds = state.speeds.values;
  return in;
}

// Starts measuring the call just decided: its class, route and predicted time, and for a
// computed call this rank's time of the take-over. A computed call is measured without its
// allocation stage and predicted without its first touch (core/adaptation/route_ledger.hpp: what
// one call alone pays is priced apart). A call whose route was not priced is not measured. Local
// only (the next observed call's agreement records it), and never throws: the call is complete by
// now.
void start_measurement(ContextState& state, const std::string& routine, const std::string& shape_class,
                       const Decision& decision, const TakeOverOutcome& outcome) {
  PendingMeasurement& pending = state.measurements.pending;
  pending.active = false;
  awaiting_forward = nullptr;
  const bool computed = outcome.computed();
  const double predicted_s =
      computed ? decision.heterogeneous_s - decision.first_touch_s : decision.forward_s;
  if (!(predicted_s > 0.0) || outcome.status == TakeOverOutcome::Status::FailedAfterWrite) return;
  try {
    pending.routine = routine;
    pending.shape_class = shape_class;
  } catch (const std::exception&) {
    return;  // memory: this rank reports no time, so no rank records the call
  }
  pending.route = computed ? core::MeasuredRoute::Heterogeneous : core::MeasuredRoute::Forward;
  pending.predicted_s = predicted_s;
  pending.seconds = computed ? outcome.seconds - outcome.allocate_s : 0.0;
  pending.active = true;
  if (!computed) awaiting_forward = &state;
}

// Whether the ledger holds `shape_class` on every rank: a new class is added in an agreed
// stage (its room is the only memory the ledger takes), so that no rank records or decides
// with a ledger the others lack. A failure leaves the call unmeasured on every rank.
bool ledger_has_room(ContextState& state, const std::string& shape_class) {
  if (state.measurements.ledger.knows(shape_class)) return true;
  try {
    mpi::run_agreed(state.context->comm, "route ledger", [&] { state.measurements.ledger.add_class(shape_class); });
  } catch (const mpi::StageFailed&) {
    state.measurements.ledger.forget_class(shape_class);  // on every rank, so that all still agree it is new
    return false;
  }
  return true;
}

// Under HETSCAL_VERBOSE=1, once per class and route: a route measurements chose against the
// model's prediction.
void report_measured_choice(const ContextState& state, const std::string& shape_class, const Decision& decision) {
  if (!decision.advice || !decision.advice->overrides_model) return;
  const bool computes = decision.route == Route::Heterogeneous;
  const std::string choice = computes ? "taken over by hetscal" : "forwarded to ScaLAPACK";
  report_once_per_key(state.verbosity, state.is_root(), "measured " + shape_class + " " + choice,
                      shape_class + " " + choice + " from measurements: " + decision.advice->why +
                          " (corrected " + seconds_text(decision.advice->heterogeneous_s) +
                          " vs ScaLAPACK " + seconds_text(decision.advice->forward_s) + ")");
}

// Gives the context's planned copies back; says so once per process under VERBOSE=1 (and at
// every release under VERBOSE=2). Never throws: only the message can fail.
void release_planned_copies(ContextState& state, const std::string& shape) {
  const std::size_t bytes = state.resources.workspace.release();
  if (bytes == 0) return;
  try {
    char size[32];
    std::snprintf(size, sizeof size, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
    report_once_per_key(state.verbosity, state.is_root(), "planned copies given back",
                        "planned copies given back (" + std::string(size) + " on rank 0): " + shape +
                            " forwarded after pricing");
  } catch (const std::exception&) {
  }
}

// The first touch a computed call paid, measured: later calls that grow the planned copies
// are priced at the rate this call's allocation stage ran at, the slowest rank's, agreed by
// one small collective. The stage also reserves the move-in's buffers, which the price does
// not count, so the rate is an effective one: priced bytes over the stage's seconds, which
// is what the next price needs. Every rank computed (a rank whose write-back failed aborts
// the grid), so every rank joins; a failure only leaves the rate as it was.
void learn_first_touch(ContextState& state, const Decision& decision, const TakeOverOutcome& outcome) {
  if (!state.resources.machine || !(decision.first_touch_bytes >= kMinLearntFirstTouchBytes)) return;
  double slowest_s = 0.0;
  if (MPI_Allreduce(&outcome.allocate_s, &slowest_s, 1, MPI_DOUBLE, MPI_MAX, state.context->comm) != MPI_SUCCESS)
    return;
  const std::optional<double> observed = observed_first_touch_rate(decision.first_touch_bytes, slowest_s);
  if (!observed) return;
  const double rate = *observed;
  state.resources.machine->fresh_memory_bytes_per_s = rate;
  try {
    char line[160];
    std::snprintf(line, sizeof line,
                  "first touch measured: %.1f MiB in %s on the slowest rank (%.2g GB/s), the rate "
                  "later planned copies are priced at",
                  decision.first_touch_bytes / (1 << 20), seconds_text(slowest_s).c_str(), rate / 1e9);
    report_always(state.verbosity, Verbosity::EveryCall, state.is_root(), line);
  } catch (const std::exception&) {
    // Only the message is lost (memory).
  }
}

}  // namespace

void report_unrouted_failure(const ContextState& state, const char* why) noexcept {
  try {
    // Printed at every verbosity, as the shim prints an internal error.
    report_always(std::max(state.verbosity, Verbosity::Once), Verbosity::Once, state.is_root(),
                  std::string("call forwarded: ") + why);
  } catch (const std::exception&) {
  }
}

bool forwarded_by_sizes(const AgreedSettings& settings, int ranks, const CallSizes& sizes) noexcept {
  const std::size_t needed = sizes.routine.routine == core::Routine::Gemm       ? 3
                             : sizes.routine.routine == core::Routine::Cholesky ? 1
                                                                                 : 2;
  if (sizes.count != needed) return false;  // the route decides
  // Settings the ranks disagree on may differ from rank to rank: only the route, after its
  // agreement, forwards such a call (with the problem as its reason).
  if (!settings.problem.empty()) return false;
  if (settings.disabled) return true;
  const std::int64_t smallest = *std::min_element(sizes.dims.begin(), sizes.dims.begin() + needed);
  if (smallest < settings.min_n) return true;
  if (settings.force) return false;
  if (ranks < 2) return true;
  return flops_of(sizes.routine.routine, sizes.dims.data()) / ranks < static_cast<double>(settings.min_flops_per_rank);
}

void report_forwarded_by_sizes(const ContextState& state, const RoutedCall& facts) {
  const std::optional<Decision> decision = decide_without_speeds(decision_input(state, facts));
  const std::string name = facts.routine.name();
  const std::string reason = decision ? decision->reason : "forwarded by its sizes";
  report_call(state.verbosity, state.is_root(), name, false, name + " " + shape_text(facts.dims) + " forwarded: " + reason);
}

void forwarded_call_finished(const char* routine, double seconds) noexcept {
  if (!awaiting_forward || awaiting_forward->measurements.pending.routine != routine) return;
  awaiting_forward->measurements.pending.seconds = seconds;
  awaiting_forward = nullptr;
}

CallRoute::CallRoute(ContextState& state, RoutedCall call) : state_(state), call_(std::move(call)) {
  input_ = decision_input(state_, call_);
  input_.shape_class = core::shape_class(call_.routine.name(), call_.dims);
}

bool CallRoute::start() {
  // The decision (the speeds' agreement; on a context's first call the machine's
  // calibration; then the planning) is timed apart from the call's own stages, so that the
  // verbose line shows both.
  if (forwarded_by(decide_without_speeds)) return false;
  try {
    agree_probed_speeds(state_);
  } catch (const mpi::StageFailed& e) {
    forward_unplanned(std::string("the speed probe failed: ") + e.what());
    return false;
  }
  input_.speeds = state_.speeds.values;  // into the room decision_input reserved
  input_.speeds_problem = state_.speeds.problem;
  const bool observed = observes_speeds(state_, call_);
  if (observed) {
    adapt_speeds_or_report(state_, call_flops(call_));
    input_.speeds = state_.speeds.values;  // as many as before: no allocation
    input_.speeds_problem = state_.speeds.problem;
  }
  // Decisions from observation ride on the adaptation's agreement: only observed calls.
  measured_ = observed && state_.speeds.tracker.has_value();
  if (measured_) {
    measured_ = ledger_has_room(state_, input_.shape_class);
    if (measured_) input_.ledger = &state_.measurements.ledger;
  }
  return !forwarded_by(decide_before_pricing);
}

bool CallRoute::forwarded_by(std::optional<Decision> (*rules)(const DecisionInput&)) {
  // The rules allocate only the reason of a forward, which every rank then makes alike: a
  // rank short of memory for it forwards too, without the reason.
  std::optional<Decision> decision;
  try {
    decision = rules(input_);
  } catch (const std::exception&) {
    decision = Decision{};
  }
  if (decision) settle(std::move(*decision));
  return decided_;
}

void CallRoute::forward_unplanned(const std::string& why) noexcept {
  Decision forward;
  try {
    forward = runtime::forward_unplanned("no heterogeneous plan: " + why);
  } catch (const std::exception&) {
    // Memory: the report says less, every rank forwards all the same.
  }
  settle(std::move(forward));
}

bool CallRoute::decide(const Prices& prices) {
  // The ledger's advice and the reason allocate: agreed, so that a rank short of memory
  // forwards with the others instead of leaving them in the take-over.
  try {
    mpi::run_agreed(state_.context->comm, "decision", [&] { settle(decide_by_prices(input_, prices)); });
  } catch (const mpi::StageFailed& e) {
    forward_unplanned(e.what());
    return false;
  }
  if (measured_) {
    try {
      report_measured_choice(state_, input_.shape_class, decision_);
    } catch (const std::exception&) {
    }
  }
  return decision_.route == Route::Heterogeneous;
}

void CallRoute::report_idle_ranks(const core::Candidate& plan) const noexcept {
  if (!state_.is_root()) return;  // only rank 0 prints
  try {
    std::vector<std::size_t> planned = plan.processors();
    if (planned.size() == state_.speeds.values.size()) return;
    const IdleRanks idle =
        idle_ranks(call_.routine.name() + " " + shape_text(call_.dims), std::move(planned), state_.speeds.values);
    // A user who gave speeds should learn that some ranks do nothing; a small call planned on
    // a few of equal ranks is only the plan's business (HETSCAL_VERBOSE).
    const Verbosity verbosity = idle.slower_than_planned ? Verbosity::Once : std::min(state_.verbosity, Verbosity::Once);
    if (!idle.text.empty()) report_once_per_key(verbosity, state_.is_root(), "idle ranks", idle.text);
  } catch (const std::exception&) {
  }
}

void CallRoute::settle(Decision decision) noexcept {
  decision_ = std::move(decision);
  decided_ = true;
  decide_s_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - deciding_).count();
}

TakeOverOutcome CallRoute::finish(TakeOverOutcome outcome) noexcept {
  // Nothing here may send one rank elsewhere than the others: the collective part first,
  // then what is local, each report losing only its line when memory fails.
  if (decision_.route == Route::Heterogeneous && outcome.computed()) learn_first_touch(state_, decision_, outcome);
  try {
    report_finished(outcome);
  } catch (const std::exception&) {
    report_cut_short(outcome.computed());
  }
  return outcome;
}

void CallRoute::report_cut_short(bool computed) const noexcept {
  // From fixed storage: the report that failed was the only place memory was short, so the
  // call itself went as decided.
  if (!state_.is_root() || state_.verbosity == Verbosity::Quiet) return;
  char name[8];
  std::fprintf(stderr, "hetscal: %s %s: its report was cut short for want of memory\n",
               call_.routine.name_into(name), computed ? "computed by hetscal" : "forwarded");
}

void CallRoute::report_finished(const TakeOverOutcome& outcome) {
  const std::string name = call_.routine.name();
  const std::string shape = name + " " + shape_text(call_.dims);
  if (decision_.route == Route::Heterogeneous) {
    if (!outcome.computed()) decision_.reason = outcome.reason;
  } else if (decision_.forward_s > 0.0) {
    // A call priced and handed to ScaLAPACK: the class is ScaLAPACK's for now, and the planned
    // copies would lie idle. Idle memory is not free: after a homogeneous trial, forwarded
    // PDGETRF calls ran 5-10 % slower while the 64 MB copy was kept than once it was given back
    // (this machine also runs DAMON, which scans idle memory for reclaim). A later computed
    // call allocates again, and its prediction prices that first touch. ScaLAPACK's own
    // small and rank-NB calls, forwarded unpriced, keep the copies.
    release_planned_copies(state_, shape);
  }
  if (measured_) start_measurement(state_, name, input_.shape_class, decision_, outcome);
  const bool computed = outcome.computed();
  report_call(state_.verbosity, state_.is_root(), name, computed,
              shape + (computed ? " computed by hetscal: " : " forwarded: ") + decision_.reason);
  if (computed) {
    report_once_per_key(
        state_.verbosity, state_.is_root(), shape,
        shape + " measured " + seconds_text(outcome.seconds) + " (predicted " +
            seconds_text(decision_.heterogeneous_s) + "; rank 0: decide " + seconds_text(decide_s_) +
            ", allocate " + seconds_text(outcome.allocate_s) + ", move in " +
            seconds_text(outcome.move_in_s) + ", compute " + seconds_text(outcome.compute_s) +
            ", move out " + seconds_text(outcome.move_out_s) + ")");
  }
}

}  // namespace hetscal::runtime
