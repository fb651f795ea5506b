/* New code on hetscal's native API: the least-squares problem min ‖A·X − B‖ of a 2N×N A,
 * solved by QR in a context planned for it (a heterogeneous Cartesian grid or a pattern,
 * whichever the time model predicts faster unless asked): hetero_pdgeqrf and
 * hetero_pdormqr (Qᵀ·B) in place in the context's layout, then R and the first N rows of
 * Qᵀ·B gathered into ScaLAPACK block-cyclic matrices (hetscal_gather) for ScaLAPACK's PDTRSM,
 * R·X = (Qᵀ·B)(1:N). The solution and the residual's norm are checked against their closed
 * forms.
 *
 *   mpirun -np 4 -x HETSCAL_SPEEDS=1,3,2,1 hetero_qr_c [N [any|cartesian|pattern]]
 *
 * Speeds: those configured for the shim (HETSCAL_SPEEDS or HETSCAL_SPEEDS_FILE), else each
 * process measures its own. The exit status is 0 when the checks pass on every process. */
#include "native_example.h"

void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrc, const int* nprocs);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb,
               const int* irsrc, const int* icsrc, const int* ictxt, const int* lld, int* info);
void pdtrsm_(const char* side, const char* uplo, const char* transa, const char* diag, const int* m,
             const int* n, const double* alpha, const double* a, const int* ia, const int* ja,
             const int* desca, double* b, const int* ib, const int* jb, const int* descb);

enum { kNrhs = 2, kBlock = 16 };

/* A = [N·I + ones; N·I] (cond(A)² = 5/2), X(i,j) = i + j and B = A·X + Z with Z orthogonal
 * to A's columns: Z = [N·u; −(N·I + ones)·u], u(i) = (−1)^i, so X is the least-squares
 * solution and ‖B − A·X‖ = ‖Z‖. With s = Σ u(l) (0 for even N, −1 for odd):
 * B(i,j) = N(i+j) + N(N+1)/2 + N·j + N·u(i) for i <= N, N(i'+j) − N·u(i') − s for i = N+i'. */
static int order;
static double sign(int i) { return i % 2 == 0 ? 1.0 : -1.0; }
static double sum_u(void) { return order % 2 == 0 ? 0.0 : -1.0; }
static double a_element(int i, int j) {
  return i <= order ? (i == j ? order : 0.0) + 1.0 : (i - order == j ? order : 0.0);
}
static double x_element(int i, int j) { return i + j; }
static double b_element(int i, int j) {
  if (i <= order)
    return (double)order * (i + j) + order * (order + 1.0) / 2.0 + (double)order * j +
           order * sign(i);
  const int k = i - order;
  return (double)order * (k + j) - order * sign(k) - sum_u();
}
/* ‖Z‖² over one column: Σ (N·u(i))² + (N·u(i) + s)². */
static double residual_norm_squared(void) {
  double sum = 0.0;
  for (int i = 1; i <= order; ++i) {
    const double lower = order * sign(i) + sum_u();
    sum += (double)order * order + lower * lower;
  }
  return sum;
}

/* A rows×cols block-cyclic ScaLAPACK matrix (blocks kBlock, from process (0, 0)). */
typedef struct {
  int desc[9];
  double* data;
  int local_rows, local_cols;
} BlockCyclic;

static void block_cyclic_init(BlockCyclic* x, int blacs_context, int rows, int cols) {
  int nprow = 0, npcol = 0, myrow = 0, mycol = 0, info = 0;
  const int zero = 0, block = kBlock;
  Cblacs_gridinfo(blacs_context, &nprow, &npcol, &myrow, &mycol);
  x->local_rows = numroc_(&rows, &block, &myrow, &zero, &nprow);
  x->local_cols = numroc_(&cols, &block, &mycol, &zero, &npcol);
  const int lld = x->local_rows > 1 ? x->local_rows : 1;
  descinit_(x->desc, &rows, &cols, &block, &block, &zero, &zero, &blacs_context, &lld, &info);
  x->data = calloc((size_t)lld * (size_t)(x->local_cols > 1 ? x->local_cols : 1), sizeof(double));
}

/* max |X(i,j) − (i+j)| over the first N rows of the ScaLAPACK B, and ‖B(N+1:2N, j)‖² summed
 * over j, over every process. */
static void check_solution(const BlockCyclic* b, int blacs_context, double* worst,
                           double* residual_squared) {
  int nprow = 0, npcol = 0, myrow = 0, mycol = 0;
  Cblacs_gridinfo(blacs_context, &nprow, &npcol, &myrow, &mycol);
  double mine[2] = {0.0, 0.0}, all[2] = {0.0, 0.0};
  for (int jl = 0; jl < b->local_cols; ++jl)
    for (int il = 0; il < b->local_rows; ++il) {
      const int i = (il / kBlock * nprow + myrow) * kBlock + il % kBlock + 1;
      const int j = (jl / kBlock * npcol + mycol) * kBlock + jl % kBlock + 1;
      const double value = b->data[il + (size_t)jl * (size_t)b->desc[8]];
      if (i <= order) {
        const double d = fabs(value - x_element(i, j));
        mine[0] = isnan(d) ? INFINITY : (d > mine[0] ? d : mine[0]);
      } else {
        mine[1] += value * value;
      }
    }
  MPI_Allreduce(&mine[0], &all[0], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&mine[1], &all[1], 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  *worst = all[0];
  *residual_squared = all[1];
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, procs = 1;
  const int context = example_grid(&me, &procs);
  order = argc > 1 ? atoi(argv[1]) : 200;
  const int rows = 2 * order;
  const int layout = example_layout(argc > 2 ? argv[2] : "any");
  hetscal_context_t ctx =
      example_context(context, HETSCAL_ROUTINE_GEQRF, layout, rows, order, "QR");
  Matrix a, b;
  matrix_init(&a, ctx, rows, order);
  matrix_init(&b, ctx, rows, kNrhs);
  matrix_fill(&a, a_element);
  matrix_fill(&b, b_element);
  double* tau = calloc((size_t)order, sizeof(double));
  int info = 0;
  int call = hetero_pdgeqrf(rows, order, a.data, 1, 1, a.desc, tau, &info);
  if (call == HETSCAL_SUCCESS && info == 0)
    call = hetero_pdormqr("L", "T", rows, kNrhs, order, a.data, 1, 1, a.desc, tau, b.data, 1, 1,
                          b.desc, &info);
  BlockCyclic r, qtb; /* R and Qᵀ·B moved back into ScaLAPACK's layout */
  block_cyclic_init(&r, context, rows, order);
  block_cyclic_init(&qtb, context, rows, kNrhs);
  if (call == HETSCAL_SUCCESS && info == 0)
    hetscal_gather(rows, order, r.data, 1, 1, r.desc, a.data, a.desc, &info);
  if (call == HETSCAL_SUCCESS && info == 0)
    hetscal_gather(rows, kNrhs, qtb.data, 1, 1, qtb.desc, b.data, b.desc, &info);
  const int one = 1, nrhs = kNrhs;
  const double alpha = 1.0;
  if (call == HETSCAL_SUCCESS && info == 0) /* R·X = (Qᵀ·B)(1:N) */
    pdtrsm_("L", "U", "N", "N", &order, &nrhs, &alpha, r.data, &one, &one, r.desc, qtb.data, &one,
            &one, qtb.desc);
  double worst = 0.0, residual_squared = 0.0;
  check_solution(&qtb, context, &worst, &residual_squared);
  const double expected = kNrhs * residual_norm_squared();
  const int residual_ok = fabs(residual_squared - expected) <= 1e-10 * expected;
  const int solved = example_verdict(call, info, worst, order, kNrhs);
  if (me == 0)
    printf("least-squares residual %.6g, expected %.6g: %s\n", sqrt(residual_squared),
           sqrt(expected), residual_ok ? "PASSED" : "FAILED");

  free(tau);
  free(a.data);
  free(b.data);
  free(r.data);
  free(qtb.data);
  hetscal_context_free(&ctx);
  Cblacs_gridexit(context);
  MPI_Finalize();
  return solved && residual_ok ? 0 : 1;
}
