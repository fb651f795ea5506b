// hetero_pxormqr's checks (PxORMQR and PxUNMQR alike), in PDORMQR's order (its pdormqr.f: CHK1MAT
// on A and C, then the options and the alignment conditions, PCHK2MAT's agreement being
// describe_caller_matrix's).
#include "api/ormqr_checks.hpp"

#include <cstdint>

#include "api/hetero_matrix.hpp"
#include "api/scalapack_operand.hpp"
#include "hetscal/hetscal.h"
#include "layout/block_cyclic.hpp"
#include "runtime/abi_options.hpp"

namespace hetscal::api {
namespace {

inline constexpr int kSide = 1, kTrans = 2, kIc = 12, kJc = 13;

/// TRANS as PxORMQR takes it ("N" or "T" only), or PxUNMQR ("N" or "C" only).
std::optional<kernels::Op> parse_ormqr_trans(const char* option, QElements elements) {
  const std::optional<kernels::Op> op = runtime::parse_trans(option);
  const kernels::Op refused =
      elements == QElements::Complex ? kernels::Op::Trans : kernels::Op::ConjTrans;
  return op == refused ? std::nullopt : op;
}

/// The alignment PDORMQR requires of two checked ScaLAPACK operands, and C on A's context.
int alignment_info(const OrmqrCall& call, const mpi::ContextInfo& grid) {
  const layout::Descriptor a = layout::Descriptor::parse(call.desca);
  const layout::Descriptor c = layout::Descriptor::parse(call.descc);
  const std::int64_t a_row_offset = (call.ia - 1) % a.mb;
  const int a_row = layout::owner_coordinate(a.row_axis(grid.nprow), call.ia - 1);
  const int c_row = layout::owner_coordinate(c.row_axis(grid.nprow), call.ic - 1);
  if (!call.left() && a.mb != c.nb) return field_info(kOrmqrDescA, field::kNb);
  if (call.left() && a_row_offset != (call.ic - 1) % c.mb) return -kIc;
  if (call.left() && a_row != c_row) return -kIc;
  if (!call.left() && a_row_offset != (call.jc - 1) % c.nb) return -kJc;
  if (call.left() && a.mb != c.mb) return field_info(kOrmqrDescC, field::kMb);
  return 0;
}

}  // namespace

OrmqrCall::OrmqrCall(const char* side_option, const char* trans_option, QElements elements,
                     int rows, int cols, int reflectors, int a_row, int a_col, const int* a_desc,
                     int c_row, int c_col, const int* c_desc)
    : side(runtime::parse_side(side_option)),
      op(parse_ormqr_trans(trans_option, elements)),
      m(rows),
      n(cols),
      k(reflectors),
      ia(a_row),
      ja(a_col),
      desca(a_desc),
      ic(c_row),
      jc(c_col),
      descc(c_desc) {}

layout::MatrixArgument OrmqrCall::a_argument() const {
  return {order(), left() ? kOrmqrM : kOrmqrN, k, kOrmqrK, ia, ja, desca, kOrmqrDescA};
}

layout::MatrixArgument OrmqrCall::c_argument() const {
  return {m, kOrmqrM, n, kOrmqrN, ic, jc, descc, kOrmqrDescC};
}

int in_place_ormqr_info(const OrmqrCall& call, const Context& context) {
  if (call.m < 0) return -kOrmqrM;
  if (call.n < 0) return -kOrmqrN;
  if (call.k < 0) return -kOrmqrK;
  layout::MatrixArgument a = call.a_argument();
  a.n = call.desca[field::kN - 1];  // the factors' whole width: K of its columns are used
  int info = check_in_place_operand(a, context);
  if (info == 0 && call.k > a.n) info = -kOrmqrK;
  if (info != 0) return info;
  if (call.descc[0] == HETSCAL_DTYPE) return check_in_place_operand(call.c_argument(), context);
  return call.descc[field::kCtxt - 1] != context.blacs_context
             ? field_info(kOrmqrDescC, field::kCtxt)
             : 0;
}

int ormqr_option_info(const OrmqrCall& call) {
  if (!call.side) return -kSide;
  if (!call.op) return -kTrans;
  return call.k > call.order() ? -kOrmqrK : 0;
}

int scalapack_ormqr_info(const OrmqrCall& call, const mpi::ContextInfo& grid, mpi::CallerMatrix& a,
                         mpi::CallerMatrix& c) {
  const int blacs_context = call.desca[field::kCtxt - 1];
  const auto rules = mpi::CheckRules::Scalapack;
  int info = describe_scalapack_operand(grid, blacs_context, call.a_argument(), a, rules);
  if (info > 0) return info;
  // C on another context cannot be described on A's grid: PDORMQR's last check reports it.
  const bool same_context = call.descc[field::kCtxt - 1] == blacs_context;
  if (same_context)
    info = describe_scalapack_operand(grid, blacs_context, call.c_argument(), c, rules, info);
  if (info != 0) return info;
  info = ormqr_option_info(call);
  if (info == 0) info = alignment_info(call, grid);
  if (info == 0 && !same_context) info = field_info(kOrmqrDescC, field::kCtxt);
  return info;
}

}  // namespace hetscal::api
