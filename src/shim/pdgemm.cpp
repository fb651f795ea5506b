// PDGEMM: sub(C) = alpha·op(sub(A))·op(sub(B)) + beta·sub(C), intercepted.
// Arguments are checked exactly as PBLAS's pdgemm_ checks them (same order, same INFO, same
// PB_Cabort), the quick returns are PBLAS's, then the call is computed on hetscal's plan or
// forwarded to ScaLAPACK, by a decision every rank of the context takes alike.
#include <cctype>
#include <exception>
#include <string>

#include "kernels/planned_gemm.hpp"
#include "layout/block_cyclic_distribution.hpp"
#include "layout/descriptor.hpp"
#include "shim/context_state.hpp"
#include "shim/decision.hpp"
#include "shim/mangling.hpp"
#include "shim/pblas_symbols.hpp"
#include "shim/real_routine.hpp"
#include "shim/report.hpp"

namespace hetscal::shim {
namespace {

using kernels::GemmCall;

using Pdgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const double*,
                        const double*, const int*, const int*, const int*, const double*,
                        const int*, const int*, const int*, const double*, double*, const int*,
                        const int*, const int*);

// Positions of PDGEMM's arguments (1-based), as PBLAS's INFO codes name them.
enum Position { kTransA = 1, kTransB = 2, kM = 3, kN = 4, kK = 5, kDescA = 10, kDescB = 14, kDescC = 19 };

enum class Trans { No, Yes, Invalid };

Trans parse_trans(const char* option) {
  switch (std::toupper(static_cast<unsigned char>(option[0]))) {
    case 'N': return Trans::No;
    case 'T':
    case 'C': return Trans::Yes;  // conjugate transpose is the transpose for real data
    default: return Trans::Invalid;
  }
}

layout::MatrixArgument argument(int rows, int rows_position, int cols, int cols_position, int i,
                                int j, const int* desc, int desc_position) {
  return {rows, rows_position, cols, cols_position, i, j, desc, desc_position};
}

// PBLAS's checks: grid of DESCA's context, TRANSA, TRANSB, then PB_Cchkmat on A, B, C (an
// earlier error is kept). @return 0 or the INFO PB_Cabort receives.
int check_arguments(Trans trans_a, Trans trans_b, int m, int n, int k, int ia, int ja,
                    const int* desca, int ib, int jb, const int* descb, int ic, int jc,
                    const int* descc, int context) {
  layout::BlacsGridView grid;
  grid.context = context;
  Cblacs_gridinfo(context, &grid.nprow, &grid.npcol, &grid.myrow, &grid.mycol);
  if (grid.nprow == -1) return -(kDescA * 100 + layout::field11::kCtxt);
  int info = 0;
  if (trans_a == Trans::Invalid) {
    info = -kTransA;
  } else if (trans_b == Trans::Invalid) {
    info = -kTransB;
  }
  const bool nota = trans_a == Trans::No, notb = trans_b == Trans::No;
  info = layout::check_matrix_pblas(nota ? argument(m, kM, k, kK, ia, ja, desca, kDescA)
                                         : argument(k, kK, m, kM, ia, ja, desca, kDescA), grid, info);
  info = layout::check_matrix_pblas(notb ? argument(k, kK, n, kN, ib, jb, descb, kDescB)
                                         : argument(n, kN, k, kK, ib, jb, descb, kDescB), grid, info);
  return layout::check_matrix_pblas(argument(m, kM, n, kN, ic, jc, descc, kDescC), grid, info);
}

bool replicated(const int* desc) {
  const layout::Descriptor d = layout::Descriptor::parse(desc);
  return d.rsrc == layout::kReplicated || d.csrc == layout::kReplicated;
}

// Features hetscal leaves to ScaLAPACK; empty when the call is supported.
std::string unsupported(const GemmCall& call) {
  if (call.alpha == 0.0) return "alpha = 0: only scales C";
  if (replicated(call.a.desc) || replicated(call.b.desc) || replicated(call.c.desc)) {
    return "a replicated operand (RSRC or CSRC = -1)";
  }
  return {};
}

// sub(C) on the caller's grid, as ScaLAPACK computes it.
GridLoad caller_load(const ContextState& state, const GemmCall& call) {
  const mpi::ContextInfo& context = *state.context;
  const layout::BlockCyclicDistribution c(
      layout::Descriptor::parse(call.c.desc),
      layout::SubmatrixExtent{call.c.ia - 1, call.c.ja - 1, call.m, call.n},
      layout::ProcessGrid(context.nprow, context.npcol, context.rank_table, context.num_ranks()));
  return kernels::grid_load(c, state.speeds);
}

Decision decide_call(ContextState& state, const GemmCall& call) {
  DecisionInput input;
  input.disabled = state.disabled;
  input.force = state.force;
  input.min_n = state.min_n;
  input.configuration_problem = state.configuration_problem;
  input.speeds_problem = state.speeds_problem;
  input.m = call.m;
  input.n = call.n;
  input.k = call.k;
  input.beta_zero = call.beta == 0.0;
  input.unsupported = unsupported(call);
  input.ranks = state.context->num_ranks();
  input.speeds = state.speeds;
  if (input.unsupported.empty() && input.speeds_problem.empty()) {
    const layout::Descriptor a = layout::Descriptor::parse(call.a.desc);
    input.caller_k_block = call.op_a == kernels::Op::NoTrans ? a.nb : a.mb;
    input.caller = caller_load(state, call);
    input.planned = [&]() -> std::optional<GridLoad> {
      const auto plan = state.plans->gemm(call.m, call.n, call.k);
      report_once(state.verbosity, Verbosity::Once, state.is_root(),
                  "PDGEMM " + std::to_string(call.m) + "x" + std::to_string(call.n) + "x" +
                      std::to_string(call.k) + " plan: " + plan->description);
      return plan->load;
    };
  }
  return decide(input);
}

// @return true when hetscal computed the call.
bool compute_if_planned(int blacs_context, const GemmCall& call) {
  ContextState& state = context_state(blacs_context);
  Decision decision = decide_call(state, call);
  const std::string shape =
      std::to_string(call.m) + "x" + std::to_string(call.n) + "x" + std::to_string(call.k);
  if (decision.route == Route::Heterogeneous) {
    try {
      kernels::run_planned_gemm(*state.context, *state.plans->gemm(call.m, call.n, call.k), call);
    } catch (const std::exception& e) {
      decision.route = Route::Forward;
      decision.reason = std::string("internal error: ") + e.what();
    }
  }
  report_call(state.verbosity, state.is_root(), "PDGEMM", shape, decision);
  return decision.route == Route::Heterogeneous;
}

}  // namespace

void pdgemm(const char* transa, const char* transb, const int* m, const int* n, const int* k,
            const double* alpha, const double* a, const int* ia, const int* ja, const int* desca,
            const double* b, const int* ib, const int* jb, const int* descb, const double* beta,
            double* c, const int* ic, const int* jc, const int* descc) {
  static const Pdgemm scalapack = real_function<Pdgemm>("pdgemm_");
  const Trans trans_a = parse_trans(transa), trans_b = parse_trans(transb);
  const int context = desca[1];  // CTXT, the same entry in both descriptor types
  const int info = check_arguments(trans_a, trans_b, *m, *n, *k, *ia, *ja, desca, *ib, *jb,
                                   descb, *ic, *jc, descc, context);
  if (info != 0) {
    PB_Cabort(context, "PDGEMM", info);
    return;
  }
  if (*m == 0 || *n == 0 || ((*alpha == 0.0 || *k == 0) && *beta == 1.0)) return;

  if (*k > 0) {  // K = 0 only scales C: ScaLAPACK's business
    GemmCall call;
    call.op_a = trans_a == Trans::No ? kernels::Op::NoTrans : kernels::Op::Trans;
    call.op_b = trans_b == Trans::No ? kernels::Op::NoTrans : kernels::Op::Trans;
    call.m = *m;
    call.n = *n;
    call.k = *k;
    call.alpha = *alpha;
    call.beta = *beta;
    call.a = {a, *ia, *ja, desca};
    call.b = {b, *ib, *jb, descb};
    call.c = {c, *ic, *jc, descc};
    try {
      if (compute_if_planned(context, call)) return;
    } catch (const std::exception& e) {
      report_once(Verbosity::Once, Verbosity::Once, true,
                  std::string("PDGEMM forwarded after an internal error: ") + e.what());
    }
  }
  scalapack(transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc);
}

}  // namespace hetscal::shim

HETSCAL_EXPORT_MANGLINGS(
    pdgemm, PDGEMM, hetscal::shim::pdgemm,
    (const char* transa, const char* transb, const int* m, const int* n, const int* k,
     const double* alpha, const double* a, const int* ia, const int* ja, const int* desca,
     const double* b, const int* ib, const int* jb, const int* descb, const double* beta,
     double* c, const int* ic, const int* jc, const int* descc),
    (transa, transb, m, n, k, alpha, a, ia, ja, desca, b, ib, jb, descb, beta, c, ic, jc, descc))
