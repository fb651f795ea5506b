/* New code on hetscal's native API: plan a context for given speeds, keep A, B and C in
 * hetscal's heterogeneous layout, call hetero_pdgemm several times, check the residual.
 *
 *   mpirun -np 4 hetero_gemm_c [M N K [speed,speed,...]]
 *
 * Speeds: one per process (default 1, 2, ..., P). The exit status is 0 when the residual
 * check passes on every process. */
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

/* A(i,l) = i + l and B(l,j) = l - j (1-based): A·B has the closed form below, exact in
 * double for these sizes. */
static double a_element(int i, int l) { return i + l; }
static double b_element(int l, int j) { return l - j; }
static double product_element(int i, int j, int k) {
  const double s1 = k * (k + 1.0) / 2.0, s2 = k * (k + 1.0) * (2.0 * k + 1.0) / 6.0;
  return i * s1 - (double)i * j * k + s2 - j * s1;
}

/* One matrix of the context: descriptor and local array filled by element(global i, j). */
typedef struct {
  int rows, cols, local_rows, local_cols;
  int desc[HETSCAL_DESC_LEN];
  double* data;
} Matrix;

static int matrix_init(Matrix* x, hetscal_context_t ctx, int rows, int cols,
                       double (*element)(int, int)) {
  int info = 0;
  x->rows = rows;
  x->cols = cols;
  x->local_rows = hetscal_local_rows(ctx, rows);
  x->local_cols = hetscal_local_cols(ctx, cols);
  const int lld = x->local_rows > 1 ? x->local_rows : 1;
  hetscal_descinit(x->desc, rows, cols, ctx, lld, &info);
  x->data = calloc((size_t)lld * (x->local_cols > 1 ? x->local_cols : 1), sizeof(double));
  for (int jl = 1; jl <= x->local_cols; ++jl) {
    for (int il = 1; il <= x->local_rows; ++il) {
      const int i = hetscal_global_row(ctx, rows, il), j = hetscal_global_col(ctx, cols, jl);
      x->data[(size_t)(jl - 1) * lld + (il - 1)] = element ? element(i, j) : NAN;
    }
  }
  return info;
}

static int parse_speeds(const char* text, double* speeds, int count) {
  char* end = NULL;
  for (int r = 0; r < count; ++r) {
    speeds[r] = strtod(text, &end);
    if (end == text || !(speeds[r] > 0.0)) return 0;
    text = *end == ',' ? end + 1 : end;
  }
  return *end == '\0';
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int me = 0, procs = 1, context = 0, nprow = 1;
  Cblacs_pinfo(&me, &procs);
  for (int r = 1; r * r <= procs; ++r) nprow = procs % r == 0 ? r : nprow;
  Cblacs_get(0, 0, &context);
  Cblacs_gridinit(&context, "Row", nprow, procs / nprow);

  const int m = argc > 3 ? atoi(argv[1]) : 300, n = argc > 3 ? atoi(argv[2]) : 200;
  const int k = argc > 3 ? atoi(argv[3]) : 150;
  double* speeds = malloc(sizeof(double) * procs);
  for (int r = 0; r < procs; ++r) speeds[r] = 1.0 + r;
  if (argc > 4 && !parse_speeds(argv[4], speeds, procs)) {
    if (me == 0) fprintf(stderr, "need %d speeds > 0, comma-separated: %s\n", procs, argv[4]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }

  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  const int status = hetscal_gemm_context_create(context, speeds, m, n, k, &ctx);
  if (status != HETSCAL_SUCCESS) {
    if (me == 0) fprintf(stderr, "hetscal_gemm_context_create failed: %d\n", status);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int grid_rows = 0, grid_cols = 0, myrow = 0, mycol = 0;
  double seconds = 0.0, balance = 0.0, speedup = 0.0;
  hetscal_context_grid(ctx, &grid_rows, &grid_cols, &myrow, &mycol);
  hetscal_context_prediction(ctx, &seconds, &balance, &speedup);
  if (me == 0) {
    printf(
        "%dx%dx%d on %d processes: grid %dx%d, tile %d, predicted balance %.3f, "
        "speed-up %.2f over an even split\n",
        m, n, k, procs, grid_rows, grid_cols, hetscal_context_tile(ctx), balance, speedup);
  }

  Matrix a, b, c;
  int info = matrix_init(&a, ctx, m, k, a_element) | matrix_init(&b, ctx, k, n, b_element) |
             matrix_init(&c, ctx, m, n, NULL); /* C starts as NaN: beta = 0 never reads it */
  /* C = A·B; C = 2·A·B - C (= A·B); C = 3·C - A·B (= 2·A·B). */
  const double alphas[3] = {1.0, 2.0, -1.0}, betas[3] = {0.0, -1.0, 3.0};
  for (int call = 0; call < 3 && info == 0; ++call) {
    hetero_pdgemm("N", "N", m, n, k, alphas[call], a.data, 1, 1, a.desc, b.data, 1, 1, b.desc,
                  betas[call], c.data, 1, 1, c.desc, &info);
  }

  /* Normwise residual: max |C - 2·A·B| / (K · max|A| · max|B| · eps). */
  double error = info == 0 ? 0.0 : INFINITY, worst = 0.0;
  for (int jl = 1; jl <= c.local_cols; ++jl) {
    for (int il = 1; il <= c.local_rows; ++il) {
      const int i = hetscal_global_row(ctx, m, il), j = hetscal_global_col(ctx, n, jl);
      double d =
          fabs(c.data[(size_t)(jl - 1) * c.desc[8] + (il - 1)] - 2.0 * product_element(i, j, k));
      if (isnan(d)) d = INFINITY; /* MPI_MAX may drop NaN */
      error = d > error ? d : error;
    }
  }
  MPI_Allreduce(&error, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const double scale = (double)k * (m + k) * (k > n ? k : n) * 2.220446049250313e-16;
  const double residual = worst / scale;
  const int passed = residual < 10.0;
  if (me == 0) printf("INFO %d, residual %.3g: %s\n", info, residual, passed ? "PASSED" : "FAILED");

  free(a.data);
  free(b.data);
  free(c.data);
  free(speeds);
  hetscal_context_free(&ctx);
  Cblacs_gridexit(context);
  MPI_Finalize();
  return passed ? 0 : 1;
}
