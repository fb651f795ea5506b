#pragma once
/// @file picture.hpp
/// A picture of a distribution: the n×n tile matrix coloured by owning processor, thick
/// lines between periods (block panels of a grid, or repetitions of a pattern), a title and
/// a legend (processor index, speed, cycle-time). Drawn once through cairo onto a PNG, SVG or
/// PDF surface, in memory first, so that a failure never leaves a partial file behind.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace hetscal::tools::plan {

/// One line of the legend.
struct LegendEntry {
  std::size_t processor = 0;  ///< index in the caller's list (0-based, as printed)
  double speed = 0.0;
  double cycle_time = 0.0;
  std::size_t tiles = 0;      ///< tiles it owns in the (last) matrix (0: unused processor)
};

/// Which thick lines a tile matrix shows.
enum class Boundaries {
  Periodic,      ///< every period_rows tile rows and period_cols tile columns (panels, patterns)
  OwnerChanges,  ///< between neighbouring tiles of different owners (rectangle partitions)
};

/// One n×n tile matrix coloured by owner.
struct TileMatrix {
  static constexpr std::size_t kNoOwner = std::numeric_limits<std::size_t>::max();

  std::string caption;                ///< drawn above the matrix (may be empty)
  std::size_t tiles = 0;              ///< n: n×n tiles
  std::vector<std::size_t> owner;     ///< owner of tile (I,J) at [I * tiles + J], or kNoOwner
  Boundaries boundaries = Boundaries::Periodic;
  std::size_t period_rows = 1;
  std::size_t period_cols = 1;

  std::size_t owner_at(std::size_t i, std::size_t j) const { return owner[i * tiles + j]; }
  /// True when a thick line separates tile row i-1 from i (at column j), 0 < i < tiles.
  bool row_boundary(std::size_t i, std::size_t j) const {
    return boundaries == Boundaries::Periodic ? i % period_rows == 0
                                              : owner_at(i - 1, j) != owner_at(i, j);
  }
  /// True when a thick line separates tile column j-1 from j (at row i), 0 < j < tiles.
  bool col_boundary(std::size_t i, std::size_t j) const {
    return boundaries == Boundaries::Periodic ? j % period_cols == 0
                                              : owner_at(i, j - 1) != owner_at(i, j);
  }
};

/// Everything a picture shows: a title, one or more tile matrices side by side (e.g. before
/// and after a rebalancing), and the legend.
struct TilePicture {
  static constexpr std::size_t kNoOwner = TileMatrix::kNoOwner;

  std::string title;
  std::string unit = "tiles";         ///< what the legend counts ("tiles", "blocks")
  std::vector<TileMatrix> matrices;
  std::vector<LegendEntry> legend;    ///< one entry per processor of the input, in order
};

/// An sRGB colour.
struct Rgb {
  std::uint8_t r = 0, g = 0, b = 0;
};

/// A colour per processor index, distinct for neighbouring indices, stable between runs.
Rgb processor_colour(std::size_t processor);

/// Black or white, whichever reads better on `background`.
Rgb text_colour_on(Rgb background);

/// File formats of the picture (hetscal-plan chooses one by the file name's extension).
enum class PictureFormat { Svg, Png, Pdf };

/// The picture as the bytes of a `format` file, one pixel of the layout being one point of
/// the SVG or PDF page.
/// @throws hetscal::Error naming cairo's status if cairo cannot draw or encode the picture.
std::vector<std::uint8_t> render_picture(const TilePicture& picture, PictureFormat format);

}  // namespace hetscal::tools::plan
