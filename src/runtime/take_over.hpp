#pragma once
/// @file take_over.hpp
/// The all-or-nothing sequence every taken-over call follows, whatever the routine and the
/// scalar type:
///
///   allocate   this rank's part of every planned operand and the two redistribution plans
///   move in    the operands the routine reads, from the caller's layout (op fused)
///   compute    the routine's kernel on the planned layout; INFO reduced over the ranks
///   move out   the operands the routine writes, back into the caller's arrays
///
/// Each stage does its local part first (what can fail on one rank: memory, above all) and
/// the ranks agree (mpi/agreement.hpp) before its communication starts. A failure anywhere
/// before "move out" therefore sends every rank back to ScaLAPACK with the caller's data
/// untouched: nothing is written into a caller's array before every rank has computed its
/// part and reserved the buffers of the move back. Move out itself allocates nothing and
/// only fails if MPI does (then the caller hears it through ScaLAPACK's error path).
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernels/distributed_matrix.hpp"
#include "layout/local_storage.hpp"
#include "mpi/agreement.hpp"
#include "mpi/caller_matrix.hpp"
#include "mpi/fault_injection.hpp"
#include "mpi/redistribute.hpp"
#include "runtime/workspace.hpp"

namespace hetscal::runtime {

/// What a routine does with an operand.
enum class Role {
  In,     ///< read only (GEMM's A and B): moved in
  InOut,  ///< read and written (a factorization's A, GEMM's C when beta ≠ 0): in and out
  Out,    ///< written only (GEMM's C when beta = 0: never read, it may hold NaN): out
};

/// sub(X) where the caller keeps it: its distribution over the take-over's communicator and
/// this rank's storage in the caller's local array. A ScaLAPACK operand's (the shim's, and the
/// native API's on ScaLAPACK descriptors; runtime/caller_operand.hpp), or a matrix of a
/// native context's layout moved into another.
struct CallerView {
  std::shared_ptr<const layout::Distribution> distribution;
  std::shared_ptr<const layout::LocalLayout> storage;
};

/// One operand of a taken-over call: where the caller keeps it, where the kernel wants it.
template <typename T>
struct TakeOverOperand {
  T* caller_data = nullptr;  ///< the caller's local array (only read when role is In)
  CallerView caller;         ///< sub(X) as the caller holds it
  const layout::Distribution* planned = nullptr;  ///< the planned layout (owned by the plan)
  Role role = Role::In;
  /// Applied on the way in, and again on the way out: the planned copy of a transposed
  /// operand is op(sub(X)), and goes back transposed.
  mpi::Op op = mpi::Op::None;
  /// What is moved, in and out: a triangle leaves the caller's other triangle untouched
  /// (a Cholesky factor). Only with op = None.
  mpi::Part part = mpi::Part::Whole;
};

/// How a call ended.
struct TakeOverOutcome {
  enum class Status {
    Computed,          ///< the result is in the caller's arrays
    Forward,           ///< a stage failed before anything was written: call ScaLAPACK
    FailedAfterWrite,  ///< MPI failed while writing back: the caller's data is lost
  };
  Status status = Status::Forward;
  std::string reason;    ///< why, when not Computed
  int info = 0;          ///< the routine's INFO (> 0: first failing pivot/minor), agreed
  double seconds = 0.0;  ///< wall time of the sequence on this rank
  /// Where that time went on this rank: allocation (the planned copies and the move-in's
  /// message buffers), move in, compute, move out (agreements
  /// included in the stage they end).
  double allocate_s = 0.0, move_in_s = 0.0, compute_s = 0.0, move_out_s = 0.0;

  bool computed() const { return status == Status::Computed; }
};

/// The planned operands a kernel works on, in the order they were given.
template <typename T>
using PlannedOperands = std::vector<kernels::DistributedMatrix<T>>;

/// Resizes `buffer` to `count` elements. @return "" or why it failed (memory: what one rank
/// can lack alone), for TakeOver::set_up.
template <typename Buffer>
std::string try_resize(Buffer& buffer, std::size_t count) noexcept {
  try {
    buffer.resize(count);
    return {};
  } catch (const std::exception& e) {
    return e.what();
  }
}

namespace detail {

// Seconds since the last lap.
class Stopwatch {
 public:
  double lap() {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return seconds;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

// This rank's part of one planned operand (its elements live in the workspace).
template <typename T>
struct PlannedPart {
  std::unique_ptr<layout::LocalLayout> storage;
  T* data = nullptr;
};

}  // namespace detail

/// The sequence of one taken-over call, driven by the routine's own run_planned function,
/// top-down, on the ranks of `comm` (every rank passes operands of the same structure and the
/// same planned layouts; every step is collective):
///
///   TakeOver<T> take_over(comm, my_rank, operands, workspace);
///   if (!take_over.move_in() || !take_over.set_up(try_resize(pivots, k))) return take_over.outcome();
///   ... the kernel on take_over.planned(0), its local failure caught into `failure` ...
///   return take_over.move_out(failure, info);
///
/// A stage that fails on any rank fails on every rank (outcome(): Forward, the caller's data
/// untouched); move_out writes the caller's arrays only after every rank computed.
template <typename T>
class TakeOver {
 public:
  /// @param my_rank this process's rank in `comm`.
  /// @param workspace where the planned copies live (buffer i for operand i), kept by the
  ///   caller between calls.
  TakeOver(MPI_Comm comm, int my_rank, std::vector<TakeOverOperand<T>> operands, Workspace& workspace)
      : comm_(comm), my_rank_(my_rank), operands_(std::move(operands)), workspace_(workspace) {}

  /// Allocates this rank's planned parts, the redistribution plans and the move-in's message
  /// buffers (agreed), then moves the operands in. @return false when a rank failed.
  bool move_in() {
    try {
      mpi::run_agreed(comm_, "allocate", [&] { allocate(); });
      // The move-in's message buffers are fresh memory too, populated when reserved: timed
      // as allocation, so that a class's first call is measured without its first touch
      // (runtime/route.cpp). Counted in the move-in, they made a homogeneous PDGEMM trial
      // look 0.03 s slower than the kernel was, and ScaLAPACK kept a class hetscal wins.
      mpi::run_agreed(comm_, "move-in", [&] { reserve(*in_, mpi::Stage::MoveIn); });
      outcome_.allocate_s = clock_.lap();
      mpi::redistribute<T>(*in_, in_sources_, in_targets_);
      outcome_.move_in_s = clock_.lap();
      return true;
    } catch (const mpi::StageFailed& e) {
      return failed(e);
    }
  }

  /// Agrees that every rank's compute set-up (what the routine allocates before its kernel:
  /// pivots, τ) succeeded, so that no rank enters the kernel while another stays out.
  /// @param local_failure "" or why this rank's set-up failed. @return false when a rank failed.
  bool set_up(const std::string& local_failure) {
    std::string failure = local_failure;
    if (failure.empty()) {
      try {
        mpi::fault_point(mpi::Stage::Compute);
      } catch (const std::exception& e) {
        failure = e.what();
      }
    }
    try {
      mpi::agree_on_stage(comm_, "compute", failure);
    } catch (const mpi::StageFailed& e) {
      return failed(e);
    }
    mpi::slow_compute_point();
    return true;
  }

  /// Planned operand i, after move_in.
  kernels::DistributedMatrix<T> planned(std::size_t i) {
    return {operands_[i].planned, parts_[i].storage.get(), parts_[i].data};
  }

  /// Ends the call after the routine's kernel: agrees that every rank computed, reduces INFO,
  /// reserves the move back's buffers (agreed) and only then writes the results into the
  /// caller's arrays.
  /// @param compute_failure "" or why this rank's kernel failed.
  /// @param local_info this rank's INFO (0, or > 0 in global numbering).
  TakeOverOutcome move_out(const std::string& compute_failure, int local_info) {
    if (!computed(compute_failure, local_info)) return outcome();
    return write_back();
  }

  /// The first half of move_out: agrees that every rank computed, reduces INFO (then
  /// outcome().info) and reserves the move back's buffers (agreed); nothing is written yet,
  /// so the call can still be forwarded (forward()). @return false when a rank failed.
  bool computed(const std::string& compute_failure, int local_info) {
    try {
      mpi::agree_on_stage(comm_, "compute", compute_failure);
      outcome_.info = mpi::smallest_positive_info(comm_, local_info);
      outcome_.compute_s = clock_.lap();
      mpi::run_agreed(comm_, "move-out", [&] { reserve(*out_, mpi::Stage::MoveOut); });
    } catch (const mpi::StageFailed& e) {
      return failed(e);
    }
    return true;
  }

  /// Gives the call to ScaLAPACK after computed(), the caller's data untouched: every rank
  /// decides it alike (from the agreed INFO). @param why the reason reported.
  TakeOverOutcome forward(const std::string& why) noexcept {
    outcome_.status = TakeOverOutcome::Status::Forward;
    try {
      outcome_.reason = why;
    } catch (const std::exception&) {
      outcome_.reason.clear();  // memory: the report says less, the route is the same
    }
    return outcome();
  }

  /// The second half of move_out: writes the results into the caller's arrays.
  TakeOverOutcome write_back() {
    try {
      mpi::redistribute<T>(*out_, out_sources_, out_targets_);
      outcome_.move_out_s = clock_.lap();
      outcome_.status = TakeOverOutcome::Status::Computed;
    } catch (const mpi::StageFailed& e) {
      // The round's own set-up failed on some rank, agreed before any element was written.
      failed(e);
    } catch (const std::exception& e) {
      outcome_.status = TakeOverOutcome::Status::FailedAfterWrite;
      outcome_.reason = std::string("writing the result back failed: ") + e.what();
    }
    return outcome();
  }

  /// How the call ended so far (Forward with the reason after a failed stage), with its
  /// wall time on this rank.
  TakeOverOutcome outcome() const {
    TakeOverOutcome outcome = outcome_;
    outcome.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return outcome;
  }

 private:
  static bool moved_in(Role role) { return role != Role::Out; }
  static bool moved_out(Role role) { return role != Role::In; }

  bool failed(const mpi::StageFailed& e) {
    outcome_.status = TakeOverOutcome::Status::Forward;
    outcome_.reason = e.what();
    return false;
  }

  void allocate() {
    mpi::fault_point(mpi::Stage::Allocate);
    std::vector<mpi::MatrixMove> in_moves, out_moves;
    parts_.resize(operands_.size());
    for (std::size_t i = 0; i < operands_.size(); ++i) {
      const TakeOverOperand<T>& x = operands_[i];
      detail::PlannedPart<T>& part = parts_[i];
      part.storage = layout::make_local_layout(*x.planned, my_rank_);
      part.data = workspace_.buffer<T>(i, static_cast<std::size_t>(part.storage->local_elements()));
      if (moved_in(x.role)) {
        in_moves.push_back({x.caller.distribution.get(), x.caller.storage.get(), x.planned,
                            part.storage.get(), x.op, x.part});
        in_sources_.push_back(x.caller_data);
        in_targets_.push_back(part.data);
      }
      if (moved_out(x.role)) {
        out_moves.push_back({x.planned, part.storage.get(), x.caller.distribution.get(),
                             x.caller.storage.get(), x.op, x.part});
        out_sources_.push_back(part.data);
        out_targets_.push_back(x.caller_data);
      }
    }
    in_ = std::make_unique<mpi::RedistributionPlan>(comm_, in_moves);
    in_->use_buffers(workspace_.send_buffer(), workspace_.receive_buffer());
    out_ = std::make_unique<mpi::RedistributionPlan>(comm_, out_moves);
    out_->use_buffers(workspace_.send_buffer(), workspace_.receive_buffer());
  }

  static void reserve(const mpi::RedistributionPlan& plan, mpi::Stage stage) {
    mpi::fault_point(stage);
    mpi::reserve_buffers<T>(plan);
  }

  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  detail::Stopwatch clock_;
  TakeOverOutcome outcome_;
  MPI_Comm comm_;
  int my_rank_;
  std::vector<TakeOverOperand<T>> operands_;
  Workspace& workspace_;
  std::vector<detail::PlannedPart<T>> parts_;
  std::unique_ptr<mpi::RedistributionPlan> in_, out_;
  std::vector<const T*> in_sources_, out_sources_;
  std::vector<T*> in_targets_, out_targets_;
};

/// Starts the take-over of the operands `make_operands()` returns (a
/// std::vector<TakeOverOperand<T>>). Building them allocates (the caller's views, the list),
/// which one rank may fail alone: that is agreed, as the first step of the "allocate" stage,
/// so that every rank forwards alike.
/// @param[out] refused when the start failed: Forward with the reason, on every rank.
/// @return the take-over, or nullopt when a rank failed.
template <typename T, typename MakeOperands>
std::optional<TakeOver<T>> agreed_take_over(MPI_Comm comm, int my_rank, Workspace& workspace,
                                            TakeOverOutcome& refused, const MakeOperands& make_operands) {
  std::optional<TakeOver<T>> take_over;
  try {
    mpi::run_agreed(comm, "allocate", [&] { take_over.emplace(comm, my_rank, make_operands(), workspace); });
  } catch (const mpi::StageFailed& e) {
    take_over.reset();
    refused.status = TakeOverOutcome::Status::Forward;
    refused.reason = e.what();
  }
  return take_over;
}

}  // namespace hetscal::runtime
