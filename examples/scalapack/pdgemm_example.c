/* An ordinary ScaLAPACK program in C (it knows nothing of hetscal): C = A*B with PDGEMM on a
 * BLACS grid, matrices from a formula whose exact product is known, so the result is checked.
 *
 * Usage: pdgemm_example_c [N [NB [NPROW NPCOL]]]   (defaults: 1000, 64, the squarest grid)
 * Prints time, GFLOP/s and the residual ||C - C_exact||_max / (||A||_F ||B||_F N eps); exits
 * with status 1 when the residual exceeds 16 (ScaLAPACK testers' threshold).
 * Same matrices as pdgemm_example.f90 (global indices from 1):
 *   A(i,j) = sin(i) cos(j) + 1/(i (j+1)),  B(i,j) = cos(i/2) sin(3j/10) + 1/j. */
#include <float.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* ScaLAPACK and BLACS ship no C header: their Fortran and C entry points. */
void Cblacs_get(int context, int what, int* value);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
void Cblacs_exit(int keep_mpi);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrc, const int* nprocs);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb,
               const int* irsrc, const int* icsrc, const int* ictxt, const int* lld, int* info);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k,
             const double* alpha, const double* a, const int* ia, const int* ja, const int* desca,
             const double* b, const int* ib, const int* jb, const int* descb, const double* beta,
             double* c, const int* ic, const int* jc, const int* descc);
double pdlange_(const char* norm, const int* m, const int* n, const double* a, const int* ia,
                const int* ja, const int* desca, double* work);

static const double kThreshold = 16.0;

static double a_value(int i, int j) { return sin(i) * cos(j) + 1.0 / ((double)i * (j + 1)); }
static double b_value(int i, int j) { return cos(0.5 * i) * sin(0.3 * j) + 1.0 / j; }

/* Global 1-based index of local 0-based index `local` in a block-cyclic dimension. */
static int global_index(int local, int nb, int iproc, int nprocs) {
  return (local / nb * nprocs + iproc) * nb + local % nb + 1;
}

/* A and B are rank 2, so C(i,j) = sum_pq a_p(i) S_pq d_q(j), S_pq = sum_k b_p(k) c_q(k). */
typedef struct { double s[2][2]; } ExactProduct;

static ExactProduct exact_product(int n) {
  ExactProduct e = {{{0.0, 0.0}, {0.0, 0.0}}};
  for (int k = 1; k <= n; ++k) {
    e.s[0][0] += cos(k) * cos(0.5 * k);
    e.s[0][1] += cos(k);
    e.s[1][0] += cos(0.5 * k) / (k + 1);
    e.s[1][1] += 1.0 / (k + 1);
  }
  return e;
}

static double exact_value(const ExactProduct* e, int i, int j) {
  const double row[2] = {sin(i), 1.0 / i}, col[2] = {sin(0.3 * j), 1.0 / j};
  double sum = 0.0;
  for (int p = 0; p < 2; ++p)
    for (int q = 0; q < 2; ++q) sum += row[p] * e->s[p][q] * col[q];
  return sum;
}

static int int_argument(int argc, char** argv, int position, int fallback) {
  return argc > position ? atoi(argv[position]) : fallback;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nprocs = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int nprow = (int)sqrt((double)nprocs);
  while (nprocs % nprow != 0) --nprow;
  const int n = int_argument(argc, argv, 1, 1000), nb = int_argument(argc, argv, 2, 64);
  nprow = int_argument(argc, argv, 3, nprow);
  int npcol = int_argument(argc, argv, 4, nprocs / nprow);
  if (n < 1 || nb < 1 || nprow < 1 || npcol < 1 || nprow * npcol > nprocs) {
    if (rank == 0) fprintf(stderr, "usage: pdgemm_example_c [N [NB [NPROW NPCOL]]], NPROW*NPCOL <= ranks\n");
    MPI_Finalize();
    return 2;
  }

  int ctxt = 0, myrow = -1, mycol = -1, info = 0, zero = 0, one = 1;
  Cblacs_get(-1, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "Row", nprow, npcol);
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
  double residual = 0.0, seconds = 0.0;
  if (myrow >= 0) {  /* ranks beyond nprow*npcol take no part */
    const int mloc = numroc_(&n, &nb, &myrow, &zero, &nprow);
    const int nloc = numroc_(&n, &nb, &mycol, &zero, &npcol);
    const int lld = mloc > 1 ? mloc : 1;
    int desc[9];
    descinit_(desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
    const size_t elements = (size_t)lld * (size_t)(nloc > 1 ? nloc : 1);
    double* a = malloc(elements * sizeof(double));
    double* b = malloc(elements * sizeof(double));
    double* c = calloc(elements, sizeof(double));
    for (int jl = 0; jl < nloc; ++jl) {
      const int j = global_index(jl, nb, mycol, npcol);
      for (int il = 0; il < mloc; ++il) {
        const int i = global_index(il, nb, myrow, nprow);
        a[il + (size_t)jl * lld] = a_value(i, j);
        b[il + (size_t)jl * lld] = b_value(i, j);
      }
    }

    const double alpha = 1.0, beta = 0.0;
    MPI_Comm grid_comm;
    MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &grid_comm);
    MPI_Barrier(grid_comm);
    const double start = MPI_Wtime();
    pdgemm_("N", "N", &n, &n, &n, &alpha, a, &one, &one, desc, b, &one, &one, desc, &beta, c,
            &one, &one, desc);
    MPI_Barrier(grid_comm);
    seconds = MPI_Wtime() - start;
    MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, grid_comm);

    const ExactProduct e = exact_product(n);
    double err = 0.0;
    for (int jl = 0; jl < nloc; ++jl)
      for (int il = 0; il < mloc; ++il) {
        const double d = fabs(c[il + (size_t)jl * lld] -
                              exact_value(&e, global_index(il, nb, myrow, nprow),
                                          global_index(jl, nb, mycol, npcol)));
        err = (d > err || isnan(d)) ? d : err;
      }
    MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_DOUBLE, MPI_MAX, grid_comm);
    const double anorm = pdlange_("F", &n, &n, a, &one, &one, desc, NULL);
    const double bnorm = pdlange_("F", &n, &n, b, &one, &one, desc, NULL);
    residual = err / (anorm * bnorm * n * DBL_EPSILON);
    MPI_Comm_free(&grid_comm);
    free(a);
    free(b);
    free(c);
    Cblacs_gridexit(ctxt);
  } else {
    MPI_Comm unused;
    MPI_Comm_split(MPI_COMM_WORLD, MPI_UNDEFINED, rank, &unused);
  }

  const int passed = residual <= kThreshold;
  if (rank == 0) {
    printf("pdgemm_example (C): N=%d NB=%d grid %dx%d\n", n, nb, nprow, npcol);
    printf("time_s    %12.4f\n", seconds);
    printf("gflops    %12.3f\n", 2.0 * n * (double)n * n / seconds / 1e9);
    printf("residual  %12.3e %s\n", residual, passed ? "PASSED" : "FAILED");
  }
  Cblacs_exit(1);
  MPI_Finalize();
  return passed ? 0 : 1;
}
