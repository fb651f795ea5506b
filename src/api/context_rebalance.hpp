#pragma once
/// @file context_rebalance.hpp
/// A context and its matrices moved to a layout for new speeds: the one path of
/// hetscal_context_rebalance (explicit) and of the automatic rebalancing at the start of a
/// native call (hetscal_context_keep_balanced, api/kept_balanced.hpp).
#include <string>
#include <vector>

#include "api/context_registry.hpp"
#include "hetscal/hetscal.h"

namespace hetscal::api {

/// How a rebalancing ended, the same on every process.
struct RebalanceOutcome {
  int status = HETSCAL_SUCCESS;  ///< a hetscal_status
  std::string why;               ///< when refused: one line saying why
};

/// The matrices of the C interface's lists (arrays, capacities, descs; none when nmatrices is 0).
/// @pre nmatrices >= 0, the lists non-null when nmatrices > 0.
std::vector<KeptMatrix> kept_matrices(int nmatrices, double* const* arrays,
                                      const long long* capacities, int* const* descs);

/// Checks matrices to keep in `context`'s current layout on this process and agrees the
/// outcome (collective): hetscal descriptors of `context`, distinct arrays, each holding at
/// least its local part. @return HETSCAL_SUCCESS or HETSCAL_ERR_ARGUMENT, with why.
RebalanceOutcome check_kept_matrices(const Context& context,
                                     const std::vector<KeptMatrix>& matrices);

/// Moves `context` and `matrices` to the layout for `speeds` (Beaumont2000's migrations on a
/// Cartesian layout, a fresh plan otherwise; see hetscal_context_rebalance in hetscal.h),
/// rewriting each array in place and updating each descriptor; then the context plans with
/// `speeds`. Collective.
/// @param speeds one per process of the context's grid, > 0, the same on every process.
/// @param[out] report filled on success.
/// @return HETSCAL_SUCCESS; HETSCAL_ERR_NO_PLAN (no layout for the speeds),
///         HETSCAL_ERR_ARGUMENT (a matrix that is not the context's, arrays shared or missing,
///         a capacity short for the new layout on some process) or HETSCAL_ERR_INTERNAL (no
///         memory for the copies of the old parts): then nothing changed, on every process.
/// @throws on an MPI failure while the data move (the arrays may then be partly moved).
RebalanceOutcome rebalance_context(Context& context, const std::vector<double>& speeds,
                                   const std::vector<KeptMatrix>& matrices,
                                   hetscal_rebalance_report& report);

}  // namespace hetscal::api
