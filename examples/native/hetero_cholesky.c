/* New code on hetscal's native API: a context planned for a Cholesky factorisation (a
 * heterogeneous Cartesian grid or a pattern, whichever the time model predicts faster unless
 * asked), A and B filled through the tile queries (which serve every layout), then
 * hetero_pdpotrf and hetero_pdpotrs, and the solution checked against its closed form.
 *
 *   mpirun -np 4 -x HETSCAL_SPEEDS=1,3,2,1 hetero_cholesky_c [N [any|cartesian|pattern]]
 *
 * Speeds: those configured for the shim (HETSCAL_SPEEDS or HETSCAL_SPEEDS_FILE), else each
 * process measures its own. The exit status is 0 when the check passes on every process. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hetscal/hetscal.h"

/* BLACS's C interface (Debian's ScaLAPACK ships no header). */
void Cblacs_pinfo(int* mypnum, int* nprocs);
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridexit(int context);

enum { kNrhs = 3 };

/* A = N·I + (all ones), symmetric positive definite (eigenvalues 2N and N); the solution
 * X(i,j) = i + j (1-based) gives B = A·X = N(N+1)/2 + N·j + N·(i + j). */
static int order;
static double a_element(int i, int j) { return (i == j ? order : 0.0) + 1.0; }
static double x_element(int i, int j) { return i + j; }
static double b_element(int i, int j) {
  return order * (order + 1.0) / 2.0 + (double)order * j + (double)order * (i + j);
}

/* One matrix of the context: descriptor and local array, filled through the tile queries. */
typedef struct {
  int desc[HETSCAL_DESC_LEN];
  double* data;
} Matrix;

/* Calls visit(matrix, global i, global j, local index) for every element held here. */
static void for_each_local(Matrix* x, double (*visit)(Matrix*, int, int, size_t, double),
                           double* worst) {
  const int rows = x->desc[2], cols = x->desc[3], tile = x->desc[4];
  for (int tj = 1; (tj - 1) * tile < cols; ++tj) {
    for (int ti = 1; (ti - 1) * tile < rows; ++ti) {
      long long index = 0;
      int ld = 0;
      if (hetscal_local_tile(x->desc, ti, tj, &index, &ld) != 1) continue;
      for (int c = 0; c < tile && (tj - 1) * tile + c < cols; ++c)
        for (int r = 0; r < tile && (ti - 1) * tile + r < rows; ++r) {
          const size_t k = (size_t)(index - 1 + r + (long long)c * ld);
          *worst = visit(x, (ti - 1) * tile + r + 1, (tj - 1) * tile + c + 1, k, *worst);
        }
    }
  }
}

static double fill_a(Matrix* x, int i, int j, size_t k, double unused) {
  x->data[k] = a_element(i, j);
  return unused;
}
static double fill_b(Matrix* x, int i, int j, size_t k, double unused) {
  x->data[k] = b_element(i, j);
  return unused;
}
static double error_of_x(Matrix* x, int i, int j, size_t k, double worst) {
  const double d = fabs(x->data[k] - x_element(i, j));
  return isnan(d) ? INFINITY : (d > worst ? d : worst); /* MPI_MAX may drop NaN */
}

static void matrix_init(Matrix* x, hetscal_context_t ctx, int rows, int cols) {
  int info = 0;
  const int lld = hetscal_local_rows(ctx, rows); /* -1 on a pattern: LLD is then unused */
  hetscal_descinit(x->desc, rows, cols, ctx, lld > 1 ? lld : 1, &info);
  const long long elements = hetscal_local_elements(x->desc);
  x->data = calloc((size_t)(elements > 1 ? elements : 1), sizeof(double));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, procs = 1, context = 0, nprow = 1;
  Cblacs_pinfo(&me, &procs);
  for (int r = 1; r * r <= procs; ++r) nprow = procs % r == 0 ? r : nprow;
  Cblacs_get(0, 0, &context);
  Cblacs_gridinit(&context, "Row", nprow, procs / nprow);

  order = argc > 1 ? atoi(argv[1]) : 300;
  const char* kind = argc > 2 ? argv[2] : "any";
  const int layout = strcmp(kind, "cartesian") == 0 ? HETSCAL_LAYOUT_CARTESIAN
                     : strcmp(kind, "pattern") == 0 ? HETSCAL_LAYOUT_PATTERN
                                                    : HETSCAL_LAYOUT_ANY;
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL; /* NULL speeds: configured or measured */
  const int status =
      hetscal_context_create(context, NULL, HETSCAL_ROUTINE_POTRF, layout, order, order, 0, &ctx);
  if (status != HETSCAL_SUCCESS) {
    if (me == 0) fprintf(stderr, "hetscal_context_create failed: %d\n", status);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  double seconds = 0.0, balance = 0.0, speedup = 0.0;
  int rows = 0, cols = 0;
  hetscal_context_grid(ctx, &rows, &cols, NULL, NULL);
  hetscal_context_prediction(ctx, &seconds, &balance, &speedup);
  if (me == 0) {
    printf(
        "Cholesky N=%d on %d processes: %s %dx%d, tile %d, predicted balance %.3f, "
        "speed-up %.2f over 2D block-cyclic\n",
        order, procs, hetscal_context_layout(ctx) == HETSCAL_LAYOUT_PATTERN ? "pattern" : "grid",
        rows, cols, hetscal_context_tile(ctx), balance, speedup);
  }

  Matrix a, b;
  double unused = 0.0, error = 0.0, worst = 0.0;
  matrix_init(&a, ctx, order, order);
  matrix_init(&b, ctx, order, kNrhs);
  for_each_local(&a, fill_a, &unused);
  for_each_local(&b, fill_b, &unused);
  int info = 0;
  int call = hetero_pdpotrf("L", order, a.data, 1, 1, a.desc, &info);
  if (call == HETSCAL_SUCCESS && info == 0)
    call = hetero_pdpotrs("L", order, kNrhs, a.data, 1, 1, a.desc, b.data, 1, 1, b.desc, &info);
  if (call == HETSCAL_SUCCESS && info == 0)
    for_each_local(&b, error_of_x, &error);
  else
    error = INFINITY;
  MPI_Allreduce(&error, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  /* Forward error of a solve with cond(A) = 2: max |X - X_true| / (N · max|X| · eps). */
  const double residual = worst / (order * (order + kNrhs) * 2.220446049250313e-16);
  const int passed = residual < 10.0;
  if (me == 0)
    printf("status %d, INFO %d, error %.3g: %s\n", call, info, residual,
           passed ? "PASSED" : "FAILED");

  free(a.data);
  free(b.data);
  hetscal_context_free(&ctx);
  Cblacs_gridexit(context);
  MPI_Finalize();
  return passed ? 0 : 1;
}
