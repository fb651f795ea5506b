#pragma once
/// @file ormqr_checks.hpp
/// hetero_pdormqr's arguments and their checks, in PDORMQR's order and with its codes: CHK1MAT
/// on sub(A) (Q's order × K) and on sub(C), then SIDE, TRANS, K against Q's order, then the
/// alignment PDORMQR requires of ScaLAPACK operands (SIDE "L": MB_A = MB_C, IA and IC at the
/// same offset in their blocks and on the same process row; SIDE "R": MB_A = NB_C, IA's
/// offset in its block JC's) and C on A's BLACS context.
#include <optional>

#include "api/context_registry.hpp"
#include "kernels/blas_enums.hpp"
#include "layout/descriptor.hpp"
#include "mpi/caller_matrix.hpp"

namespace hetscal::api {

// Positions of PDORMQR's arguments (1-based), as its INFO names them.
inline constexpr int kOrmqrM = 3, kOrmqrN = 4, kOrmqrK = 5, kOrmqrDescA = 9, kOrmqrDescC = 14;

/// Which TRANS a call takes: PxORMQR's "N" or "T" (real elements), PxUNMQR's "N" or "C".
enum class QElements { Real, Complex };

/// One hetero_p{s,d}ormqr / hetero_p{c,z}unmqr call, less its arrays (the element type's,
/// which the checks never read).
struct OrmqrCall {
  OrmqrCall(const char* side_option, const char* trans_option, QElements elements, int rows,
            int cols, int reflectors, int a_row, int a_col, const int* a_desc, int c_row, int c_col,
            const int* c_desc);

  std::optional<kernels::Side> side;  ///< nullopt: not L or R
  /// NoTrans, or Trans ("T", real) / ConjTrans ("C", complex); nullopt: another letter.
  std::optional<kernels::Op> op;
  int m, n, k;
  int ia, ja;
  const int* desca;
  int ic, jc;
  const int* descc;

  /// As PDORMQR's LEFT: SIDE is "L" (an invalid SIDE counts as "R" until it is reported).
  bool left() const { return side == kernels::Side::Left; }
  /// Q's order: M for SIDE "L", N otherwise.
  int order() const { return left() ? m : n; }
  bool empty() const { return m == 0 || n == 0 || k == 0; }
  /// sub(A) as CHK1MAT sees it: Q's order × K.
  layout::MatrixArgument a_argument() const;
  layout::MatrixArgument c_argument() const;
};

/// The checks of a call whose DESCA is a hetscal descriptor of `context`, on this process
/// (no communication): M, N, K >= 0, DESCA as check_in_place_operand with M_A = Q's order
/// and K <= N_A (else K's code), DESCC likewise when it is a hetscal descriptor (M_C = M,
/// N_C = N), else only its CTXT (the context's BLACS context). @return 0 or the INFO.
int in_place_ormqr_info(const OrmqrCall& call, const Context& context);

/// SIDE, TRANS and K <= Q's order, in PDORMQR's order. Local. @return 0 or the INFO.
int ormqr_option_info(const OrmqrCall& call);

/// Every check of a call on ScaLAPACK descriptors, on `grid` (DESCA's context); collective
/// over grid.comm, the same INFO on every process.
/// @param[out] a, c the operands' descriptions when the call is accepted.
/// @return 0, PDORMQR's negative INFO, or a #hetscal_status > 0 for an operand hetscal does
///         not take.
int scalapack_ormqr_info(const OrmqrCall& call, const mpi::ContextInfo& grid, mpi::CallerMatrix& a,
                         mpi::CallerMatrix& c);

}  // namespace hetscal::api
