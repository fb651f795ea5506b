#pragma once
/// @file context_registry.hpp
/// The native API's contexts: a BLACS grid, the speeds its processes agreed on and the layout
/// planned for them and one routine (GEMM, LU, QR or Cholesky; a Cartesian grid or a
/// pattern), behind an int handle (a descriptor's CTXT holds it). Handles are
/// per process, like BLACS's; processes that create their contexts in the same order get
/// the same handles.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api/context_layout.hpp"
#include "hetscal/hetscal.h"
#include "mpi/blacs_context.hpp"
#include "runtime/gemm_plan.hpp"
#include "runtime/context_state.hpp"
#include "runtime/machine.hpp"
#include "runtime/plan_cache.hpp"
#include "runtime/pricing.hpp"
#include "runtime/workspace.hpp"

namespace hetscal::api {

/// A matrix kept in a context's layout, as the caller passes it to hetscal_context_rebalance
/// or hetscal_context_keep_balanced: its local array, rewritten in place when the matrix
/// moves, the elements that array can hold, and its descriptor (LLD, MB, NB updated in place).
struct KeptMatrix {
  double* array = nullptr;
  long long capacity = 0;
  int* desc = nullptr;
};

/// A context's automatic rebalancing (hetscal_context_keep_balanced, api/kept_balanced.hpp),
/// the same on every process.
struct KeptBalance {
  std::vector<KeptMatrix> matrices;  ///< registered to move with the context; none: off
  int rebalancings = 0;              ///< automatic rebalancings done so far
  hetscal_rebalance_report last{};   ///< what the last of them moved
  /// Why the last rebalancing the speeds called for was not done (empty when it was).
  std::string refusal;
};

struct Context {
  int handle = -1;
  int blacs_context = -1;
  /// The BLACS grid; comm is hetscal's own duplicate, freed with the context, so a context
  /// stays usable for its own descriptors even if BLACS's cache entry goes first.
  mpi::ContextInfo grid;
  std::vector<double> speeds;  ///< per rank of grid.comm (row-major grid order)
  LayoutRequest request;       ///< the routine, layout kind, dimensions and caller planned for
  ContextLayout layout;        ///< the layout every matrix of the context follows
  /// What the context's calls compute with, as a BLACS context's state holds it
  /// (runtime/context_state.hpp): the machine's figures (measured at creation, so always
  /// there), the layouts planned for ScaLAPACK operands' shapes (a cache, so filling it leaves
  /// the context as it was) and the planned copies of ScaLAPACK operands (hetero_pdgemm on
  /// ScaLAPACK descriptors), reused.
  mutable runtime::ComputeResources resources;

  const runtime::MachineFigures& machine() const { return *resources.machine; }
  KeptBalance kept_balance;  ///< matrices moved automatically when the speeds change

  /// The layout of an M×N×K GEMM for this context's speeds (cached).
  /// @throws InvalidArgument when no grid fits the shape.
  std::shared_ptr<const runtime::GemmLayout> plan_gemm(std::int64_t rows, std::int64_t cols,
                                                       std::int64_t depth) const {
    return resources.plans.find_or_make<runtime::GemmLayout>(
        {{core::Routine::Gemm, runtime::ScalarType::Double}, {rows, cols, depth}, 0, 0, {}},
        [&] { return runtime::plan_gemm_layout(speeds, rows, cols, depth); });
  }

  /// The layout hetero_pdpotrf/hetero_pdpotrs compute an N×N Cholesky on when their operands
  /// are ScaLAPACK's (cached): runtime::choose_cholesky_layout's choice among every kind but
  /// the caller's own, moves from and back to `caller` priced, as a POTRF context of layout
  /// Any on that caller would take it.
  /// @param caller sub(A)'s layout (runtime::caller_layout).
  /// @throws InvalidArgument when no layout fits N; hetscal::Error when none fits in memory.
  std::shared_ptr<const ContextLayout> plan_cholesky(std::int64_t order,
                                                     const core::CallerLayout& caller) const {
    return plan_factorization(core::Routine::Cholesky, order, order, caller);
  }

  /// The layout hetero_pdgetrf/hetero_pdgetrs compute an M×N LU on when their operands are
  /// ScaLAPACK's (cached): the layout a GETRF context of layout Any on that caller takes.
  /// @throws as plan_cholesky.
  std::shared_ptr<const ContextLayout> plan_lu(std::int64_t rows, std::int64_t cols,
                                               const core::CallerLayout& caller) const {
    return plan_factorization(core::Routine::LU, rows, cols, caller);
  }

  /// The layout a context of `routine` and layout Any on `caller` takes, for an M×N matrix
  /// (cached per routine, shape and caller layout).
  std::shared_ptr<const ContextLayout> plan_factorization(core::Routine routine, std::int64_t rows,
                                                          std::int64_t cols,
                                                          const core::CallerLayout& caller) const {
    return resources.plans.find_or_make<ContextLayout>(
        {{routine, runtime::ScalarType::Double},
         {rows, cols, 0},
         0,
         0,
         runtime::caller_layout_key(caller)},
        [&] {
          return plan_context_layout({routine, LayoutKind::Any, rows, cols, cols, caller}, speeds,
                                     machine().platform());
        });
  }

  std::int64_t tile() const { return layout.tile(); }
};

/// The live context with this handle, or nullptr.
Context* find_context(int handle);
/// The latest live context created on BLACS context `blacs_context`, or nullptr.
Context* latest_context_of(int blacs_context);
/// Takes ownership and assigns the handle. @return the registered context.
Context& register_context(std::unique_ptr<Context> context);
/// Frees the communicator and forgets the context. @return false if no such handle.
bool erase_context(int handle);

}  // namespace hetscal::api
