/* New code on hetscal's native API: a context planned for a Cholesky factorisation (a
 * heterogeneous Cartesian grid or a pattern, whichever the time model predicts faster unless
 * asked), A and B filled through the tile queries (which serve every layout), then
 * hetero_pdpotrf and hetero_pdpotrs, and the solution checked against its closed form.
 *
 *   mpirun -np 4 -x HETSCAL_SPEEDS=1,3,2,1 hetero_cholesky_c [N [any|cartesian|pattern]]
 *
 * Speeds: those configured for the shim (HETSCAL_SPEEDS or HETSCAL_SPEEDS_FILE), else each
 * process measures its own. The exit status is 0 when the check passes on every process. */
#include "native_example.h"

enum { kNrhs = 3 };

/* A = N·I + (all ones), symmetric positive definite (eigenvalues 2N and N); the solution
 * X(i,j) = i + j (1-based) gives B = A·X = N(N+1)/2 + N·j + N·(i + j). */
static int order;
static double a_element(int i, int j) { return (i == j ? order : 0.0) + 1.0; }
static double x_element(int i, int j) { return i + j; }
static double b_element(int i, int j) {
  return order * (order + 1.0) / 2.0 + (double)order * j + (double)order * (i + j);
}

int main(int argc, char** argv) {
  int context = 0;
  hetscal_context_t ctx =
      example_start(&argc, &argv, HETSCAL_ROUTINE_POTRF, "Cholesky", &context, &order);
  Matrix a, b;
  example_system(ctx, order, kNrhs, a_element, b_element, &a, &b);
  int info = 0;
  int call = hetero_pdpotrf("L", order, a.data, 1, 1, a.desc, &info);
  if (call == HETSCAL_SUCCESS && info == 0)
    call = hetero_pdpotrs("L", order, kNrhs, a.data, 1, 1, a.desc, b.data, 1, 1, b.desc, &info);
  const int passed = example_verdict(call, info, matrix_error(&b, x_element), order, kNrhs);

  free(a.data);
  free(b.data);
  hetscal_context_free(&ctx);
  Cblacs_gridexit(context);
  MPI_Finalize();
  return passed ? 0 : 1;
}
