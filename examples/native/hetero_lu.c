/* New code on hetscal's native API: a context planned for an LU factorisation (a
 * heterogeneous Cartesian grid or a pattern, whichever the time model predicts faster unless
 * asked), A and B filled through the tile queries (which serve every layout), then
 * hetero_pdgetrf (pivots in hetscal's format: N global rows on every process) and
 * hetero_pdgetrs, and the solution checked against its closed form; the pivots are
 * checked too, since this A needs a row interchange at every step.
 *
 *   mpirun -np 4 -x HETSCAL_SPEEDS=1,3,2,1 hetero_lu_c [N [any|cartesian|pattern]]
 *
 * Speeds: those configured for the shim (HETSCAL_SPEEDS or HETSCAL_SPEEDS_FILE), else each
 * process measures its own. The exit status is 0 when the check passes on every process. */
#include "native_example.h"

enum { kNrhs = 3 };

/* A = N·P + (all ones), P the cyclic shift (P(i, i-1) = 1, P(1, N) = 1): Pᵀ·A = N·I + ones
 * has eigenvalues 2N and N, so cond(A) = 2, but A's diagonal is 1 against N + 1 below it,
 * so partial pivoting interchanges rows at every step. The solution X(i,j) = i + j gives
 * B = A·X = N(N+1)/2 + N·j + N·(s(i) + j), s(i) = i - 1 (N for i = 1). */
static int order;
static int shifted(int i) { return i == 1 ? order : i - 1; }
static double a_element(int i, int j) { return (j == shifted(i) ? order : 0.0) + 1.0; }
static double x_element(int i, int j) { return i + j; }
static double b_element(int i, int j) {
  return order * (order + 1.0) / 2.0 + (double)order * j + (double)order * (shifted(i) + j);
}

/* Partial pivoting on this A brings row i + 1 (1-based) up at step i < N: its N + 1 is the
 * column's largest after the updates (the first step's multipliers are 1/(N+1)). */
static int pivots_as_expected(const int* ipiv) {
  for (int i = 1; i < order; ++i)
    if (ipiv[i - 1] != i + 1) return 0;
  return ipiv[order - 1] == order;
}

int main(int argc, char** argv) {
  int context = 0;
  hetscal_context_t ctx =
      example_start(&argc, &argv, HETSCAL_ROUTINE_GETRF, "LU", &context, &order);
  Matrix a, b;
  example_system(ctx, order, kNrhs, a_element, b_element, &a, &b);
  int* ipiv = calloc((size_t)order, sizeof(int));
  int info = 0;
  int call = hetero_pdgetrf(order, order, a.data, 1, 1, a.desc, ipiv, &info);
  const int pivots_ok = call == HETSCAL_SUCCESS && info == 0 && pivots_as_expected(ipiv);
  if (call == HETSCAL_SUCCESS && info == 0)
    call =
        hetero_pdgetrs("N", order, kNrhs, a.data, 1, 1, a.desc, ipiv, b.data, 1, 1, b.desc, &info);
  const int solved = example_verdict(call, info, matrix_error(&b, x_element), order, kNrhs);
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  if (me == 0 && !pivots_ok) printf("pivots differ from the expected i + 1: FAILED\n");

  free(ipiv);
  free(a.data);
  free(b.data);
  hetscal_context_free(&ctx);
  Cblacs_gridexit(context);
  MPI_Finalize();
  return solved && pivots_ok ? 0 : 1;
}
