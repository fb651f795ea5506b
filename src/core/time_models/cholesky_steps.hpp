#pragma once
/// @file cholesky_steps.hpp
/// The right-looking tiled Cholesky (lower triangle) priced step by step on a tile ownership,
/// as Beaumont, Collin, Eyraud-Dubois & Vérité (Beaumont2023, §III-C, §V) count it: work in
/// one triangle only, and each panel tile L(i,k) sent once to every other node owning a
/// tile of colrow i of the trailing triangle (row i: tiles (i, j), k < j <= i; column i:
/// tiles (j, i), j >= i), since exactly those tiles read it. Summed over the steps of a
/// pattern laid over an m×m tile matrix this is the paper's volume m(m+1)/2 · (T − 1), T the
/// average number of distinct nodes per colrow (cholesky_cost).
///
/// Step k (tile column k, K tiles per side):
///   panel          POTRF of tile (k,k) on its owner (nb³/3 flops), then the TRSM of the
///                  panel tiles (i,k), i > k (nb³ each), on their owners;
///   communication  L(k,k) to the other owners of the panel, then every L(i,k) to its
///                  colrow's other owners; shared bus: all messages add up; switched: the
///                  busiest sender (binomial trees, a sender's broadcasts one after another)
///                  or the busiest receiver (one message per tile it reads), whichever is
///                  longer — what makes few nodes per colrow pay on a switch too;
///   compute        the trailing triangle: SYRK on diagonal tiles (nb³), GEMM below (2nb³),
///                  on their owners (speed × kernel efficiency; a pattern's tiles at the
///                  per-tile rate, KernelRate::update_efficiency).
/// Beyond 2·kSampledSteps steps, the schedule is followed on the sampled steps only (step_sampling.hpp),
/// each standing for its stratum: its durations count `weight` times, as that many steps alike.
/// The steps are scheduled as kernels::cholesky runs them, one clock per processor: step k's
/// update starts on a processor once it is done with step k−1 and panel k has reached every
/// rank (the one wait left: a rank needs the panel before its update); the owner of tile
/// (k+1,k+1) updates and factorises it first, then every processor updates its tiles of
/// logical column k+1 before the rest; the panel owners
/// of step k+1 solve their tiles once both their share of column k+1 and the factor are
/// there, in the middle of their update if need be (no wait for the factor), and panel k+1
/// then travels (its messages' time). Each processor's own sends and receives of a step also
/// take its time (single-threaded MPI moves messages only inside MPI calls), so that the
/// lookahead hides when the panel travels, not what its messages cost. The total is the
/// last clock, so a slow processor's
/// factor and solves on the critical path of every step are priced, as is what the
/// lookahead hides; a heterogeneous grid keeps them balanced with the suffix-balanced
/// ordering (cholesky_ordering.hpp).
#include <cstddef>
#include <vector>

#include "core/time_models/platform.hpp"
#include "core/time_models/tile_ownership.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// One tile sent from `sender` to other processors: CholeskyStepLoad::receivers[first,
/// first + count) (one flat array per step: a step has K − k broadcasts), or, when first is
/// kAggregated, receivers counted in CholeskyStepLoad::aggregated_received only.
struct TileBroadcast {
  static constexpr std::size_t kAggregated = static_cast<std::size_t>(-1);
  std::size_t sender = 0;
  std::size_t first = 0;
  std::size_t count = 0;  ///< distinct processors other than the sender
  double times = 1.0;     ///< tiles sent alike (CholeskySteps' grouped loads; 1 otherwise)
};

/// What step k of the Cholesky loop asks of each processor.
struct CholeskyStepLoad {
  std::size_t diagonal_owner = 0;         ///< owner of tile (k,k): its POTRF
  std::vector<double> trsm_tiles;         ///< per processor: panel tiles (i,k), i > k
  std::vector<double> syrk_tiles;         ///< per processor: trailing diagonal tiles (j,j), j > k
  std::vector<double> gemm_tiles;         ///< per processor: trailing tiles (i,j), k < j < i
  std::vector<TileBroadcast> broadcasts;  ///< L(k,k) first, then L(i,k) for i = k+1, …
  std::vector<std::size_t> receivers;     ///< every listed broadcast's receivers, one after another
  /// Per processor (empty: none): the tiles it receives from the broadcasts whose receivers
  /// are not listed (TileBroadcast::kAggregated: a grouped walk's full colrows, and all its
  /// colrows where the cells have distinct owners).
  std::vector<double> aggregated_received;

  /// The receivers of broadcasts[b].
  /// @pre b < broadcasts.size() and broadcasts[b].first != TileBroadcast::kAggregated.
  std::vector<std::size_t> receivers_of(std::size_t b) const {
    const auto begin = receivers.begin() + static_cast<long>(broadcasts[b].first);
    return {begin, begin + static_cast<long>(broadcasts[b].count)};
  }
};

/// True when the layout has square tiles aligned on the diagonal (row_block() == tile and
/// row_offset == col_offset), so tile (i,i) is a diagonal block: the exact model applies.
bool has_diagonal_tiles(const TileOwnership& layout);

/// Walks the steps of the tiled Cholesky of a square layout, one CholeskyStepLoad at a time,
/// in O(K + classes) per step after an O(K²) start (trailing tiles are counted per class pair).
class CholeskySteps {
 public:
  /// @param layout kept by reference: it must outlive this object.
  /// @param processors platform size; every owner must be smaller.
  /// @param grouped whether step() lists the panel tiles whose colrows reach every row and
  ///   column class alike (same sender, same receivers) as one broadcast of `times` tiles,
  ///   their receivers not listed but counted per processor (aggregated_received), which
  ///   makes a step O(K + class pairs + Σ_x rows(x)·cols(x)) instead of O(K · receivers);
  ///   on a layout whose cells have distinct owners (every grid), the colrows that do not
  ///   reach every class yet are counted too: one broadcast each, in tile order, its group
  ///   known from the classes it reaches, its receivers counted with the others (O(K + class
  ///   pairs) a step); otherwise one broadcast per tile, in tile order, every receiver listed.
  /// @throws InvalidArgument if the layout is not square (row_class and col_class sizes
  ///   differ), has no diagonal tiles (has_diagonal_tiles), or names a processor >= processors.
  CholeskySteps(const TileOwnership& layout, std::size_t processors, bool grouped = false);

  std::size_t steps() const { return tiles_; }

  /// The load of step k. Steps must be visited in increasing order, some may be skipped (the
  /// trailing counts shrink as they go, O(row classes) per step passed).
  /// @throws InvalidArgument if k is below a step already visited or >= steps().
  CholeskyStepLoad step(std::size_t k);

  /// step(k) written into `load`, whose vectors keep their capacity: a walk of a large layout
  /// lists millions of receivers per step, and fresh vectors each step cost more in
  /// reallocation and page faults than the step's own pricing.
  void step(std::size_t k, CholeskyStepLoad& load);

 private:
  void drop_column(std::size_t j);  ///< removes tile column j (the next one) from the trailing counts
  /// Removes tile columns dropped_through_ + 1 … k from the trailing counts: one by one, or,
  /// on a tall owner table (a p×1 grid at thousands of ranks: O(K · row classes) column by
  /// column), together when they are many.
  void drop_columns_through(std::size_t k);
  /// Step 0's trailing counts tile row by tile row: O(K · column classes), for a tall owner table.
  void count_trailing_by_rows();
  /// Panel k's TRSM tiles per owner, and L(k, k)'s receivers in scratch_owners_.
  void add_panel_solves(CholeskyStepLoad& load, std::size_t k);
  /// The full colrows from tile row `first` on (every column class seen since the panel),
  /// into group_tiles_ per pair, up to the first that is not full; @return that row (or tiles_).
  std::size_t add_full_colrows(std::size_t first, const std::vector<char>& cols_seen, std::size_t cols_seen_count,
                               bool counted);
  void add_colrow_broadcasts(CholeskyStepLoad& load, std::size_t k);  ///< L(i,k), i > k
  /// Distinct owners of trailing colrow i (cached once the colrow is complete).
  const std::vector<std::size_t>& colrow_owners(std::size_t i, const std::vector<char>& cols_seen,
                                                std::size_t cols_seen_count);
  /// Appends `owners` but `sender` to load.receivers as one broadcast.
  static void add_broadcast(CholeskyStepLoad& load, std::size_t sender,
                            const std::vector<std::size_t>& owners);
  /// load.aggregated_received of the step's grouped pairs (group_tiles_, group_pairs_).
  void add_grouped_receivers(CholeskyStepLoad& load, std::size_t panel_class);
  /// rows_of_ and cols_of_, on the first grouped step.
  void list_lines_of_owners();
  /// load.aggregated_received of every colrow of step k, counted per cell.
  /// @pre distinct_owners_.
  void count_colrow_receivers(CholeskyStepLoad& load, std::size_t k);

  const TileOwnership& layout_;
  std::size_t processors_, tiles_, next_step_ = 0;
  bool grouped_;
  std::size_t dropped_through_ = 0;           ///< tile columns 0 … this one are out of the trailing counts
  std::vector<double> rows_after_dropped_;    ///< per row class: tile rows i > dropped_through_ + 1
  std::vector<double> group_tiles_;           ///< scratch [a*cols+b]: grouped colrow tiles of a step
  std::vector<std::size_t> group_pairs_;      ///< scratch: the pairs group_tiles_ holds
  std::vector<double> diagonal_count_;          ///< [a*cols+b]: trailing diagonal tiles of the pair
  std::vector<double> below_count_;             ///< [b*rows+a] (by column class): trailing tiles strictly below
  std::vector<double> dropped_columns_;         ///< scratch of drop_columns_through, per column class
  std::vector<std::size_t> row_classes_after_;  ///< distinct row classes among tile rows >= i
  std::size_t row_classes_used_ = 0, col_classes_used_ = 0;
  std::vector<std::vector<std::size_t>> full_colrow_;  ///< [a*cols+b], lazily filled
  std::vector<char> full_colrow_known_;
  std::vector<std::size_t> owner_stamp_;  ///< scratch: step of the walk that last met a processor
  std::vector<std::size_t> row_stamp_;    ///< scratch: the same for row classes
  std::size_t stamp_ = 0;
  std::vector<std::size_t> scratch_owners_;
  /// Per processor x, the used row classes a with a cell (a, c) of x, c a used column class
  /// (x is in every full colrow of row class a), and the used column classes c with a cell
  /// (a, c) of x, a a used row class (x is in every full colrow of column class c).
  std::vector<std::vector<std::size_t>> rows_of_, cols_of_;
  std::vector<char> row_used_, col_used_;     ///< classes of some tile row / tile column
  std::vector<double> row_tiles_, col_tiles_;  ///< scratch: a step's grouped tiles per class
  bool distinct_owners_ = false;               ///< no processor owns two cells of the class table
  std::vector<std::size_t> last_row_;          ///< per row class: its last tile row (tiles_: none)
  std::vector<std::size_t> first_col_after_;   ///< scratch: per column class, its first tile column > k
  /// Scratch [a*cols+b] of count_colrow_receivers: the step's colrows of row class a whose row
  /// reaches column class b, and those of column class b whose column reaches row class a.
  std::vector<double> row_reaches_, col_reaches_;
};

/// Compute, panel and communication seconds of the Cholesky of layout's N×N matrix on the
/// schedule above: compute is the busiest processor's update; the rest of the critical path
/// is communication (at most the messages' own time, what the lookahead did not hide) and
/// panel (factorisations, solves and the waits for them). Their sum is the critical path.
/// @pre has_diagonal_tiles(layout); owners < platform.size().
/// @throws InvalidArgument as CholeskySteps.
TimeBreakdown simulate_cholesky(const Platform& platform, const TileOwnership& layout);

/// Tiles sent over the whole factorisation (Σ over steps and broadcasts of receivers): the
/// volume m(m+1)/2 · (T − 1) of the paper, counted exactly.
/// @throws InvalidArgument as CholeskySteps.
double cholesky_volume_tiles(const TileOwnership& layout, std::size_t processors);

}  // namespace hetscal::core
