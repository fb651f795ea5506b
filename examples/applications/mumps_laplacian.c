/* A MUMPS program of the kind hetscal meets in the field: it knows nothing of hetscal.
 *
 * It solves A x = b for a 3D Laplacian on a k x k x k grid (7-point stencil) with MUMPS,
 * ordered by AMD (ICNTL(7) = 0) and with the root front left to ScaLAPACK (ICNTL(13) = 0,
 * MUMPS's default), once for each symmetry MUMPS offers that fits the precision:
 *   SYM = 0  unsymmetric (a convection term in x)        root: PxGETRF
 *   SYM = 1  symmetric positive definite (real only)     root: PxPOTRF
 *   SYM = 2  symmetric indefinite (shifted between the   root: PxGETRF
 *            two smallest eigenvalues of the Laplacian)
 * and checks each solution against the known x it made b from:
 *   scaled residual ||b - A x||_inf / (||A||_inf ||x||_inf n eps) below 1, and
 *   forward error ||x - x_true||_inf / ||x_true||_inf below 1e4 eps (the matrices are well
 *   conditioned: at most a few hundred).
 * Preloading libhetscal.so makes hetscal compute the root's factorization; the results must
 * pass the same checks.
 *
 * One source for the three precisions, compiled with MUMPS_PRECISION_S, _D or _Z.
 * usage: mpirun -np P mumps_laplacian_<s|d|z> [k]     (k = 12 by default: n = 1728)
 * Exit status 0 when every solve passes; one line per solve on rank 0. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#if defined(MUMPS_PRECISION_S)
#include <smumps_c.h>
typedef float scalar;
typedef SMUMPS_STRUC_C solver_state;
#define call_mumps smumps_c
#define MUMPS_SCALAR SMUMPS_COMPLEX
#define EPSILON FLT_EPSILON
#define PRECISION "S"
#define IS_COMPLEX 0
#elif defined(MUMPS_PRECISION_D)
#include <dmumps_c.h>
typedef double scalar;
typedef DMUMPS_STRUC_C solver_state;
#define call_mumps dmumps_c
#define MUMPS_SCALAR DMUMPS_COMPLEX
#define EPSILON DBL_EPSILON
#define PRECISION "D"
#define IS_COMPLEX 0
#elif defined(MUMPS_PRECISION_Z)
#include <zmumps_c.h>
typedef double complex scalar;  /* laid out as ZMUMPS_COMPLEX {r, i} */
typedef ZMUMPS_STRUC_C solver_state;
#define call_mumps zmumps_c
#define MUMPS_SCALAR ZMUMPS_COMPLEX
#define EPSILON DBL_EPSILON
#define PRECISION "Z"
#define IS_COMPLEX 1
#else
#error "compile with -DMUMPS_PRECISION_S, -DMUMPS_PRECISION_D or -DMUMPS_PRECISION_Z"
#endif

#define ICNTL(i) icntl[(i)-1]
#define INFOG(i) infog[(i)-1]

/* The matrix in coordinate form (1-based, as MUMPS takes it). */
typedef struct {
  MUMPS_INT n;
  MUMPS_INT8 nnz;
  MUMPS_INT *row;
  MUMPS_INT *col;
  scalar *value;
} coordinate_matrix;

/* Zeroed memory (calloc) that stops the program, with a message, when memory runs out. */
static void *allocate(size_t count, size_t size) {
  void *memory = calloc(count, size);
  if (!memory) {
    fprintf(stderr, "mumps_laplacian: out of memory (%zu bytes)\n", count * size);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return memory;
}

/* |v| for the precision's scalar type. */
static double magnitude(scalar v) {
#if IS_COMPLEX
  return cabs(v);
#else
  return fabs(v);
#endif
}

/* The eigenvalue of the 1D second difference on k points for mode j (1 <= j <= k). */
static double mode_eigenvalue(int k, int j) { return 2.0 - 2.0 * cos(M_PI * j / (k + 1)); }

/* The 7-point Laplacian on a k^3 grid for symmetry sym: both triangles for SYM = 0, the lower
 * one for SYM = 1 and 2 (MUMPS reads one triangle of a symmetric matrix). */
static coordinate_matrix laplacian(int k, int sym) {
  coordinate_matrix a;
  a.n = k * k * k;
  a.nnz = 0;
  a.row = allocate(7 * (size_t)a.n, sizeof *a.row);
  a.col = allocate(7 * (size_t)a.n, sizeof *a.col);
  a.value = allocate(7 * (size_t)a.n, sizeof *a.value);
  /* SYM = 2: shifted halfway between the two smallest eigenvalues, so indefinite with a
   * distance to singularity of half that gap. */
  double shift = 0.0;
  if (sym == 2) {
    double smallest = 3 * mode_eigenvalue(k, 1);
    double second = 2 * mode_eigenvalue(k, 1) + mode_eigenvalue(k, 2);
    shift = (smallest + second) / 2;
  }
  scalar diagonal = 6.0 - shift;
  scalar west = -1.0, east = -1.0, other = -1.0;
  if (sym == 0) {  /* convection in x: unsymmetric */
    west = -1.2;
    east = -0.8;
  }
#if IS_COMPLEX
  diagonal += 1.0 * I;
  other += 0.1 * I;
#endif
  for (int z = 0; z < k; ++z)
    for (int y = 0; y < k; ++y)
      for (int x = 0; x < k; ++x) {
        int i = x + k * (y + k * z);
        const struct { int ok, j; scalar v; } neighbours[7] = {
            {1, i, diagonal},           {x > 0, i - 1, west},      {x < k - 1, i + 1, east},
            {y > 0, i - k, other},      {y < k - 1, i + k, other}, {z > 0, i - k * k, other},
            {z < k - 1, i + k * k, other}};
        for (int e = 0; e < 7; ++e) {
          if (!neighbours[e].ok || (sym != 0 && neighbours[e].j > i)) continue;
          a.row[a.nnz] = i + 1;
          a.col[a.nnz] = neighbours[e].j + 1;
          a.value[a.nnz] = neighbours[e].v;
          ++a.nnz;
        }
      }
  return a;
}

/* y = A x, the stored triangle mirrored when sym != 0. */
static void multiply(const coordinate_matrix *a, int sym, const scalar *x, scalar *y) {
  for (MUMPS_INT i = 0; i < a->n; ++i) y[i] = 0;
  for (MUMPS_INT8 e = 0; e < a->nnz; ++e) {
    MUMPS_INT i = a->row[e] - 1, j = a->col[e] - 1;
    y[i] += a->value[e] * x[j];
    if (sym != 0 && i != j) y[j] += a->value[e] * x[i];
  }
}

/* ||A||_inf (row sums of absolute values, mirrored triangle included). */
static double infinity_norm_of_matrix(const coordinate_matrix *a, int sym) {
  double *row_sum = allocate((size_t)a->n, sizeof *row_sum), norm = 0;
  for (MUMPS_INT8 e = 0; e < a->nnz; ++e) {
    MUMPS_INT i = a->row[e] - 1, j = a->col[e] - 1;
    row_sum[i] += magnitude(a->value[e]);
    if (sym != 0 && i != j) row_sum[j] += magnitude(a->value[e]);
  }
  for (MUMPS_INT i = 0; i < a->n; ++i) norm = fmax(norm, row_sum[i]);
  free(row_sum);
  return norm;
}

static double infinity_norm(const scalar *v, MUMPS_INT n) {
  double norm = 0;
  for (MUMPS_INT i = 0; i < n; ++i) norm = fmax(norm, magnitude(v[i]));
  return norm;
}

/* Solves one system with MUMPS (analysis, factorization, solve: JOB = 6), the matrix and
 * right-hand side centralized on rank 0. Returns 1 when the checks pass (on rank 0; every
 * rank returns rank 0's verdict). */
static int solve_and_check(int k, int sym, int rank) {
  coordinate_matrix a = {0};
  scalar *solution = NULL, *known = NULL, *rhs = NULL;
  solver_state id = {0};
  id.comm_fortran = (MUMPS_INT)MPI_Comm_c2f(MPI_COMM_WORLD);
  id.par = 1;  /* the host works too */
  id.sym = sym;
  id.job = -1;
  call_mumps(&id);
  id.ICNTL(1) = 6;  /* errors on stdout; no diagnostics, statistics or warnings */
  id.ICNTL(2) = 0;
  id.ICNTL(3) = 0;
  id.ICNTL(4) = 1;
  id.ICNTL(7) = 0;   /* AMD ordering */
  id.ICNTL(13) = 0;  /* root front by ScaLAPACK */
  if (rank == 0) {
    a = laplacian(k, sym);
    known = allocate((size_t)a.n, sizeof *known);
    rhs = allocate((size_t)a.n, sizeof *rhs);
    solution = allocate((size_t)a.n, sizeof *solution);
    for (MUMPS_INT i = 0; i < a.n; ++i) {
      known[i] = 1.0 + (i % 7) / 7.0;
#if IS_COMPLEX
      known[i] += (i % 5) / 5.0 * I;
#endif
    }
    multiply(&a, sym, known, rhs);
    for (MUMPS_INT i = 0; i < a.n; ++i) solution[i] = rhs[i];
    id.n = a.n;
    id.nnz = a.nnz;
    id.irn = a.row;
    id.jcn = a.col;
    id.a = (MUMPS_SCALAR *)a.value;
    id.rhs = (MUMPS_SCALAR *)solution;  /* overwritten by x */
  }
  id.job = 6;
  call_mumps(&id);
  int passed = 0;
  if (rank == 0) {
    if (id.INFOG(1) < 0) {
      printf("mumps_laplacian: %s SYM=%d n=%d: MUMPS failed, INFOG(1) = %d, INFOG(2) = %d: FAILED\n",
             PRECISION, sym, (int)a.n, (int)id.INFOG(1), (int)id.INFOG(2));
    } else {
      scalar *residual = allocate((size_t)a.n, sizeof *residual);
      double known_norm = infinity_norm(known, a.n);
      multiply(&a, sym, solution, residual);
      for (MUMPS_INT i = 0; i < a.n; ++i) {
        residual[i] = rhs[i] - residual[i];
        known[i] -= solution[i];
      }
      double scaled_residual = infinity_norm(residual, a.n) /
          (infinity_norm_of_matrix(&a, sym) * infinity_norm(solution, a.n) * a.n * EPSILON);
      double forward_error = infinity_norm(known, a.n) / known_norm;
      passed = scaled_residual < 1.0 && forward_error < 1e4 * EPSILON;
      printf("mumps_laplacian: %s SYM=%d n=%d: scaled residual %.2e, forward error %.2e: %s\n",
             PRECISION, sym, (int)a.n, scaled_residual, forward_error, passed ? "PASSED" : "FAILED");
      free(residual);
    }
    free(a.row);
    free(a.col);
    free(a.value);
    free(known);
    free(rhs);
    free(solution);
  }
  id.job = -2;
  call_mumps(&id);
  MPI_Bcast(&passed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return passed;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int k = argc > 1 ? atoi(argv[1]) : 12;
  if (k < 2 || k > 100) {
    if (rank == 0) fprintf(stderr, "mumps_laplacian: k must be 2 to 100, not '%s'\n", argv[1]);
    MPI_Finalize();
    return 2;
  }
  const int symmetries[] = {0, IS_COMPLEX ? 2 : 1, 2};
  int count = IS_COMPLEX ? 2 : 3, failed = 0;
  for (int s = 0; s < count; ++s) failed += !solve_and_check(k, symmetries[s], rank);
  if (rank == 0) printf("mumps_laplacian: %s\n", failed ? "SOME SOLVES FAILED" : "ALL SOLVES PASSED");
  MPI_Finalize();
  return failed ? 1 : 0;
}
