#pragma once
/// @file picture_layout.hpp
/// Where things go in a picture: title on top, the tile matrices side by side below it (each
/// under its caption), legend on the right. Pure geometry: text is measured by a function
/// the caller gives (cairo's, when drawing), so the layout is testable without cairo.
#include <functional>
#include <string>
#include <vector>

#include "tools/plan/picture.hpp"

namespace hetscal::tools::plan {

/// Tiles at least this large are separated by thin white lines (smaller ones would drown in
/// them).
constexpr int kThinLinesMinTilePx = 10;

/// The kinds of text a picture holds, each drawn in its own font.
enum class TextStyle {
  Title,          ///< the picture's title
  Caption,        ///< above a tile matrix
  LegendHeading,  ///< the legend's first line
  Legend,         ///< one line per processor (monospace, so that its columns align)
};

/// How large text is drawn.
struct TextMetrics {
  /// Width in pixels of `text` drawn in `style`.
  std::function<int(const std::string& text, TextStyle style)> width;
  /// Height in pixels of a line of text, from its baseline up (the legend's font size).
  int line_height = 14;
};

/// Pixel geometry of one tile matrix.
struct MatrixPlacement {
  int x = 0;  ///< top-left corner of the tiles
  int y = 0;
  int side = 0;
  int caption_baseline = 0;
};

/// Pixel geometry of a picture.
struct PictureLayout {
  int margin = 0;
  int tile_px = 0;         ///< side of one tile, the same in every matrix
  std::vector<MatrixPlacement> matrices;
  int title_x = 0;
  int title_baseline = 0;
  int legend_x = 0;        ///< left of the colour swatches
  int legend_text_x = 0;   ///< left of the legend's text
  int legend_y = 0;        ///< top of the legend heading
  int legend_line = 0;     ///< height of a legend line
  int swatch = 0;          ///< side of a colour swatch
  int width = 0;
  int height = 0;
  bool label_tiles = false;  ///< tiles are large enough to carry their processor's index
};

/// The geometry for `picture` with its text measured by `metrics`.
/// @throws InvalidArgument if `metrics.width` is empty or `metrics.line_height` is not positive.
PictureLayout layout_picture(const TilePicture& picture, const TextMetrics& metrics);

/// Top of legend line `k` (0: the first processor; the heading sits one line above).
inline int legend_line_top(const PictureLayout& layout, std::size_t k) {
  return layout.legend_y + static_cast<int>(k + 1) * layout.legend_line;
}

/// False when periodic lines along rows (columns) would be closer than a few pixels and
/// hide the tiles, or come every tile (a period of 1 has no structure to show).
bool shows_row_boundaries(const TileMatrix& matrix, int tile_px);
bool shows_col_boundaries(const TileMatrix& matrix, int tile_px);

/// One legend line, e.g. "P3   speed 1      t 1      40 tiles".
std::string legend_text(const LegendEntry& entry, const std::string& unit);

/// The heading of the legend.
inline const char* legend_heading() { return "processor, speed, cycle-time"; }

}  // namespace hetscal::tools::plan
