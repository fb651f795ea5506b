/**
 * @file hetscal.h
 * @brief hetscal's public C interface.
 *
 * hetscal runs ScaLAPACK's PDGEMM, PDGETRF, PDGEQRF and PDPOTRF on a speed-aware
 * distribution for processors of different speeds. Unchanged ScaLAPACK programs need no
 * header at all (relink or LD_PRELOAD). This header is the native API for new code:
 *
 * 1. hetscal_context_create() plans, once, the layout of the matrices of one routine (GEMM,
 *    LU, QR or Cholesky) for the speeds of a BLACS grid's processes (HeteroPBLAS's
 *    hscal_pdgemm_ctxt role, for every routine): a heterogeneous Cartesian grid (grid
 *    arrangement, rows and columns per process, tile size) or an owner pattern (2DBC, G-2DBC,
 *    GCR&M, heterogeneous patterns), the one the time model predicts faster unless the caller
 *    asks for a kind. hetscal_gemm_context_create() is the GEMM, Cartesian case.
 * 2. hetscal_descinit() describes a matrix kept in that heterogeneous layout (DTYPE
 *    #HETSCAL_DTYPE, which ScaLAPACK never uses). On a Cartesian layout each process keeps one
 *    column-major local array, as ScaLAPACK does: hetscal_local_rows()/hetscal_local_cols()
 *    size it, hetscal_global_row()/hetscal_global_col() map local indices to global ones. On
 *    every layout, patterns included, hetscal_local_elements(), hetscal_tile_owner() and
 *    hetscal_local_tile() say which tile of the global matrix is where in the local array.
 *    hetscal_scatter()/hetscal_gather() move data from/to a ScaLAPACK block-cyclic matrix.
 * 3. hetero_pdgemm(), hetero_pdgetrf(), hetero_pdgetrs(), hetero_pdgeqrf(),
 *    hetero_pdormqr(), hetero_pdpotrf() and hetero_pdpotrs() compute, with ScaLAPACK's
 *    arguments, either on matrices already in the heterogeneous layout (no data movement) or
 *    on ScaLAPACK block-cyclic ones (moved in and out around the computation).
 *
 * Every routine comes in ScaLAPACK's four precisions, named as ScaLAPACK names them: S
 * (float), D (double), C (#hetscal_complex_float), Z (#hetscal_complex_double), e.g.
 * hetero_psgemm(), hetero_pcgemm(), hetero_pzgemm(); hetero_pcunmqr()/hetero_pzunmqr() are
 * the complex hetero_pdormqr(). Each family is documented once, on its D routine, with how
 * the other precisions differ. A context and a descriptor serve every precision (they count
 * elements, not bytes; hetscal_local_elements() is in elements of the matrix's type).
 *
 * All indices are 1-based and every matrix is column-major, as in ScaLAPACK. Every call
 * taking a context is collective over the processes of its BLACS grid. Argument errors follow
 * ScaLAPACK: INFO = -(position of the argument), or -(100·position + field) for a field of a
 * descriptor argument (fields numbered 1..9 as in a 9-entry descriptor, see
 * #HETSCAL_DESC_LEN); every process returns the same INFO and no data is changed.
 */
#ifndef HETSCAL_HETSCAL_H
#define HETSCAL_HETSCAL_H

/**
 * Complex elements, as ScaLAPACK's C and Z routines hold them: a real and an imaginary part
 * interleaved. C gets its native `float _Complex` / `double _Complex` and C++ its
 * `std::complex<float>` / `std::complex<double>`, so that either calls without casts; the
 * two have the same layout (C11 6.2.5, C++ [complex.numbers]), and every complex value
 * crosses the interface by pointer (ALPHA and BETA too, as ScaLAPACK's own interface passes
 * them), so only that layout matters, never how a compiler passes a complex by value.
 * Fortran's COMPLEX(C_FLOAT_COMPLEX) / COMPLEX(C_DOUBLE_COMPLEX) match (module hetscal).
 */
#ifdef __cplusplus
#include <complex>
typedef std::complex<float> hetscal_complex_float;
typedef std::complex<double> hetscal_complex_double;
extern "C" {
#else
typedef float _Complex hetscal_complex_float;
typedef double _Complex hetscal_complex_double;
#endif

/** Return codes of the functions returning int, and INFO > 0 of hetero_pdgemm(). */
typedef enum hetscal_status {
  HETSCAL_SUCCESS = 0,            /**< done */
  HETSCAL_ERR_ARGUMENT = 1,       /**< an argument is invalid (the message under
                                       HETSCAL_VERBOSE names it); nothing was changed */
  HETSCAL_ERR_SPEEDS = 2,         /**< a speed is not finite and > 0, or processes passed
                                       different speeds */
  HETSCAL_ERR_NO_PLAN = 3,        /**< no grid of these processes fits the matrix (fewer tiles
                                       than grid rows or columns), or no layout fits in the
                                       processes' memory */
  HETSCAL_ERR_CONTEXT = 4,        /**< not a live hetscal context, or this process is not in
                                       the BLACS grid */
  HETSCAL_ERR_UNSUPPORTED = 5,    /**< a valid call hetscal does not compute: a replicated
                                       ScaLAPACK operand (RSRC or CSRC = -1); call pdgemm_ */
  HETSCAL_ERR_INTERNAL = 6        /**< an MPI or memory failure; data may be partly moved */
} hetscal_status;

/** The routine a context is planned for (hetscal_context_create()). */
typedef enum hetscal_routine {
  HETSCAL_ROUTINE_GEMM = 1,   /**< C = op(A)·op(B): C is M×N, inner dimension K */
  HETSCAL_ROUTINE_GETRF = 2,  /**< LU of an M×N matrix (K unused) */
  HETSCAL_ROUTINE_GEQRF = 3,  /**< QR of an M×N matrix (K unused) */
  HETSCAL_ROUTINE_POTRF = 4   /**< Cholesky of an N×N matrix, M = N (K unused) */
} hetscal_routine;

/** The kind of layout a context takes (hetscal_context_create(), hetscal_context_layout()). */
typedef enum hetscal_layout {
  HETSCAL_LAYOUT_ANY = 0,        /**< whichever the time model predicts faster for the routine */
  HETSCAL_LAYOUT_CARTESIAN = 1,  /**< a heterogeneous Cartesian grid: each process keeps one
                                      column-major local array (leading dimension LLD) */
  HETSCAL_LAYOUT_PATTERN = 2     /**< an R×C owner pattern repeated over the tiles: each process
                                      keeps its tiles one after the other, each column-major
                                      with its own height as leading dimension, in the order
                                      of the tile columns, top to bottom in each */
} hetscal_layout;

/** A hetscal context handle (an int, so that it fits the CTXT field of a descriptor). */
typedef int hetscal_context_t;

/** The null handle, set by hetscal_context_free(). */
#define HETSCAL_CONTEXT_NULL (-1)

/** Entries of a hetscal descriptor: DTYPE, CTXT, M, N, MB, NB, RSRC, CSRC, LLD. */
#define HETSCAL_DESC_LEN 9

/**
 * DTYPE of a hetscal descriptor. ScaLAPACK's own types are 1 (dense block-cyclic), 2 (with
 * first-block sizes), 501, 502 (band) and 601 (out-of-core), so descriptors can be told apart.
 * CTXT then holds a hetscal context handle, MB = NB = the context's tile size, RSRC = CSRC = 0.
 */
#define HETSCAL_DTYPE 7301

/** @return the library version as "MAJOR.MINOR.PATCH" (static storage). */
const char* hetscal_version(void);

/**
 * Plans the heterogeneous layout of C = op(A)·op(B) (M×N, inner dimension K) on the processes
 * of a BLACS grid. Collective over the grid's processes; each process passes the same values.
 * @param[in] blacs_context a BLACS context (C handle, from Cblacs_gridinit or
 *            Cblacs_gridmap); the context is used for communication until
 *            hetscal_context_free() and must outlive the hetscal context.
 * @param[in] speeds relative speed of each process, indexed by its rank in the grid's row-major
 *            order (grid position (r, c) is entry r·NPCOL + c); finite and > 0. NULL: the
 *            speeds configured for the shim (HETSCAL_SPEEDS or HETSCAL_SPEEDS_FILE, one speed
 *            per rank of MPI_COMM_WORLD or per host), else each process measures its own with
 *            a short local DGEMM; the processes' values are then agreed. A malformed setting,
 *            or one not covering every process, gives HETSCAL_ERR_SPEEDS.
 * @param[in] m,n,k the product's dimensions, >= 1.
 * @param[out] ctx the new context; HETSCAL_CONTEXT_NULL on error.
 * @return HETSCAL_SUCCESS, HETSCAL_ERR_ARGUMENT (M, N or K < 1, ctx NULL),
 *         HETSCAL_ERR_CONTEXT (this process is not in the grid), HETSCAL_ERR_SPEEDS,
 *         HETSCAL_ERR_NO_PLAN; the same on every process.
 */
int hetscal_gemm_context_create(int blacs_context, const double* speeds, int m, int n, int k,
                                hetscal_context_t* ctx);

/**
 * Plans the layout of the matrices of `routine` on the processes of a BLACS grid (see
 * #hetscal_routine for the dimensions). Collective over the grid's processes; each process
 * passes the same values. Arguments as hetscal_gemm_context_create(), and:
 * @param[in] routine a #hetscal_routine.
 * @param[in] layout a #hetscal_layout: the kind of layout wanted, or HETSCAL_LAYOUT_ANY.
 *            GEMM, GEQRF: patterns are chosen among 2DBC, G-2DBC and heterogeneous
 *            patterns by predicted time, Cartesian grids by the grid planner. GETRF, POTRF:
 *            the layout an intercepted PDGETRF / PDPOTRF would take (2DBC and heterogeneous
 *            grids, with tile columns in the LU order for GETRF and ordered tile rows and
 *            columns for POTRF; G-2DBC, and the heterogeneous pattern for GETRF, GCR&M and
 *            the heterogeneous symmetric pattern for POTRF; tile sizes and the fastest
 *            processes, a slow one possibly left out), priced with moves in and out of a
 *            block-cyclic matrix on the grid.
 * @param[in] m,n,k the dimensions, >= 1 where the routine uses them; M = N for POTRF.
 * @return HETSCAL_SUCCESS, HETSCAL_ERR_ARGUMENT (unknown routine or layout, a dimension < 1,
 *         M ≠ N for POTRF, ctx NULL), HETSCAL_ERR_CONTEXT, HETSCAL_ERR_SPEEDS,
 *         HETSCAL_ERR_NO_PLAN; the same on every process.
 */
int hetscal_context_create(int blacs_context, const double* speeds, int routine, int layout, int m,
                           int n, int k, hetscal_context_t* ctx);

/**
 * Frees a context (collective over its processes) and sets *ctx to HETSCAL_CONTEXT_NULL.
 * Descriptors naming it become invalid.
 * @return HETSCAL_SUCCESS or HETSCAL_ERR_CONTEXT.
 */
int hetscal_context_free(hetscal_context_t* ctx);

/** @return the context's #hetscal_layout (CARTESIAN or PATTERN), or -1 for a bad context. */
int hetscal_context_layout(hetscal_context_t ctx);

/**
 * The planned grid: NPROW × NPCOL processes, this process at (myrow, mycol) (0-based), -1
 * when it holds no part of the layout. For a pattern layout: the pattern's R × C cells, and
 * myrow = mycol = -1 (a process may own several cells).
 * @return HETSCAL_SUCCESS or HETSCAL_ERR_CONTEXT. Any output pointer may be NULL.
 */
int hetscal_context_grid(hetscal_context_t ctx, int* nprow, int* npcol, int* myrow, int* mycol);

/** @return the tile size (MB = NB of the context's descriptors), or -1 for a bad context. */
int hetscal_context_tile(hetscal_context_t ctx);

/** @return 1 if this process holds part of the planned layout, 0 if not, -1 bad context. */
int hetscal_context_participates(hetscal_context_t ctx);

/**
 * The planner's predictions for the routine and dimensions the context was planned for.
 * @param[out] seconds predicted time of one product in the layout (compute and broadcasts;
 *             the fastest process at 1e10 flop/s, 1 GB/s per process).
 * @param[out] balance (Σ work / Σ speeds) / max(work_i / speed_i), 1 = perfect, work_i the
 *             elements process i owns of the planned matrix (its lower triangle for POTRF).
 * @param[out] speedup predicted time of ScaLAPACK's even block-cyclic split on the same
 *             grid (for a pattern: the near-square grid of all processes) divided by
 *             `seconds`.
 * @return HETSCAL_SUCCESS or HETSCAL_ERR_CONTEXT. Any output pointer may be NULL.
 */
int hetscal_context_prediction(hetscal_context_t ctx, double* seconds, double* balance,
                               double* speedup);

/**
 * Local rows of an M-row matrix of the context held by this process (its LOCr), 0 when
 * the process holds none; -1 for a bad context, M < 0 or a pattern layout (whose local
 * storage is tiles: see hetscal_local_tile()).
 */
int hetscal_local_rows(hetscal_context_t ctx, int m);
/** Local columns of an N-column matrix (LOCc); as hetscal_local_rows(). */
int hetscal_local_cols(hetscal_context_t ctx, int n);

/**
 * Global row (1-based) of local row `local_row` (1-based) of an M-row matrix on this process;
 * 0 when out of range, for a bad context or a pattern layout.
 */
int hetscal_global_row(hetscal_context_t ctx, int m, int local_row);
/** Global column of a local column; as hetscal_global_row(). */
int hetscal_global_col(hetscal_context_t ctx, int n, int local_col);

/**
 * Fills a descriptor of an M×N matrix kept in the heterogeneous layout of `ctx` (the
 * DESCINIT of hetscal). Local, no communication. Like DESCINIT, DESC is filled even on error
 * (with LLD raised to the minimum).
 * @param[out] desc HETSCAL_DESC_LEN entries.
 * @param[in] lld leading dimension of the local array, >= max(1, hetscal_local_rows(ctx, m));
 *            for a pattern layout, >= 1 and not used (each tile has its own, see
 *            hetscal_local_tile()).
 * @param[out] info 0, -2 (M < 0), -3 (N < 0), -4 (bad context), -5 (LLD too small).
 */
void hetscal_descinit(int* desc, int m, int n, hetscal_context_t ctx, int lld, int* info);

/**
 * Elements the local array of the matrix `desc` describes must hold on this process (0 when
 * it holds none of it); -1 when desc is not a valid hetscal descriptor.
 */
long long hetscal_local_elements(const int* desc);

/**
 * Owner of tile (tile_row, tile_col) (1-based; tiles of MB × NB = the context's tile size,
 * the last ones shorter) of the matrix `desc` describes: its rank in the BLACS grid's
 * row-major order (as the speeds are indexed). -1 for a bad descriptor or a tile outside
 * the matrix.
 */
int hetscal_tile_owner(const int* desc, int tile_row, int tile_col);

/**
 * Where this process keeps tile (tile_row, tile_col) (1-based) of the matrix `desc`
 * describes: element (r, c) of the tile (1-based within the tile) is local element
 * index + (r − 1) + (c − 1)·ld of the local array (index 1-based).
 * @param[out] index, ld set when the tile is here (either may be NULL).
 * @return 1 when this process owns the tile, 0 when another does, -1 for a bad descriptor,
 *         -2 for a tile outside the matrix.
 */
int hetscal_local_tile(const int* desc, int tile_row, int tile_col, long long* index, int* ld);

/**
 * Copies the M×N ScaLAPACK submatrix A(IA:IA+M-1, JA:JA+N-1) (9- or 11-entry descriptor,
 * CTXT = the context's BLACS context) into the heterogeneous matrix H (descriptor from
 * hetscal_descinit, of size M×N). Collective.
 * @param[out] info 0, or -(position) / -(100·position + field) of the first bad argument
 *             (m 1, n 2, a 3, ia 4, ja 5, desca 6, h 7, desch 8); HETSCAL_ERR_UNSUPPORTED for a
 *             replicated A.
 */
void hetscal_scatter(int m, int n, const double* a, int ia, int ja, const int* desca, double* h,
                     const int* desch, int* info);

/**
 * The reverse copy: the heterogeneous matrix H into the ScaLAPACK submatrix
 * A(IA:IA+M-1, JA:JA+N-1). Same argument order (A first) and codes as hetscal_scatter().
 */
void hetscal_gather(int m, int n, double* a, int ia, int ja, const int* desca, const double* h,
                    const int* desch, int* info);

/** hetscal_scatter() / hetscal_gather() of float, complex float and complex double matrices. */
void hetscal_sscatter(int m, int n, const float* a, int ia, int ja, const int* desca, float* h,
                      const int* desch, int* info);
void hetscal_sgather(int m, int n, float* a, int ia, int ja, const int* desca, const float* h,
                     const int* desch, int* info);
void hetscal_cscatter(int m, int n, const hetscal_complex_float* a, int ia, int ja,
                      const int* desca, hetscal_complex_float* h, const int* desch, int* info);
void hetscal_cgather(int m, int n, hetscal_complex_float* a, int ia, int ja, const int* desca,
                     const hetscal_complex_float* h, const int* desch, int* info);
void hetscal_zscatter(int m, int n, const hetscal_complex_double* a, int ia, int ja,
                      const int* desca, hetscal_complex_double* h, const int* desch, int* info);
void hetscal_zgather(int m, int n, hetscal_complex_double* a, int ia, int ja, const int* desca,
                     const hetscal_complex_double* h, const int* desch, int* info);

/** What hetscal_context_rebalance() did (the same on every process). */
typedef struct hetscal_rebalance_report {
  int kept_structure;         /**< 1: a Cartesian layout kept its grid, tile and panel, only
                                   the lines below changed grid line (seed 003's column
                                   migrations); 0: planned afresh (a pattern layout, or a
                                   grid whose fresh plan is predicted more than 10 % faster) */
  int column_migrations;      /**< panel columns handed to another grid column */
  int row_migrations;         /**< panel rows handed to another grid row */
  long long moved_elements;   /**< elements sent to another process, all matrices */
  long long kept_elements;    /**< elements that stayed on their process (copied, or slid,
                                   within its local array) */
  long long fresh_elements;   /**< elements a full redistribution to the layout planned afresh
                                   for the new speeds would send (what the rebalancing avoids);
                                   -1 when no fresh layout fits */
  long long total_elements;   /**< elements of all the matrices (moving all of them, as the
                                   shim's moves in and out do) */
} hetscal_rebalance_report;

/**
 * Rebalances a context and its matrices for new speeds (issue 12, seed 003). Collective over
 * the context's processes. A Cartesian layout keeps its grid, the ranks' places, the tile size
 * and the panel: only the panel's row and column counts are planned again for the new speeds,
 * and the fewest panel columns and rows change grid line (column migrations; in a Cartesian
 * grid a row migration is the same in every column); every other tile stays on its process
 * and only slides within its local array, whose LOCr may change. A pattern layout is planned
 * afresh (as hetscal_context_create() would for the new speeds), and so is a Cartesian one
 * when the time model predicts the fresh plan more than 10 % faster than the kept grid (the
 * re-planning threshold of HETSCAL_ADAPT; e.g. the old grid left out a rank now fast). Either way only the elements
 * whose owner changed cross the network. The context then plans with the new speeds.
 *
 * Memory: the caller allocates, as for every ScaLAPACK matrix. Each array is rewritten in
 * place and must hold both the old and the new local part: ask hetscal_rebalanced_elements()
 * for the new size, allocate max(old, new) (e.g. Fortran ALLOCATE, or C realloc before the
 * call) and pass that capacity. hetscal keeps a temporary copy of each old local part during
 * the call. Each descriptor's LLD is set to the new max(1, LOCr) (patterns: unchanged), MB and NB to
 * the new tile size (patterns planned afresh may change it).
 *
 * @param[in] ctx a live context.
 * @param[in] new_speeds one per process as in hetscal_context_create(), the same everywhere;
 *            NULL: the estimates hetscal's adaptation learnt on the context's BLACS grid
 *            (intercepted calls and native calls on hetscal descriptors of that grid, see
 *            hetscal_context_keep_balanced(); HETSCAL_ERR_SPEEDS when none adapted yet).
 * @param[in] nmatrices matrices to move with the context, >= 0 (0: only the context changes;
 *            its other matrices' descriptors and arrays are then stale).
 * @param[in,out] arrays this process's local arrays (NULL where a process holds none).
 * @param[in] capacities elements each array can hold.
 * @param[in,out] descs hetscal descriptors of `ctx`, one per array; LLD updated.
 * @param[out] report what moved (see #hetscal_rebalance_report).
 * @return HETSCAL_SUCCESS; HETSCAL_ERR_CONTEXT (bad ctx); HETSCAL_ERR_ARGUMENT (nmatrices < 0,
 *         a NULL list or report, a descriptor not of ctx, an array shared by two matrices or
 *         missing, a capacity short on some process); HETSCAL_ERR_SPEEDS; HETSCAL_ERR_NO_PLAN;
 *         on these the context, arrays and descriptors are untouched, on every process alike.
 *         HETSCAL_ERR_INTERNAL: an MPI failure or no memory for the copies (data untouched
 *         unless MPI failed while moving).
 */
int hetscal_context_rebalance(hetscal_context_t ctx, const double* new_speeds, int nmatrices,
                              double* const* arrays, const long long* capacities,
                              int* const* descs, hetscal_rebalance_report* report);

/**
 * Keeps matrices of a context balanced automatically (issue 12): registers them to move with
 * the context, as hetscal_context_rebalance(ctx, NULL, ...) would move them, whenever the
 * speeds learnt at run time call for it. Collective over the context's processes.
 *
 * Every native call on hetscal descriptors (hetero_pdgemm, hetero_pdgetrf, hetero_pdgeqrf,
 * hetero_pdpotrf and their other precisions) starts, once its arguments are checked, with the
 * speed adaptation step the intercepted calls take (HETSCAL_ADAPT, README): each process
 * observes the rate of its own computing since the previous such call, one small collective
 * agrees the observations, and every process updates the same estimates. When the context's
 * layout, planned for the speeds it has, would take at least 10 % longer than a balanced
 * split under the speeds the estimates plan with (the re-planning threshold), and every
 * operand of the call is a registered matrix (the same array and descriptor addresses, on
 * every process), all registered matrices are rebalanced for those speeds, by the path
 * hetscal_context_rebalance() takes, before the call computes on the new layout; the call's
 * descriptors, being the registered ones, are read after their update. A rank turning 3×
 * slower is thus rebalanced for at the start of call c + 2 when it turned slower during call
 * c (at its start or part-way into it). When the rebalancing cannot be done (an operand not registered,
 * another precision than double, a capacity short on some process for the new layout, no
 * memory for the copies: decided alike on every process), the call computes on the layout it
 * has, data intact, and HETSCAL_VERBOSE=1 says why in one line (once per reason); every
 * automatic rebalancing is printed with the elements it moved against a full redistribution.
 * HETSCAL_ADAPT=0 switches the adaptation, and so the automatic rebalancing, off.
 *
 * The arrays must stay valid, and hold `capacities` elements, as long as they are registered;
 * allocate room for the largest local part you allow (hetscal_rebalanced_elements() answers for
 * given speeds). A hetscal_context_rebalance() call does not change the registration: register
 * again if it moved other matrices.
 *
 * @param[in] ctx a live context.
 * @param[in] nmatrices matrices to keep balanced, >= 0; 0 stops the automatic rebalancing
 *            (the lists may then be NULL). Replaces any earlier registration.
 * @param[in] arrays this process's local arrays (NULL where a process holds none).
 * @param[in] capacities elements each array can hold, at least its current local part.
 * @param[in] descs hetscal descriptors of `ctx`, one per array, updated in place when moved.
 * @return HETSCAL_SUCCESS; HETSCAL_ERR_CONTEXT (bad ctx); HETSCAL_ERR_ARGUMENT (nmatrices < 0,
 *         a NULL list, a descriptor not of ctx, an array shared by two matrices or missing, a
 *         capacity below the current local part on some process): then the earlier
 *         registration stands, on every process alike; HETSCAL_ERR_INTERNAL (MPI or memory).
 */
int hetscal_context_keep_balanced(hetscal_context_t ctx, int nmatrices, double* const* arrays,
                                  const long long* capacities, int* const* descs);

/**
 * Local elements an M×N matrix of `ctx` will need on this process after
 * hetscal_context_rebalance() with the same `new_speeds` (NULL as there). Collective (the
 * speeds are agreed). @return the count, or -1 for a bad context, M or N < 0, or speeds
 * refused.
 */
long long hetscal_rebalanced_elements(hetscal_context_t ctx, const double* new_speeds, int m,
                                      int n);

/**
 * sub(C) = alpha·op(sub(A))·op(sub(B)) + beta·sub(C), with PDGEMM's arguments plus INFO.
 * Collective over the operands' grid. Either all three descriptors are hetscal descriptors
 * of one context (the data stays in place; sub(X) must then be the whole matrix:
 * IX = JX = 1 and M_X, N_X equal to op's dimensions), or all three are ScaLAPACK descriptors
 * (DTYPE 1 or 2) of one BLACS context: the operands are moved to hetscal's layout for the
 * call's shape (planned with the speeds of any hetscal context of that BLACS grid, the
 * latest one created) and C is moved back. hetscal's path is always taken; beta = 0 never
 * reads C; alpha = 0 or K = 0 only scale C.
 * @param[in] transa,transb "N", "T" or "C" (first character, any case).
 * @param[out] info 0; < 0: argument error as PDGEMM numbers them (transa 1, transb 2, m 3,
 *             n 4, k 5, ia 8, ja 9, desca 10, ib 12, jb 13, descb 14, ic 17, jc 18,
 *             descc 19), including a descriptor whose kind differs from DESCA's
 *             (-(100·position + 1)) and, for hetscal descriptors, another context
 *             (-(100·position + 2)) or a size differing from op's (field 3 or 4);
 *             > 0: a #hetscal_status (HETSCAL_ERR_UNSUPPORTED, HETSCAL_ERR_CONTEXT when no
 *             hetscal context of DESCA's BLACS grid exists, HETSCAL_ERR_NO_PLAN,
 *             HETSCAL_ERR_INTERNAL).
 */
void hetero_pdgemm(const char* transa, const char* transb, int m, int n, int k, double alpha,
                   const double* a, int ia, int ja, const int* desca, const double* b, int ib,
                   int jb, const int* descb, double beta, double* c, int ic, int jc,
                   const int* descc, int* info);

/**
 * hetero_pdgemm() in the other precisions (PSGEMM, PCGEMM, PZGEMM). Complex: TRANSA/TRANSB
 * "T" transposes and "C" transposes and conjugates (for real data "C" = "T"); ALPHA and BETA
 * are passed by pointer (read once, before anything is computed); beta = 0 never reads C.
 */
void hetero_psgemm(const char* transa, const char* transb, int m, int n, int k, float alpha,
                   const float* a, int ia, int ja, const int* desca, const float* b, int ib,
                   int jb, const int* descb, float beta, float* c, int ic, int jc,
                   const int* descc, int* info);
void hetero_pcgemm(const char* transa, const char* transb, int m, int n, int k,
                   const hetscal_complex_float* alpha, const hetscal_complex_float* a, int ia,
                   int ja, const int* desca, const hetscal_complex_float* b, int ib, int jb,
                   const int* descb, const hetscal_complex_float* beta, hetscal_complex_float* c,
                   int ic, int jc, const int* descc, int* info);
void hetero_pzgemm(const char* transa, const char* transb, int m, int n, int k,
                   const hetscal_complex_double* alpha, const hetscal_complex_double* a, int ia,
                   int ja, const int* desca, const hetscal_complex_double* b, int ib, int jb,
                   const int* descb, const hetscal_complex_double* beta,
                   hetscal_complex_double* c, int ic, int jc, const int* descc, int* info);

/**
 * INFO of hetero_pdgetrf(), hetero_pdgetrs(), hetero_pdgeqrf(), hetero_pdormqr(),
 * hetero_pdpotrf() and hetero_pdpotrs() when hetscal could not compute for a reason other
 * than an argument (their return value says which): negative, so that a caller testing only INFO != 0 sees the failure, and unlike
 * every argument code of these routines (position 10 is never a descriptor).
 */
#define HETSCAL_INFO_FAILED(status) (-1000 - (status))

/**
 * Cholesky factorisation of the N×N symmetric positive definite sub(A) = A(IA:IA+N-1,
 * JA:JA+N-1), with PDPOTRF's arguments: sub(A) = L·Lᵀ (uplo "L", L in the lower triangle) or
 * Uᵀ·U ("U", U in the upper triangle). Only the `uplo` triangle of sub(A) is read and
 * written. Collective over A's grid. Either DESCA is a hetscal descriptor (the factor stays
 * in the context's layout, Cartesian or pattern; IA = JA = 1, M_A = N_A = N), or a ScaLAPACK
 * one (DTYPE 1 or 2; any IA, JA, MB, NB PDGEMM's checks accept): sub(A) is moved into the
 * Cholesky layout planned with the speeds of the latest hetscal context of A's BLACS grid
 * (as a POTRF context of HETSCAL_LAYOUT_ANY, moves from sub(A)'s layout priced) and only its `uplo` triangle is moved back (the other triangle, everything outside sub(A)
 * and LLD padding stay bit-identical), also when INFO > 0.
 * @param[out] info as ScaLAPACK's, the same on every process: 0; -(position) or
 *             -(100·position + field) for the first bad argument (uplo 1, n 2, ia 4, ja 5,
 *             desca 6; for a hetscal descriptor: another size than N×N is field 3 or 4),
 *             with A untouched; j > 0 when the leading minor of order j is not positive
 *             definite (the factorisation stopped there, as ScaLAPACK's);
 *             HETSCAL_INFO_FAILED(status) when hetscal could not compute.
 * @return HETSCAL_SUCCESS (INFO >= 0), HETSCAL_ERR_ARGUMENT (INFO < 0),
 *         HETSCAL_ERR_UNSUPPORTED (a replicated ScaLAPACK A: RSRC or CSRC = -1),
 *         HETSCAL_ERR_CONTEXT (a ScaLAPACK A whose BLACS grid has no hetscal context),
 *         HETSCAL_ERR_NO_PLAN, HETSCAL_ERR_INTERNAL (A may then be partly written); the
 *         same on every process.
 */
int hetero_pdpotrf(const char* uplo, int n, double* a, int ia, int ja, const int* desca,
                   int* info);

/**
 * hetero_pdpotrf() in the other precisions (PSPOTRF, PCPOTRF, PZPOTRF). Complex: sub(A) is
 * Hermitian positive definite, sub(A) = L·Lᴴ or Uᴴ·U; as PZPOTRF, the imaginary parts of its
 * diagonal are not read and are zero in the factor.
 */
int hetero_pspotrf(const char* uplo, int n, float* a, int ia, int ja, const int* desca,
                   int* info);
int hetero_pcpotrf(const char* uplo, int n, hetscal_complex_float* a, int ia, int ja,
                   const int* desca, int* info);
int hetero_pzpotrf(const char* uplo, int n, hetscal_complex_double* a, int ia, int ja,
                   const int* desca, int* info);

/**
 * Solves sub(A)·X = sub(B) with the Cholesky factor hetero_pdpotrf() left in sub(A), with
 * PDPOTRS's arguments; X overwrites sub(B) (N×NRHS). Collective over A's grid. sub(A) is
 * either on a hetscal descriptor (the factor in place; IA = JA = 1, M_A = N_A = N) — sub(B)
 * then on a hetscal descriptor of the same context (IB = JB = 1, M_B = N, N_B = NRHS) or on a
 * ScaLAPACK descriptor of the context's BLACS grid (moved in and back) — or both are on
 * ScaLAPACK descriptors of one BLACS grid (moved into the layout hetero_pdpotrf() plans).
 * Only the `uplo` triangle of sub(A) is read; sub(A) is not written.
 * @param[out] info 0; -(position) or -(100·position + field) as PDPOTRS numbers them (uplo 1,
 *             n 2, nrhs 3, ia 5, ja 6, desca 7, ib 9, jb 10, descb 11; a ScaLAPACK DESCB
 *             with a hetscal DESCA is accepted, the reverse is -(1100 + 1)), nothing
 *             written; HETSCAL_INFO_FAILED(status) when hetscal could not compute.
 * @return as hetero_pdpotrf().
 */
int hetero_pdpotrs(const char* uplo, int n, int nrhs, const double* a, int ia, int ja,
                   const int* desca, double* b, int ib, int jb, const int* descb, int* info);

/** hetero_pdpotrs() in the other precisions; complex: with the factor of sub(A) = L·Lᴴ or Uᴴ·U. */
int hetero_pspotrs(const char* uplo, int n, int nrhs, const float* a, int ia, int ja,
                   const int* desca, float* b, int ib, int jb, const int* descb, int* info);
int hetero_pcpotrs(const char* uplo, int n, int nrhs, const hetscal_complex_float* a, int ia,
                   int ja, const int* desca, hetscal_complex_float* b, int ib, int jb,
                   const int* descb, int* info);
int hetero_pzpotrs(const char* uplo, int n, int nrhs, const hetscal_complex_double* a, int ia,
                   int ja, const int* desca, hetscal_complex_double* b, int ib, int jb,
                   const int* descb, int* info);

/**
 * LU factorisation with partial pivoting of the M×N sub(A) = A(IA:IA+M-1, JA:JA+N-1), with
 * PDGETRF's arguments: sub(A) = P·L·U, L unit lower triangular (trapezoidal when M > N) below
 * the diagonal and U upper triangular (trapezoidal when M < N) on and above it, overwriting
 * sub(A); the pivots chosen as LAPACK's and ScaLAPACK's (largest magnitude in the column, the
 * first on ties). Collective over A's grid. Either
 * - DESCA is a hetscal descriptor (the factors stay in the context's layout, Cartesian or
 *   pattern; IA = JA = 1, M_A = M, N_A = N; a GETRF context plans the LU's layout): IPIV is
 *   in hetscal's format, min(M,N) entries on every process alike, IPIV(i) the global row
 *   (1-based) of sub(A) that row i was interchanged with at step i (LAPACK's DGETRF format:
 *   apply them in order i = 1, 2, … to reproduce P); or
 * - DESCA is a ScaLAPACK descriptor with sub(A) as PDGETRF accepts it (DTYPE 1, IA-1 and
 *   JA-1 on block boundaries, MB_A = NB_A): sub(A) is moved into the LU layout planned
 *   with the speeds of the latest hetscal context of A's BLACS grid (as a GETRF context of
 *   HETSCAL_LAYOUT_ANY, moves from sub(A)'s layout priced) and back; IPIV is exactly
 *   PDGETRF's (global row indices of A, IA-1 included, in the local entries of the process
 *   rows holding sub(A)'s first min(M,N) rows, replicated in every process column; IPIV needs
 *   LOCr(M_A)+MB_A entries), so ScaLAPACK's PDGETRS, PDGETRI … take the result; as PDGETRF,
 *   an A of one row (M_A = 1) only sets IPIV(1) = 1. Nothing outside sub(A) is written.
 * @param[out] info as ScaLAPACK's, the same on every process: 0; -(position) or
 *             -(100·position + field) for the first bad argument (m 1, n 2, ia 4, ja 5,
 *             desca 6; IA or JA off a block boundary -4 or -5, DTYPE 2 -601, MB_A ≠ NB_A
 *             -606; for a hetscal descriptor: another size than M×N is field 3 or 4), with A
 *             and IPIV untouched;
 *             i > 0 when U(i,i) is exactly zero, the first such i (the factorisation is
 *             completed, as ScaLAPACK's, and U is singular); HETSCAL_INFO_FAILED(status) when
 *             hetscal could not compute.
 * @return HETSCAL_SUCCESS (INFO >= 0), HETSCAL_ERR_ARGUMENT (INFO < 0),
 *         HETSCAL_ERR_UNSUPPORTED (a replicated ScaLAPACK A: RSRC or CSRC = -1),
 *         HETSCAL_ERR_CONTEXT (a ScaLAPACK A whose BLACS grid has no hetscal context),
 *         HETSCAL_ERR_NO_PLAN, HETSCAL_ERR_INTERNAL (A may then be partly written); the same
 *         on every process.
 */
int hetero_pdgetrf(int m, int n, double* a, int ia, int ja, const int* desca, int* ipiv,
                   int* info);

/**
 * hetero_pdgetrf() in the other precisions (PSGETRF, PCGETRF, PZGETRF); complex pivots are
 * chosen by |re| + |im|, as LAPACK's ICAMAX/IZAMAX and ScaLAPACK's do.
 */
int hetero_psgetrf(int m, int n, float* a, int ia, int ja, const int* desca, int* ipiv,
                   int* info);
int hetero_pcgetrf(int m, int n, hetscal_complex_float* a, int ia, int ja, const int* desca,
                   int* ipiv, int* info);
int hetero_pzgetrf(int m, int n, hetscal_complex_double* a, int ia, int ja, const int* desca,
                   int* ipiv, int* info);

/**
 * Solves op(sub(A))·X = sub(B) with the LU factors and pivots hetero_pdgetrf() left, with
 * PDGETRS's arguments; X overwrites sub(B) (N×NRHS). TRANS "N": A·X = B; "T" or "C":
 * Aᵀ·X = B. Collective over A's grid. sub(A) is either on a hetscal descriptor (the factors
 * in place, IPIV in hetscal's format, hetero_pdgetrf()'s or DGETRF's: N entries on every
 * process alike; IA = JA = 1, M_A = N_A = N) — sub(B) then on a hetscal descriptor of the
 * same context (IB = JB = 1, M_B = N, N_B = NRHS) or on a ScaLAPACK descriptor of the
 * context's BLACS grid (moved in and back) — or both are on ScaLAPACK descriptors of one
 * BLACS grid (moved into the layout hetero_pdgetrf() plans), IPIV then in ScaLAPACK's format
 * (what PDGETRF or hetero_pdgetrf() wrote there). sub(A) and IPIV are not written.
 * @param[out] info 0; -(position) or -(100·position + field) as PDGETRS numbers them (trans
 *             1, n 2, nrhs 3, ia 5, ja 6, desca 7, ipiv 8: an entry naming a row outside
 *             sub(A), ib 10, jb 11, descb 12; a ScaLAPACK DESCB with a hetscal DESCA is
 *             accepted, the reverse is -(1200 + 1)), nothing written;
 *             HETSCAL_INFO_FAILED(status) when hetscal could not compute.
 * @return as hetero_pdgetrf().
 */
int hetero_pdgetrs(const char* trans, int n, int nrhs, const double* a, int ia, int ja,
                   const int* desca, const int* ipiv, double* b, int ib, int jb, const int* descb,
                   int* info);

/**
 * hetero_pdgetrs() in the other precisions. Complex: TRANS "T" solves Aᵀ·X = B and "C"
 * solves Aᴴ·X = B.
 */
int hetero_psgetrs(const char* trans, int n, int nrhs, const float* a, int ia, int ja,
                   const int* desca, const int* ipiv, float* b, int ib, int jb, const int* descb,
                   int* info);
int hetero_pcgetrs(const char* trans, int n, int nrhs, const hetscal_complex_float* a, int ia,
                   int ja, const int* desca, const int* ipiv, hetscal_complex_float* b, int ib,
                   int jb, const int* descb, int* info);
int hetero_pzgetrs(const char* trans, int n, int nrhs, const hetscal_complex_double* a, int ia,
                   int ja, const int* desca, const int* ipiv, hetscal_complex_double* b, int ib,
                   int jb, const int* descb, int* info);

/**
 * Householder QR factorisation of the M×N sub(A) = A(IA:IA+M-1, JA:JA+N-1), with PDGEQRF's
 * arguments less WORK and LWORK (hetscal's workspace is its own): sub(A) = Q·R, R upper
 * triangular (trapezoidal when M < N) on and above the diagonal, Q = H(1)·H(2)···H(K),
 * K = min(M,N), H(i) = I − τ_i·v_i·v_iᵀ with v_i(i) = 1 implicit and v_i below the diagonal
 * of column i, the reflectors and τ as LAPACK's DLARFG defines them (R's signs as
 * ScaLAPACK's). Collective over A's grid. Either
 * - DESCA is a hetscal descriptor (the factors stay in the context's layout, Cartesian or
 *   pattern; IA = JA = 1, M_A = M, N_A = N; a GEQRF context plans the layout): TAU is in
 *   hetscal's format, K entries on every process alike, TAU(i) the τ of reflector i; or
 * - DESCA is a ScaLAPACK descriptor with sub(A) as PDGEQRF accepts it (DTYPE 1): sub(A) is
 *   moved into the QR layout planned with the speeds of the latest hetscal context of A's
 *   BLACS grid (as a GEQRF context of HETSCAL_LAYOUT_ANY, moves from sub(A)'s layout
 *   priced) and back; TAU is exactly PDGEQRF's (LOCc(JA+K-1) entries, τ of column j in the
 *   local entry of j on every process row of the process column holding j, nothing else
 *   written), so ScaLAPACK's PDORMQR, PDORGQR … take the result. Nothing outside sub(A) is
 *   written.
 * @param[out] info as ScaLAPACK's, the same on every process: 0; -(position) or
 *             -(100·position + field) for the first bad argument (m 1, n 2, ia 4, ja 5,
 *             desca 6; for a hetscal descriptor: another size than M×N is field 3 or 4),
 *             with A and TAU untouched; HETSCAL_INFO_FAILED(status) when hetscal could not
 *             compute.
 * @return as hetero_pdgetrf().
 */
int hetero_pdgeqrf(int m, int n, double* a, int ia, int ja, const int* desca, double* tau,
                   int* info);

/**
 * hetero_pdgeqrf() in the other precisions (PSGEQRF, PCGEQRF, PZGEQRF). Complex:
 * H(i) = I − τ_i·v_i·v_iᴴ with complex τ_i and v_i as CLARFG/ZLARFG define them (the
 * diagonal of R real), so Q = H(1)···H(K) is unitary; TAU holds complex values.
 */
int hetero_psgeqrf(int m, int n, float* a, int ia, int ja, const int* desca, float* tau,
                   int* info);
int hetero_pcgeqrf(int m, int n, hetscal_complex_float* a, int ia, int ja, const int* desca,
                   hetscal_complex_float* tau, int* info);
int hetero_pzgeqrf(int m, int n, hetscal_complex_double* a, int ia, int ja, const int* desca,
                   hetscal_complex_double* tau, int* info);

/**
 * Applies Q or Qᵀ from hetero_pdgeqrf() (or PDGEQRF) to sub(C) = C(IC:IC+M-1, JC:JC+N-1),
 * with PDORMQR's arguments less WORK and LWORK: SIDE "L": sub(C) := op(Q)·sub(C), Q of
 * order M, the K reflectors in A(IA:IA+M-1, JA:JA+K-1); SIDE "R": sub(C) := sub(C)·op(Q), Q
 * of order N, the reflectors in A(IA:IA+N-1, JA:JA+K-1); TRANS "N": op(Q) = Q, "T":
 * Qᵀ. Collective over A's grid. sub(A) is either on a hetscal descriptor (the factors
 * hetero_pdgeqrf() left in place, TAU in hetscal's format; IA = JA = 1, M_A = Q's order,
 * K <= N_A) — sub(C) then on a hetscal descriptor of the same context (IC = JC = 1,
 * M_C = M, N_C = N) or on a ScaLAPACK descriptor of the context's BLACS grid (moved in and
 * back) — or both are on ScaLAPACK descriptors of one BLACS grid (moved into the layout
 * hetero_pdgeqrf() plans for Q's order × K), TAU then in PDGEQRF's format. SIDE "R" is
 * computed as (op(Q)ᵀ·sub(C)ᵀ)ᵀ: sub(C) is moved transposed into the factors' layout and
 * back. sub(A) and TAU are not written; nothing outside sub(C) is.
 * @param[out] info 0; -(position) or -(100·position + field) as PDORMQR numbers them (side
 *             1, trans 2, m 3, n 4, k 5, ia 7, ja 8, desca 9, ic 12, jc 13, descc 14), in
 *             PDORMQR's order: sub(A) (Q's order × K) and sub(C) as CHK1MAT checks them,
 *             then SIDE, TRANS, K > Q's order (-5), then, on ScaLAPACK descriptors,
 *             PDORMQR's alignment (SIDE "R": NB_C ≠ MB_A -906, IA and JC at other offsets
 *             in their blocks -13; SIDE "L": IA and IC at other offsets or on other process
 *             rows -12, MB_C ≠ MB_A -1405) and C on another BLACS context (-1402, also
 *             beside a hetscal DESCA); nothing written; HETSCAL_INFO_FAILED(status) when
 *             hetscal could not compute.
 * @return as hetero_pdgetrf().
 */
int hetero_pdormqr(const char* side, const char* trans, int m, int n, int k, const double* a,
                   int ia, int ja, const int* desca, const double* tau, double* c, int ic,
                   int jc, const int* descc, int* info);

/**
 * hetero_pdormqr() in single precision (PSORMQR), and its complex form (PCUNMQR, PZUNMQR):
 * TRANS "N" applies Q, "C" applies Qᴴ ("T" is refused, -2, as PxUNMQR refuses it); SIDE "R"
 * is computed as (op(Q)ᴴ·sub(C)ᴴ)ᴴ, sub(C) moved conjugate-transposed. Arguments, checks and
 * codes otherwise as hetero_pdormqr().
 */
int hetero_psormqr(const char* side, const char* trans, int m, int n, int k, const float* a,
                   int ia, int ja, const int* desca, const float* tau, float* c, int ic, int jc,
                   const int* descc, int* info);
int hetero_pcunmqr(const char* side, const char* trans, int m, int n, int k,
                   const hetscal_complex_float* a, int ia, int ja, const int* desca,
                   const hetscal_complex_float* tau, hetscal_complex_float* c, int ic, int jc,
                   const int* descc, int* info);
int hetero_pzunmqr(const char* side, const char* trans, int m, int n, int k,
                   const hetscal_complex_double* a, int ia, int ja, const int* desca,
                   const hetscal_complex_double* tau, hetscal_complex_double* c, int ic, int jc,
                   const int* descc, int* info);

#ifdef __cplusplus
}
#endif

#endif /* HETSCAL_HETSCAL_H */
