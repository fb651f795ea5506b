#include "tools/plan/picture_layout.hpp"

#include <algorithm>
#include <cstdio>

#include "core/common/error.hpp"

namespace hetscal::tools::plan {
namespace {

constexpr int kMatricesTargetPx = 760;  // all matrices together are drawn about this wide
constexpr int kMaxTilePx = 48;
constexpr int kMinTilePx = 1;
constexpr int kLabelMinTilePx = 16;
constexpr int kMatrixGap = 40;
constexpr int kMinPeriodPx = 12;
constexpr int kLegendGap = 18;      // between the last matrix and the legend's swatches
constexpr int kSwatchTextGap = 9;   // between a swatch and its line of text

}  // namespace

bool shows_row_boundaries(const TileMatrix& matrix, int tile_px) {
  return matrix.boundaries != Boundaries::Periodic ||
         (matrix.period_rows > 1 && static_cast<int>(matrix.period_rows) * tile_px >= kMinPeriodPx);
}

bool shows_col_boundaries(const TileMatrix& matrix, int tile_px) {
  return matrix.boundaries != Boundaries::Periodic ||
         (matrix.period_cols > 1 && static_cast<int>(matrix.period_cols) * tile_px >= kMinPeriodPx);
}

std::string legend_text(const LegendEntry& entry, const std::string& unit) {
  char text[96];
  std::snprintf(text, sizeof text, "P%-3zu speed %-6.3g t %-6.3g ", entry.processor, entry.speed,
                entry.cycle_time);
  return text + (entry.tiles == 0 ? std::string("unused") : std::to_string(entry.tiles) + " " + unit);
}

PictureLayout layout_picture(const TilePicture& picture, const TextMetrics& metrics) {
  if (!metrics.width || metrics.line_height <= 0)
    throw InvalidArgument("layout_picture: text metrics need a width function and a positive line height");
  const int line_height = metrics.line_height;
  PictureLayout layout;
  layout.margin = 16;
  std::size_t largest = 1;
  for (const TileMatrix& m : picture.matrices) largest = std::max(largest, m.tiles);
  const int count = std::max(1, static_cast<int>(picture.matrices.size()));
  const int per_matrix = (kMatricesTargetPx - (count - 1) * kMatrixGap) / count;
  layout.tile_px = std::clamp(per_matrix / static_cast<int>(largest), kMinTilePx, kMaxTilePx);
  layout.label_tiles = layout.tile_px >= kLabelMinTilePx;

  layout.title_x = layout.margin;
  layout.title_baseline = layout.margin + line_height;
  const bool captions = std::any_of(picture.matrices.begin(), picture.matrices.end(),
                                    [](const TileMatrix& m) { return !m.caption.empty(); });
  const int caption_height = captions ? line_height + 10 : 0;
  const int top = layout.title_baseline + 14 + caption_height;

  int x = layout.margin;
  int tallest = 0;
  for (const TileMatrix& m : picture.matrices) {
    MatrixPlacement placement;
    placement.x = x;
    placement.y = top;
    placement.side = static_cast<int>(m.tiles) * layout.tile_px;
    placement.caption_baseline = top - 8;
    layout.matrices.push_back(placement);
    x += std::max(placement.side, metrics.width(m.caption, TextStyle::Caption)) + kMatrixGap;
    tallest = std::max(tallest, placement.side);
  }

  layout.swatch = line_height + 4;
  layout.legend_line = layout.swatch + 8;
  layout.legend_x = x - kMatrixGap + kLegendGap;
  layout.legend_text_x = layout.legend_x + layout.swatch + kSwatchTextGap;
  layout.legend_y = top;

  int legend_text_width = metrics.width(legend_heading(), TextStyle::LegendHeading);
  for (const LegendEntry& entry : picture.legend)
    legend_text_width = std::max(legend_text_width, metrics.width(legend_text(entry, picture.unit), TextStyle::Legend));
  const int legend_height = static_cast<int>(picture.legend.size() + 1) * layout.legend_line;
  const int title_width = metrics.width(picture.title, TextStyle::Title);

  layout.width = std::max(layout.legend_text_x + legend_text_width, layout.margin + title_width) + layout.margin;
  layout.height = top + std::max(tallest, legend_height) + layout.margin;
  return layout;
}

}  // namespace hetscal::tools::plan
