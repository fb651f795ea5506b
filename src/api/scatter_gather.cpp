// Native API: moving a matrix between a caller's ScaLAPACK layout and a context's
// heterogeneous layout (hetscal_scatter, hetscal_gather and their S, C, Z forms): one
// implementation over the element type, exported once per precision.
#include <complex>
#include <exception>

#include "api/hetero_matrix.hpp"
#include "api/scalapack_operand.hpp"
#include "hetscal/hetscal.h"
#include "mpi/redistribute.hpp"

namespace hetscal::api {
namespace {

enum class Direction { ToHetero, ToScalapack };

// Argument positions, the same in both routines (the two arrays swap places).
enum Position { kM = 1, kN = 2, kIa = 4, kJa = 5, kDescA = 6, kDescH = 8 };

template <typename T>
int move(Direction direction, int m, int n, const T* from, T* to, int ia, int ja, const int* desca,
         const int* desch) {
  const mpi::ContextInfo* grid = nullptr;
  try {
    grid = &mpi::context_info(desca[1]);
  } catch (const std::exception&) {
    return field_info(kDescA, 2);
  }
  mpi::CallerMatrix caller;
  const int scalapack_info = describe_scalapack_operand(
      *grid, desca[1], layout::MatrixArgument{m, kM, n, kN, ia, ja, desca, kDescA}, caller);
  if (scalapack_info != 0) return scalapack_info;
  Context* context = nullptr;
  int info = check_hetero_descriptor(desch, kDescH, &context);
  if (info == 0 && context->blacs_context != desca[1]) info = field_info(kDescH, field::kCtxt);
  if (info == 0 && desch[field::kM - 1] != m) info = field_info(kDescH, field::kM);
  if (info == 0 && desch[field::kN - 1] != n) info = field_info(kDescH, field::kN);
  info = agreed_info(grid->comm, info);
  if (info != 0) return info;
  const HeteroMatrix hetero = hetero_matrix(*context, desch);
  const bool in = direction == Direction::ToHetero;
  const mpi::MatrixMove matrix_move =
      in ? mpi::MatrixMove{caller.distribution.get(), caller.storage.get(),
                           hetero.distribution.get(), hetero.storage.get(), mpi::Op::None}
         : mpi::MatrixMove{hetero.distribution.get(), hetero.storage.get(),
                           caller.distribution.get(), caller.storage.get(), mpi::Op::None};
  const mpi::RedistributionPlan plan(context->grid.comm, {matrix_move});
  mpi::redistribute<T>(plan, from, to);
  return 0;
}

template <typename T>
int guarded_move(Direction direction, int m, int n, const T* from, T* to, int ia, int ja,
                 const int* desca, const int* desch) {
  try {
    return move(direction, m, n, from, to, ia, ja, desca, desch);
  } catch (const std::exception&) {
    return HETSCAL_ERR_INTERNAL;
  }
}

}  // namespace
}  // namespace hetscal::api

// The exported pairs, one per precision; S, D, C, Z as ScaLAPACK's prefixes.
#define HETSCAL_SCATTER_GATHER(scatter, gather, T)                                               \
  extern "C" void scatter(int m, int n, const T* a, int ia, int ja, const int* desca, T* h,      \
                          const int* desch, int* info) {                                         \
    *info = hetscal::api::guarded_move(hetscal::api::Direction::ToHetero, m, n, a, h, ia, ja,    \
                                       desca, desch);                                            \
  }                                                                                              \
  extern "C" void gather(int m, int n, T* a, int ia, int ja, const int* desca, const T* h,       \
                         const int* desch, int* info) {                                          \
    *info = hetscal::api::guarded_move(hetscal::api::Direction::ToScalapack, m, n, h, a, ia, ja, \
                                       desca, desch);                                            \
  }
HETSCAL_SCATTER_GATHER(hetscal_sscatter, hetscal_sgather, float)
HETSCAL_SCATTER_GATHER(hetscal_scatter, hetscal_gather, double)
HETSCAL_SCATTER_GATHER(hetscal_cscatter, hetscal_cgather, hetscal_complex_float)
HETSCAL_SCATTER_GATHER(hetscal_zscatter, hetscal_zgather, hetscal_complex_double)
#undef HETSCAL_SCATTER_GATHER
