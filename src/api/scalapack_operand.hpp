#pragma once
/// @file scalapack_operand.hpp
/// A caller's ScaLAPACK operand in a native API call: checked with PBLAS's rules and codes
/// (mpi::describe_caller_matrix), replicated operands told apart.
#include "layout/descriptor.hpp"
#include "mpi/caller_matrix.hpp"

namespace hetscal::api {

/// Checks and describes sub(A). Collective over grid.comm; every process gets the same code.
/// @param grid the ContextInfo of a.desc's CTXT.
/// @param[out] matrix the description when the operand is accepted.
/// @param rules PBLAS's checks (PDGEMM, PDGETRF's callers …) or CHK1MAT's (PDGEQRF,
///        PDORMQR: a 9-entry descriptor only, refused first by its DTYPE field).
/// @param previous_info INFO of the call's earlier arguments (0 if none): kept when not 0.
/// @return 0; the rules' negative INFO; or HETSCAL_ERR_UNSUPPORTED for a replicated operand.
int describe_scalapack_operand(const mpi::ContextInfo& grid, int blacs_context,
                               const layout::MatrixArgument& a, mpi::CallerMatrix& matrix,
                               mpi::CheckRules rules = mpi::CheckRules::Pblas,
                               int previous_info = 0);

/// The grid of BLACS context `blacs_context` (collective on first use, as mpi::context_info),
/// or nullptr when this process is not in a live grid of that handle: the routine then
/// reports its DESCA's CTXT field.
const mpi::ContextInfo* scalapack_grid(int blacs_context);

}  // namespace hetscal::api
