/* What the native C examples share: a BLACS grid of every process, the layout kind named on
 * the command line, matrices of a context filled and checked through the tile queries (which
 * serve Cartesian and pattern layouts alike), the plan's one-line description and the
 * closing verdict. */
#ifndef HETSCAL_NATIVE_EXAMPLE_H
#define HETSCAL_NATIVE_EXAMPLE_H

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

/* A BLACS grid of every process, as square as their count allows (rows <= columns). */
static int example_grid(int* me, int* procs) {
  int context = 0, nprow = 1;
  Cblacs_pinfo(me, procs);
  for (int r = 1; r * r <= *procs; ++r) nprow = *procs % r == 0 ? r : nprow;
  Cblacs_get(0, 0, &context);
  Cblacs_gridinit(&context, "Row", nprow, *procs / nprow);
  return context;
}

/* The #hetscal_layout named "cartesian" or "pattern"; anything else is "any". */
static int example_layout(const char* kind) {
  return strcmp(kind, "cartesian") == 0 ? HETSCAL_LAYOUT_CARTESIAN
         : strcmp(kind, "pattern") == 0 ? HETSCAL_LAYOUT_PATTERN
                                        : HETSCAL_LAYOUT_ANY;
}

/* A context of `routine` for an M×N matrix with the configured or measured speeds (NULL);
 * the job stops when it cannot be planned. Process 0 prints the plan. */
static hetscal_context_t example_context(int blacs_context, int routine, int layout, int m, int n,
                                         const char* what) {
  int me = 0, procs = 1, rows = 0, cols = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &procs);
  hetscal_context_t ctx = HETSCAL_CONTEXT_NULL;
  const int status = hetscal_context_create(blacs_context, NULL, routine, layout, m, n, 0, &ctx);
  if (status != HETSCAL_SUCCESS) {
    if (me == 0) fprintf(stderr, "hetscal_context_create failed: %d\n", status);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  double seconds = 0.0, balance = 0.0, speedup = 0.0;
  hetscal_context_grid(ctx, &rows, &cols, NULL, NULL);
  hetscal_context_prediction(ctx, &seconds, &balance, &speedup);
  if (me == 0)
    printf(
        "%s %dx%d on %d processes: %s %dx%d, tile %d, predicted balance %.3f, "
        "speed-up %.2f over 2D block-cyclic\n",
        what, m, n, procs,
        hetscal_context_layout(ctx) == HETSCAL_LAYOUT_PATTERN ? "pattern" : "grid", rows, cols,
        hetscal_context_tile(ctx), balance, speedup);
  return ctx;
}

/* MPI, the grid of every process, N (the first argument, else 300) and a context of
 * `routine` for an N×N matrix, of the layout kind the second argument names ("any" when
 * absent). */
static hetscal_context_t example_start(int* argc, char*** argv, int routine, const char* what,
                                       int* blacs_context, int* n) {
  MPI_Init(argc, argv);
  int me = 0, procs = 1;
  *blacs_context = example_grid(&me, &procs);
  *n = *argc > 1 ? atoi((*argv)[1]) : 300;
  const int layout = example_layout(*argc > 2 ? (*argv)[2] : "any");
  return example_context(*blacs_context, routine, layout, *n, *n, what);
}

/* One matrix of the context: descriptor and local array. */
typedef struct {
  int desc[HETSCAL_DESC_LEN];
  double* data;
} Matrix;

static void matrix_init(Matrix* x, hetscal_context_t ctx, int rows, int cols) {
  int info = 0;
  const int lld = hetscal_local_rows(ctx, rows); /* -1 on a pattern: LLD is then unused */
  hetscal_descinit(x->desc, rows, cols, ctx, lld > 1 ? lld : 1, &info);
  const long long elements = hetscal_local_elements(x->desc);
  x->data = calloc((size_t)(elements > 1 ? elements : 1), sizeof(double));
}

/* Calls visit(element, i, j, state) for every element (i, j) (1-based, global) held here. */
static void matrix_visit(Matrix* x, void (*visit)(double*, int, int, void*), void* state) {
  const int rows = x->desc[2], cols = x->desc[3], tile = x->desc[4];
  for (int tj = 1; (tj - 1) * tile < cols; ++tj)
    for (int ti = 1; (ti - 1) * tile < rows; ++ti) {
      long long index = 0;
      int ld = 0;
      if (hetscal_local_tile(x->desc, ti, tj, &index, &ld) != 1) continue;
      for (int c = 0; c < tile && (tj - 1) * tile + c < cols; ++c)
        for (int r = 0; r < tile && (ti - 1) * tile + r < rows; ++r)
          visit(&x->data[index - 1 + r + (long long)c * ld], (ti - 1) * tile + r + 1,
                (tj - 1) * tile + c + 1, state);
    }
}

typedef double (*ElementFormula)(int i, int j);

static void set_element(double* element, int i, int j, void* formula) {
  *element = (*(ElementFormula*)formula)(i, j);
}

/* Sets every element (i, j) held here to value(i, j). */
static void matrix_fill(Matrix* x, ElementFormula value) { matrix_visit(x, set_element, &value); }

typedef struct {
  ElementFormula value;
  double error;
} ErrorState;

static void compare_element(double* element, int i, int j, void* state) {
  ErrorState* e = state;
  const double d = fabs(*element - e->value(i, j));
  e->error = isnan(d) ? INFINITY : (d > e->error ? d : e->error); /* MPI_MAX may drop NaN */
}

/* max |x(i, j) - value(i, j)| over every process; infinity when an element is NaN. */
static double matrix_error(Matrix* x, ElementFormula value) {
  ErrorState state = {value, 0.0};
  double worst = 0.0;
  matrix_visit(x, compare_element, &state);
  MPI_Allreduce(&state.error, &worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}

/* The N×N A and N×NRHS B of a solve in the context's layout, filled from their formulas. */
static void example_system(hetscal_context_t ctx, int n, int nrhs, ElementFormula a_value,
                           ElementFormula b_value, Matrix* a, Matrix* b) {
  matrix_init(a, ctx, n, n);
  matrix_init(b, ctx, n, nrhs);
  matrix_fill(a, a_value);
  matrix_fill(b, b_value);
}

/* The verdict on a solve's forward error `worst` (N×NRHS, cond(A) = 2): scaled as
 * max |X - X_true| / (N · (N + NRHS) · eps), passed below 10; process 0 prints it.
 * @return 1 when passed. */
static int example_verdict(int call, int info, double worst, int n, int nrhs) {
  int me = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const double error = call == HETSCAL_SUCCESS && info == 0
                           ? worst / ((double)n * (n + nrhs) * 2.220446049250313e-16)
                           : INFINITY;
  const int passed = error < 10.0;
  if (me == 0)
    printf("status %d, INFO %d, error %.3g: %s\n", call, info, error, passed ? "PASSED" : "FAILED");
  return passed;
}

#endif /* HETSCAL_NATIVE_EXAMPLE_H */
