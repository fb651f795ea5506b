#pragma once
/// @file time_model.hpp
/// Predicted time of a routine on a candidate distribution over a heterogeneous platform:
/// the role of HeteroPBLAS's HMPI_Timeof (Reddy2009, §4), generalised from the runtime model
/// of RauberRunger1995 to processors of different speeds, a shared or switched
/// network, a tile-size dependent kernel rate, and the cost of moving the caller's data in
/// and out. The planner calls predict_candidates on whatever candidates it built (grid
/// shapes, patterns, process subsets, tile sizes) and choose() keeps the fastest that fits.
///
/// The model, per step of the right-looking blocked algorithm (K = ⌈min(M, N)/nb⌉ steps for a
/// factorisation, ⌈K/nb⌉ for GEMM), counting whole tiles:
///   compute        max over processors of update flops / (speed · efficiency(nb));
///   panel          the panel factorisation of the grid column owning the step (max over its
///                  processors), the U row-block solve (LU), and per panel column the pivot
///                  search / norm collectives (LU, QR) — the critical path ScaLAPACK does
///                  not overlap;
///   communication  the panel broadcast along every row class and the row-block broadcast
///                  along every column class (plus LU's row swaps: PDLASWP's one message per
///                  swapped row and process column, latency-bound). On a shared bus every
///                  message is serialised (a broadcast to g processes is g−1 messages, and
///                  all groups add up); on a switched network a broadcast is a binomial tree
///                  of ⌈log2 g⌉ message times and groups run in parallel, a sender's own
///                  broadcasts still one after another;
/// That is ScaLAPACK's algorithm, and how the caller's layout is priced. An LU or a QR on any
/// other candidate runs hetscal's kernel instead, priced message by message as it sends them
/// (lu_steps.hpp, qr_steps.hpp: the panel gathered and factorised on one rank, with lookahead).
/// Plus, unless the candidate keeps the caller's layout, the redistribution in and out of
/// each matrix (GEMM: A and B in, C in when read and out; Cholesky: one triangle in and
/// out, priced as one whole matrix moved once): the elements that change owner, over the
/// same network model. Steps add up (no overlap).
/// Memory: every processor must hold its part of the caller's arrays, its part of the
/// planned copy, and a column and a row panel of workspace ((M + N)·nb); a candidate that
/// does not fit is kept in the list but marked, and never chosen.
#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "core/time_models/platform.hpp"
#include "core/time_models/tile_ownership.hpp"

namespace hetscal::core {

enum class Routine { Gemm, LU, QR, Cholesky };

/// "GEMM", "LU", "QR", "Cholesky".
const char* routine_name(Routine routine);

/// The caller's data: ScaLAPACK's block-cyclic layout on a grid_rows × grid_cols BLACS grid;
/// processor_at[i·grid_cols + j] is the platform processor at grid position (i, j) (empty: 0,
/// 1, 2, … row-major). A submatrix sub(A) = A(IA:…, JA:…) starts row_offset = (IA−1) mod MB
/// rows and col_offset = (JA−1) mod NB columns into its first block, and that first block is
/// on grid position (0, 0) (rotate processor_at so that the process holding A(IA, JA) comes
/// first). Every matrix of a call (GEMM's A, B and C) is taken to share this layout.
struct CallerLayout {
  std::size_t grid_rows = 1;
  std::size_t grid_cols = 1;
  std::size_t block = 64;       ///< MB = NB unless row_block / col_block say otherwise
  std::vector<std::size_t> processor_at;
  std::size_t row_block = 0;    ///< MB; 0: block
  std::size_t col_block = 0;    ///< NB; 0: block
  std::size_t row_offset = 0;   ///< (IA−1) mod MB, < MB
  std::size_t col_offset = 0;   ///< (JA−1) mod NB, < NB

  std::size_t mb() const { return row_block == 0 ? block : row_block; }
  std::size_t nb() const { return col_block == 0 ? block : col_block; }
};

/// One call, held in `caller`:
/// - GEMM: C (m×n) = A (m×k) · B (k×n) (+ β·C), in ⌈k/nb⌉ steps; C is moved in only when it is
///   read (β ≠ 0: c_read) and always moved back;
/// - LU, QR: an m×n matrix, min(m, n) columns factored, the trailing (m−j)×(n−j) matrix
///   updated at step j (k and c_read unused);
/// - Cholesky: n×n (m must equal n).
/// m = 0 or k = 0 means "equal to n", so {routine, n, caller} is the square problem N×N.
struct Problem {
  Routine routine = Routine::Gemm;
  std::size_t n = 0;      ///< columns (of C for GEMM); the order of a square problem
  CallerLayout caller;
  std::size_t m = 0;      ///< rows; 0: n
  std::size_t k = 0;      ///< GEMM's inner dimension; 0: n
  bool c_read = true;     ///< GEMM: C is read (β ≠ 0), so it is moved in as well as out

  std::size_t rows() const { return m == 0 ? n : m; }
  std::size_t inner() const { return k == 0 ? n : k; }
};

/// @throws InvalidArgument if N = 0, or Cholesky has M ≠ N.
void require_valid(const Problem& problem);

/// Where hetscal's LU kernel factorises each step's panel (the gathered panel tiles, LAPACK's
/// getrf on one rank): the owner of the diagonal tile, or the fastest owner of the panel's
/// tile column (Boudet1999's suggestion to let the fastest processors pivot).
enum class PanelRank { DiagonalOwner, Fastest };

enum class CandidateKind {
  CallerLayout,  ///< compute in place on the caller's block-cyclic layout (no redistribution)
  Cartesian,     ///< a heterogeneous p×q grid with row shares r_i and column shares c_j
  Pattern,       ///< an R×C owner table laid over the tiles cyclically
};

/// A distribution to price. It does not say how it was found (grid planner, heuristic,
/// pattern builder, process subset): only who owns what, and the tile size.
struct Candidate {
  CandidateKind kind = CandidateKind::Cartesian;
  std::string label;                 ///< for printing, e.g. "hetero 3x3" or "G-2DBC"
  std::size_t tile = 0;              ///< nb
  std::size_t rows = 0;              ///< grid rows p, or pattern rows R
  std::size_t cols = 0;              ///< grid columns q, or pattern columns C
  std::vector<std::size_t> owner;    ///< rows·cols platform processors, row-major
  std::vector<double> row_share;     ///< Cartesian: r_i, one per grid row (ratios matter)
  std::vector<double> col_share;     ///< Cartesian: c_j, one per grid column
  /// Cartesian, optional: grid row of each tile row, repeated (ordered_cartesian_ownership);
  /// empty: tile rows dealt by proportional_sequence over row_share. Both or neither.
  std::vector<std::size_t> row_order;
  std::vector<std::size_t> col_order;  ///< Cartesian, optional: as row_order for tile columns
  /// LU and QR on hetscal's layouts (not the caller's): the rank that factorises each panel
  /// (lu_steps.hpp, qr_steps.hpp); ignored by the other routines.
  PanelRank panel_rank = PanelRank::DiagonalOwner;

  /// The distinct processors used, increasing.
  std::vector<std::size_t> processors() const;
};

/// The candidate that computes on the caller's layout as it is (tile = the caller's column
/// block NB). predict() prices a CallerLayout candidate on problem.caller itself (row and
/// column blocks, offsets).
/// @throws InvalidArgument if the caller's grid does not match its processor list.
Candidate caller_layout_candidate(const Problem& problem);

/// The candidate as a tile ownership of the N×N matrix.
/// @throws InvalidArgument on inconsistent sizes, shares, or a zero tile.
TileOwnership ownership_of(const Candidate& candidate, std::size_t n);

/// The candidate as a tile ownership of an M×N matrix (the same classes as for any other
/// shape on their common tiles).
/// @throws InvalidArgument as above.
TileOwnership ownership_of(const Candidate& candidate, MatrixShape shape);

/// The caller's layout of an M×N matrix of `problem` (blocks, offsets, grid).
/// @throws InvalidArgument on a zero size, an offset not inside its block, or a grid that
///   does not match its processor list.
TileOwnership caller_ownership(const Problem& problem, MatrixShape shape);

/// Predicted seconds, by kind of cost.
struct TimeBreakdown {
  double compute = 0.0;
  double panel = 0.0;
  double communication = 0.0;
  double redistribution = 0.0;
  double total() const { return compute + panel + communication + redistribution; }
};

struct Prediction {
  Candidate candidate;
  TimeBreakdown time;
  double moved_bytes = 0.0;           ///< redistribution volume, in and out
  double memory_fraction = 0.0;       ///< max over processors of needed / available bytes
  std::size_t tightest_processor = 0; ///< where memory_fraction is reached
  bool fits_memory() const { return memory_fraction <= 1.0; }
  double total_s() const { return time.total(); }
};

/// Prices one candidate: predict_data, then its steps (add_step_times).
/// @throws InvalidArgument if the platform or problem is invalid (N = 0, Cholesky with
///   m ≠ n, a caller offset not inside its block, caller grid not matching its processor list
///   or naming a processor the platform lacks) or the candidate is inconsistent (sizes,
///   shares, an owner outside the platform, tile = 0).
Prediction predict(const Platform& platform, const Problem& problem, const Candidate& candidate);

/// What predict() charges a candidate besides its steps: the moves of the caller's matrices
/// to its layout and back (time.redistribution, moved_bytes) and the memory each processor
/// needs (memory_fraction); the other times are 0. It walks no step, so a search can drop a
/// candidate that does not fit, or whose moves alone (with its compute_lower_bound) exceed
/// the best total so far, before pricing its steps: at a thousand processors and a slow
/// network, the moves alone rule out most of them.
/// @throws InvalidArgument as predict.
Prediction predict_data(const Platform& platform, const Problem& problem, const Candidate& candidate);

/// What predict_data needs of the caller's layout, alike for every candidate of one problem:
/// a search prices thousands of candidates (1,024 processors, N = 10⁶: building the caller's
/// layout and checking the platform took 26 % of LU's planning), so it makes this once.
struct CallerData {
  std::vector<TileOwnership> layouts;     ///< per group of same-shape matrices of the call
  std::vector<std::vector<double>> held;  ///< per group, elements each processor holds
};

/// Checks the platform and the problem (as predict) and lays out the caller's matrices.
/// @throws InvalidArgument as predict.
CallerData caller_data(const Platform& platform, const Problem& problem);

/// predict_data with the caller's layout made by caller_data(platform, problem).
/// @throws InvalidArgument if the candidate is inconsistent.
Prediction predict_data(const Platform& platform, const Problem& problem, const Candidate& candidate,
                        const CallerData& caller);

/// A lower bound of add_step_times' total for the candidate, from its layout without walking
/// its steps: for LU and QR on hetscal's layouts, the larger of panel_chain_bound.hpp's and
/// update_bound.hpp's (the steps' windows on the sampled steps); for Cholesky,
/// the largest of the slowest owner's updates, the owners' average of received colrow tiles
/// and updates, and, on grids, the chain of colrow phases (cholesky_work_bound.hpp); 0 for the
/// caller's layout and GEMM.
/// @param enough a bound the caller needs no more than (its pruning limit): once a cheap bound
///   exceeds it, the costlier ones (the chain: O(kSampledSteps · classes · log tiles)) are not
///   computed.
/// @throws InvalidArgument as predict.
double step_time_lower_bound(const Platform& platform, const Problem& problem, const Candidate& candidate,
                             double enough = std::numeric_limits<double>::infinity());

/// Completes a prediction from predict_data with the compute, panel and communication times
/// of its candidate's steps (replacing any it had; redistribution is kept).
/// @throws InvalidArgument as predict.
void add_step_times(const Platform& platform, const Problem& problem, Prediction& prediction);

/// What predict() costs for one candidate, estimated from sizes alone, so that a caller can
/// refuse a problem it cannot price in reasonable time or memory before pricing it.
struct PredictionCost {
  double operations = 0.0;  ///< steps × (owner cells + classes + processors) + the overlap count
  double peak_bytes = 0.0;  ///< the class tables and counts a pricing holds at once
};

/// The cost of predict(platform, problem, candidate) for a platform of `processors`: K = ⌈N/nb⌉
/// steps each visit the owner table, the classes and the processors; the overlap with the
/// caller's layout compares pairs of cells (elements_kept); the class tables hold a few entries
/// per tile row and column.
/// Cholesky adds K²·(1 + √P) (its trailing counts and colrow walks, cholesky_steps.hpp).
PredictionCost prediction_cost(const Problem& problem, const Candidate& candidate,
                               std::size_t processors);

/// predict() for each candidate, in the given order.
/// @throws InvalidArgument as predict.
std::vector<Prediction> predict_candidates(const Platform& platform, const Problem& problem,
                                           const std::vector<Candidate>& candidates);

/// The fastest prediction that fits in memory (ties: the earlier candidate).
/// @throws Error if no candidate fits (or the list is empty).
Prediction choose(const std::vector<Prediction>& predictions);

/// predict_candidates then choose.
/// @throws as both.
Prediction choose(const Platform& platform, const Problem& problem,
                  const std::vector<Candidate>& candidates);

}  // namespace hetscal::core
