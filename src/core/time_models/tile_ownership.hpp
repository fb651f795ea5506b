#pragma once
/// @file tile_ownership.hpp
/// One description that a Cartesian heterogeneous grid, a pattern and the caller's 2D block-
/// cyclic layout all fit, so that the time model prices them with the same code.
///
/// The M×N matrix is cut into tiles (nb×nb, or mb×nb for the caller's ScaLAPACK layout; the
/// first tile row/column is shorter for a submatrix that starts inside a block, the last may be
/// partial). Tile row t falls in row class row_class[t], tile column t in column class
/// col_class[t], and the class table (rows × cols) names the platform processor owning each
/// (row class, column class) pair:
/// - a p×q Cartesian grid: classes are grid rows/columns, tile rows spread over grid rows in
///   proportion to the shares r_i (Boudet et al. 1999 §3.1.2; uniform shares give block-cyclic);
/// - a pattern (Beaumont et al. 2023): classes are pattern rows/columns, t mod R and t mod C;
/// - the caller's block-cyclic layout: classes are BLACS grid rows/columns, t mod P and t mod Q.
#include <cstddef>
#include <limits>
#include <vector>

namespace hetscal::core {

/// Rows × columns of a matrix, in elements.
struct MatrixShape {
  std::size_t rows = 0;
  std::size_t cols = 0;
};

struct TileOwnership {
  std::size_t n = 0;     ///< columns (the order of a square matrix)
  std::size_t tile = 0;  ///< nb: width of a tile column (and height of a tile row unless row_tile)
  std::size_t rows = 0;  ///< row classes
  std::size_t cols = 0;  ///< column classes
  std::vector<std::size_t> owner;      ///< rows·cols platform processors, row-major
  std::vector<std::size_t> row_class;  ///< one per tile row
  std::vector<std::size_t> col_class;  ///< one per tile column
  std::size_t m = 0;           ///< rows; 0: n (square)
  std::size_t row_tile = 0;    ///< mb, height of a tile row; 0: tile (square tiles)
  std::size_t row_offset = 0;  ///< the first tile row is row_block() − row_offset high
  std::size_t col_offset = 0;  ///< the first tile column is tile − col_offset wide
  /// A grid's ownership (Cartesian or the caller's block-cyclic): each processor's tiles form
  /// one column-major local array, which hetscal's kernels update a tile column (or a range
  /// of them) per BLAS call. A pattern's tiles are stored and updated one by one, at the
  /// kernel's per-tile rate (KernelRate).
  bool grouped_updates = false;

  /// Tile rows (tiles per side of a square ownership).
  std::size_t tiles() const { return row_class.size(); }
  std::size_t at(std::size_t a, std::size_t b) const { return owner[a * cols + b]; }
  std::size_t row_extent() const { return m == 0 ? n : m; }
  std::size_t row_block() const { return row_tile == 0 ? tile : row_tile; }
  /// The tile row holding element row e (counted from the matrix's first row).
  std::size_t tile_row_of(std::size_t e) const { return (e + row_offset) / row_block(); }
  /// The tile column holding element column e.
  std::size_t tile_col_of(std::size_t e) const { return (e + col_offset) / tile; }
};

/// One dimension of ScaLAPACK's block-cyclic layout of a (sub)matrix.
struct BlockCyclicAxis {
  std::size_t extent = 0;  ///< elements along this dimension (M or N of the submatrix)
  std::size_t block = 0;   ///< MB or NB
  std::size_t offset = 0;  ///< (IA−1) mod MB: the first block holds block − offset elements
  std::size_t grid = 0;    ///< processes along this dimension (P or Q)
};

/// `count` items dealt to classes in proportion to `shares`: item t goes to the class a that
/// minimises (items_a + 1)/share_a (lowest a on ties), the incremental rule of Boudet et al.
/// §2.3.1. Equal shares give 0, 1, …, k−1, 0, 1, … (cyclic).
/// @throws InvalidArgument if shares is empty or a share is not finite and > 0.
std::vector<std::size_t> proportional_sequence(std::size_t count, const std::vector<double>& shares);

/// The caller's layout: ScaLAPACK's block-cyclic distribution with square blocks of `tile`
/// on a grid_rows × grid_cols grid; processor_at (row-major, empty = 0, 1, 2, … row-major)
/// names the platform processor of each grid position.
/// @throws InvalidArgument on a zero size or a processor_at of the wrong length.
TileOwnership block_cyclic_ownership(std::size_t n, std::size_t tile, std::size_t grid_rows,
                                     std::size_t grid_cols, std::vector<std::size_t> processor_at);

/// The caller's layout of a submatrix: mb×nb blocks, the submatrix starting `offset` elements
/// into its first block along each dimension, that first block on grid position (0, 0).
/// @param rows,cols the submatrix's extent, block, offset and process count per dimension.
/// @param processor_at as above (rows.grid × cols.grid, row-major; empty: 0, 1, 2, …).
/// @throws InvalidArgument on a zero size, an offset >= its block, or a processor_at of the
///   wrong length.
TileOwnership block_cyclic_ownership(const BlockCyclicAxis& rows, const BlockCyclicAxis& cols,
                                     std::vector<std::size_t> processor_at);

/// A heterogeneous Cartesian grid: tile rows dealt to grid rows by proportional_sequence over
/// row_share, tile columns over col_share.
/// @throws InvalidArgument on size mismatches or bad shares.
TileOwnership cartesian_ownership(std::size_t n, std::size_t tile, std::size_t grid_rows,
                                  std::size_t grid_cols, std::vector<std::size_t> processor_at,
                                  const std::vector<double>& row_share,
                                  const std::vector<double>& col_share);

/// The same grid over an M×N matrix (the class sequences of a smaller matrix are prefixes of
/// those of a larger one, so A, B and C of one GEMM agree on a shared dimension).
/// @throws InvalidArgument as above.
TileOwnership cartesian_ownership(MatrixShape shape, std::size_t tile, std::size_t grid_rows,
                                  std::size_t grid_cols, std::vector<std::size_t> processor_at,
                                  const std::vector<double>& row_share,
                                  const std::vector<double>& col_share);

/// A Cartesian grid whose tile rows and columns follow given orders, repeated: tile row t in
/// grid row row_order[t mod row_order.size()], tile column t in col_order[t mod …] (the
/// row_map / col_map of layout::CartesianDistribution).
/// @throws InvalidArgument on size mismatches, an empty order or a class outside the grid.
TileOwnership ordered_cartesian_ownership(MatrixShape shape, std::size_t tile,
                                          std::size_t grid_rows, std::size_t grid_cols,
                                          std::vector<std::size_t> processor_at,
                                          const std::vector<std::size_t>& row_order,
                                          const std::vector<std::size_t>& col_order);

/// A pattern laid over the matrix cyclically: tile (I, J) -> cell (I mod rows, J mod cols).
/// `owner` holds platform processors (every cell assigned).
/// @throws InvalidArgument on size mismatches.
TileOwnership pattern_ownership(std::size_t n, std::size_t tile, std::size_t rows, std::size_t cols,
                                std::vector<std::size_t> owner);

/// The same pattern over an M×N matrix.
/// @throws InvalidArgument on size mismatches.
TileOwnership pattern_ownership(MatrixShape shape, std::size_t tile, std::size_t rows,
                                std::size_t cols, std::vector<std::size_t> owner);

/// True when no processor owns two cells of the class table (every grid; patterns repeat
/// theirs): the owners of a tile row and of a tile column then share one cell only.
bool has_distinct_owners(const TileOwnership& layout);

/// The processors that own some cell of the class table.
std::size_t distinct_owner_count(const TileOwnership& layout);

/// Matrix elements each of `processors` platform processors holds (edge tiles counted
/// exactly).
std::vector<double> elements_held(const TileOwnership& layout, std::size_t processors);

/// Elements that processor x holds in both `from` and `to` (same M×N): what stays in place
/// when data moves from one layout to the other.
/// @throws InvalidArgument if the matrix shapes differ.
std::vector<double> elements_kept(const TileOwnership& from, const TileOwnership& to,
                                  std::size_t processors);

/// Tiles of each row/column class from a position on: from(s)[a] = #{t >= s : class[t] == a},
/// s in [0, tiles]; what a step model counts a trailing matrix's tiles with. Built in
/// O(tiles) and asked in O(classes · log tiles) for the steps a model samples only: a table
/// of every suffix took O(tiles · classes), 15 million entries for one 1×952 grid at
/// N = 10⁶ and nb = 64, most of the planner's time at that order.
/// Per class < num_classes, the positions t < tiles (all by default) where `classes` holds it,
/// increasing; each list allocated once at its size (a planner makes these for thousands of
/// candidates, and grown lists were a part of its time in reallocations and fresh pages).
std::vector<std::vector<std::size_t>> positions_by_class(const std::vector<std::size_t>& classes,
                                                         std::size_t num_classes,
                                                         std::size_t tiles = std::numeric_limits<std::size_t>::max());

class SuffixClassCounts {
 public:
  /// The first `tiles` entries of `classes` (all of them by default), each < num_classes.
  SuffixClassCounts(const std::vector<std::size_t>& classes, std::size_t num_classes,
                    std::size_t tiles = std::numeric_limits<std::size_t>::max());

  /// Per class, its tiles at positions >= s. @pre s <= tiles.
  std::vector<std::size_t> from(std::size_t s) const;

  /// Tiles of class a at positions >= s.
  std::size_t count(std::size_t s, std::size_t a) const;

 private:
  std::vector<std::vector<std::size_t>> positions_;  ///< per class, increasing
};

}  // namespace hetscal::core
