// Native API: hetero_p{s,d,c,z}gemm, PxGEMM's arguments plus INFO, always computed by
// hetscal: in place on hetscal descriptors, or moved in and out on ScaLAPACK descriptors.
// One implementation over the element type T, exported once per precision at the end.
#include <complex>
#include <exception>
#include <optional>

#include "api/hetero_matrix.hpp"
#include "api/kept_balanced.hpp"
#include "api/scalapack_operand.hpp"
#include "hetscal/hetscal.h"
#include "kernels/gemm.hpp"
#include "kernels/local_blas.hpp"
#include "mpi/agreement.hpp"
#include "runtime/abi_options.hpp"
#include "runtime/planned_gemm.hpp"

namespace hetscal::api {
namespace {

// Positions of the arguments (1-based), as PDGEMM's INFO codes name them.
enum Position {
  kTransA = 1,
  kTransB = 2,
  kM = 3,
  kN = 4,
  kK = 5,
  kDescA = 10,
  kDescB = 14,
  kDescC = 19
};

// TRANSA/TRANSB as parsed at the ABI boundary; nullopt for an invalid character.
using Trans = std::optional<kernels::Op>;

bool not_transposed(const Trans& t) { return t == kernels::Op::NoTrans; }

// One call's arguments, characters parsed; matrix arguments as stored (before op).
template <typename T>
struct Call {
  Trans trans_a = kernels::Op::NoTrans, trans_b = kernels::Op::NoTrans;
  int m = 0, n = 0, k = 0;
  T alpha = T(1), beta = T(0);
  const T *a = nullptr, *b = nullptr;
  T* c = nullptr;
  layout::MatrixArgument arg_a, arg_b, arg_c;
};

template <typename T>
int trans_info(const Call<T>& call) {
  return !call.trans_a ? -kTransA : !call.trans_b ? -kTransB : 0;
}

template <typename T>
int in_place(const Call<T>& call) {
  Context* context = find_context(call.arg_a.desc[field::kCtxt - 1]);
  if (!context) return field_info(kDescA, field::kCtxt);  // no grid to agree on: local
  int info = trans_info(call);
  if (info == 0) info = call.m < 0 ? -kM : call.n < 0 ? -kN : call.k < 0 ? -kK : 0;
  for (const layout::MatrixArgument* x : {&call.arg_a, &call.arg_b, &call.arg_c}) {
    if (info == 0) info = check_in_place_operand(*x, *context);
  }
  info = agreed_info(context->grid.comm, info);
  if (info != 0 || call.m == 0 || call.n == 0) return info;
  start_native_call(*context, kernels::gemm_flops<T>(call.m, call.n, call.k),
                    {call_operand(call.a, call.arg_a.desc), call_operand(call.b, call.arg_b.desc),
                     call_operand(call.c, call.arg_c.desc)});
  const HeteroMatrix a = hetero_matrix(*context, call.arg_a.desc);
  const HeteroMatrix b = hetero_matrix(*context, call.arg_b.desc);
  const HeteroMatrix c = hetero_matrix(*context, call.arg_c.desc);
  kernels::gemm<T>(*call.trans_a, *call.trans_b, call.alpha,
                   {a.distribution.get(), a.storage.get(), call.a},
                   {b.distribution.get(), b.storage.get(), call.b}, call.beta,
                   {c.distribution.get(), c.storage.get(), call.c}, context->grid.comm);
  return 0;
}

template <typename T>
int moved(const Call<T>& call) {
  if (const int info = trans_info(call)) return info;
  const int blacs_context = call.arg_a.desc[1];
  const mpi::ContextInfo* grid = nullptr;
  try {
    grid = &mpi::context_info(blacs_context);
  } catch (const std::exception&) {
    return field_info(kDescA, field::kCtxt);
  }
  mpi::CallerMatrix views[3];
  int index = 0;
  for (const layout::MatrixArgument* x : {&call.arg_a, &call.arg_b, &call.arg_c}) {
    if (x->desc[0] == HETSCAL_DTYPE) return field_info(x->desc_position, field::kDtype);
    if (const int info = describe_scalapack_operand(*grid, blacs_context, *x, views[index++]))
      return info;
  }
  const Context* context = latest_context_of(blacs_context);
  if (!context) return HETSCAL_ERR_CONTEXT;
  if (call.m == 0 || call.n == 0) return 0;
  if (call.k == 0 || call.alpha == T(0)) {  // only scales C: in the caller's own layout
    kernels::gemm<T>(*call.trans_a, *call.trans_b, call.alpha,
                     {views[0].distribution.get(), views[0].storage.get(), call.a},
                     {views[1].distribution.get(), views[1].storage.get(), call.b}, call.beta,
                     {views[2].distribution.get(), views[2].storage.get(), call.c}, grid->comm);
    return 0;
  }
  std::shared_ptr<const runtime::GemmLayout> plan;
  bool no_plan = false;  // deterministic: every process plans the same layout or refuses alike
  try {  // memory is not: agreed, so that every process returns the same status
    mpi::run_agreed(grid->comm, "plan", [&] {
      try {
        plan = context->plan_gemm(call.m, call.n, call.k);
      } catch (const InvalidArgument&) {
        no_plan = true;
      }
    });
  } catch (const mpi::StageFailed&) {
    return HETSCAL_ERR_INTERNAL;
  }
  if (no_plan) return HETSCAL_ERR_NO_PLAN;
  runtime::GemmCall<T> gemm;
  gemm.op_a = *call.trans_a;
  gemm.op_b = *call.trans_b;
  gemm.m = call.m;
  gemm.n = call.n;
  gemm.k = call.k;
  gemm.alpha = call.alpha;
  gemm.beta = call.beta;
  gemm.a = runtime::caller_operand(call.a, call.arg_a.ia, call.arg_a.ja, call.arg_a.desc);
  gemm.b = runtime::caller_operand(call.b, call.arg_b.ia, call.arg_b.ja, call.arg_b.desc);
  gemm.c = runtime::caller_operand(call.c, call.arg_c.ia, call.arg_c.ja, call.arg_c.desc);
  const runtime::TakeOverOutcome outcome =
      runtime::run_planned(context->grid, *plan, gemm, context->resources.workspace);
  return outcome.computed() ? 0 : HETSCAL_ERR_INTERNAL;
}

/// The exported entry of every precision: parses and checks, never throws.
template <typename T>
void hetero_pxgemm(const char* transa, const char* transb, int m, int n, int k, T alpha, const T* a,
                   int ia, int ja, const int* desca, const T* b, int ib, int jb, const int* descb,
                   T beta, T* c, int ic, int jc, const int* descc, int* info) {
  Call<T> call;
  call.trans_a = runtime::parse_trans(transa);
  call.trans_b = runtime::parse_trans(transb);
  call.m = m;
  call.n = n;
  call.k = k;
  call.alpha = alpha;
  call.beta = beta;
  call.a = a;
  call.b = b;
  call.c = c;
  const bool nota = not_transposed(call.trans_a), notb = not_transposed(call.trans_b);
  call.arg_a = nota ? layout::MatrixArgument{m, kM, k, kK, ia, ja, desca, kDescA}
                    : layout::MatrixArgument{k, kK, m, kM, ia, ja, desca, kDescA};
  call.arg_b = notb ? layout::MatrixArgument{k, kK, n, kN, ib, jb, descb, kDescB}
                    : layout::MatrixArgument{n, kN, k, kK, ib, jb, descb, kDescB};
  call.arg_c = layout::MatrixArgument{m, kM, n, kN, ic, jc, descc, kDescC};
  try {
    *info = desca[0] == HETSCAL_DTYPE ? in_place(call) : moved(call);
  } catch (const std::exception&) {
    *info = HETSCAL_ERR_INTERNAL;
  }
}

}  // namespace
}  // namespace hetscal::api

// Real precisions take ALPHA and BETA by value, complex ones by pointer (hetscal.h says why).
extern "C" void hetero_psgemm(const char* transa, const char* transb, int m, int n, int k,
                              float alpha, const float* a, int ia, int ja, const int* desca,
                              const float* b, int ib, int jb, const int* descb, float beta,
                              float* c, int ic, int jc, const int* descc, int* info) {
  hetscal::api::hetero_pxgemm(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb,
                              beta, c, ic, jc, descc, info);
}

extern "C" void hetero_pdgemm(const char* transa, const char* transb, int m, int n, int k,
                              double alpha, const double* a, int ia, int ja, const int* desca,
                              const double* b, int ib, int jb, const int* descb, double beta,
                              double* c, int ic, int jc, const int* descc, int* info) {
  hetscal::api::hetero_pxgemm(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb,
                              beta, c, ic, jc, descc, info);
}

extern "C" void hetero_pcgemm(const char* transa, const char* transb, int m, int n, int k,
                              const hetscal_complex_float* alpha, const hetscal_complex_float* a,
                              int ia, int ja, const int* desca, const hetscal_complex_float* b,
                              int ib, int jb, const int* descb, const hetscal_complex_float* beta,
                              hetscal_complex_float* c, int ic, int jc, const int* descc,
                              int* info) {
  hetscal::api::hetero_pxgemm(transa, transb, m, n, k, *alpha, a, ia, ja, desca, b, ib, jb, descb,
                              *beta, c, ic, jc, descc, info);
}

extern "C" void hetero_pzgemm(const char* transa, const char* transb, int m, int n, int k,
                              const hetscal_complex_double* alpha, const hetscal_complex_double* a,
                              int ia, int ja, const int* desca, const hetscal_complex_double* b,
                              int ib, int jb, const int* descb, const hetscal_complex_double* beta,
                              hetscal_complex_double* c, int ic, int jc, const int* descc,
                              int* info) {
  hetscal::api::hetero_pxgemm(transa, transb, m, n, k, *alpha, a, ia, ja, desca, b, ib, jb, descb,
                              *beta, c, ic, jc, descc, info);
}
