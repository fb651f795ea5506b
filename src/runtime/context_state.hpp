#pragma once
/// @file context_state.hpp
/// What the shim keeps per BLACS context: the configuration and speeds every rank of the
/// context agreed on, and the plan cache. Built collectively on the first call that reaches
/// the decision (every rank of the context calls PDGEMM together, so every rank builds it
/// there, whatever its own environment says: ranks that skipped the agreement because they
/// read HETSCAL_DISABLE would leave the others waiting). Dies with the context.
#include <memory>
#include <string>
#include <vector>

#include "runtime/config.hpp"
#include "kernels/gemm_plan_cache.hpp"
#include "mpi/blacs_context.hpp"

namespace hetscal::shim {

using runtime::Verbosity;

struct ContextState {
  const mpi::ContextInfo* context = nullptr;
  bool disabled = false;
  bool force = false;
  std::int64_t min_n = 0;
  Verbosity verbosity = Verbosity::Quiet;  ///< this process's own (printing only)
  std::string configuration_problem;       ///< non-empty: every call is forwarded
  std::string speeds_problem;              ///< non-empty: every call is forwarded
  std::vector<double> speeds;              ///< per rank of context->comm (when agreed)
  std::unique_ptr<kernels::PlanCache> plans;

  bool is_root() const { return context->my_rank == 0; }
};

/// The state of `blacs_context`, agreed collectively over the context on first use.
/// @throws InvalidArgument / hetscal::Error as mpi::context_info.
ContextState& context_state(int blacs_context);

}  // namespace hetscal::shim
