// The picture's geometry, with text measured as 10 pixels per character so that every
// position follows from the layout's rules by hand.
#include "tools/plan/picture_layout.hpp"

#include <gtest/gtest.h>

#include "core/common/error.hpp"

namespace hetscal::tools::plan {
namespace {

constexpr int kCharPx = 10;

TextMetrics fixed_width_metrics() {
  TextMetrics metrics;
  metrics.width = [](const std::string& text, TextStyle) { return static_cast<int>(text.size()) * kCharPx; };
  metrics.line_height = 14;
  return metrics;
}

TileMatrix uniform_matrix(std::size_t tiles, std::string caption = "") {
  TileMatrix matrix;
  matrix.caption = std::move(caption);
  matrix.tiles = tiles;
  matrix.owner.assign(tiles * tiles, 0);
  return matrix;
}

TilePicture picture_of(std::vector<TileMatrix> matrices, std::size_t processors) {
  TilePicture picture;
  picture.title = "t";
  picture.matrices = std::move(matrices);
  for (std::size_t p = 0; p < processors; ++p) picture.legend.push_back(LegendEntry{p, 1.0, 1.0, 1});
  return picture;
}

TEST(PictureLayout, OneMatrixFillsTheTargetWidthWithTheLegendOnItsRight) {
  const TilePicture picture = picture_of({uniform_matrix(40)}, 2);
  const PictureLayout layout = layout_picture(picture, fixed_width_metrics());
  EXPECT_EQ(layout.tile_px, 19);  // 760 / 40
  EXPECT_TRUE(layout.label_tiles);
  EXPECT_EQ(layout.title_baseline, 16 + 14);
  ASSERT_EQ(layout.matrices.size(), 1u);
  EXPECT_EQ(layout.matrices[0].x, 16);
  EXPECT_EQ(layout.matrices[0].y, 30 + 14);  // no caption
  EXPECT_EQ(layout.matrices[0].side, 760);
  EXPECT_EQ(layout.legend_x, 16 + 760 + 18);
  EXPECT_EQ(layout.swatch, 18);
  EXPECT_EQ(layout.legend_text_x, layout.legend_x + 18 + 9);
  EXPECT_EQ(legend_line_top(layout, 1), layout.legend_y + 2 * 26);
  // The legend lines ("P0   speed 1      t 1      1 tiles", 34 characters) are wider than
  // the heading (28).
  EXPECT_EQ(legend_text(picture.legend[0], picture.unit).size(), 34u);
  EXPECT_EQ(layout.width, layout.legend_text_x + 34 * kCharPx + 16);
  EXPECT_EQ(layout.height, 44 + 760 + 16);
}

TEST(PictureLayout, TwoCaptionedMatricesShareTheWidthAndALongCaptionPushesTheSecond) {
  const std::string long_caption(50, 'c');  // 500 px, wider than a 360 px matrix
  const TilePicture picture = picture_of({uniform_matrix(60, long_caption), uniform_matrix(60, "after")}, 1);
  const PictureLayout layout = layout_picture(picture, fixed_width_metrics());
  EXPECT_EQ(layout.tile_px, 6);  // (760 - 40) / 2 / 60
  EXPECT_FALSE(layout.label_tiles);
  ASSERT_EQ(layout.matrices.size(), 2u);
  EXPECT_EQ(layout.matrices[0].y, 30 + 14 + 14 + 10);
  EXPECT_EQ(layout.matrices[0].caption_baseline, layout.matrices[0].y - 8);
  EXPECT_EQ(layout.matrices[1].x, 16 + 500 + 40);
  EXPECT_EQ(layout.legend_x, layout.matrices[1].x + 360 + 18);
}

TEST(PictureLayout, TileSizeIsClampedBetweenOneAndFortyEightPixels) {
  EXPECT_EQ(layout_picture(picture_of({uniform_matrix(1024)}, 1), fixed_width_metrics()).tile_px, 1);
  EXPECT_EQ(layout_picture(picture_of({uniform_matrix(2)}, 1), fixed_width_metrics()).tile_px, 48);
}

TEST(PictureLayout, ALongTitleWidensThePicture) {
  TilePicture picture = picture_of({uniform_matrix(40)}, 1);
  picture.title = std::string(200, 'x');
  EXPECT_EQ(layout_picture(picture, fixed_width_metrics()).width, 16 + 2000 + 16);
}

TEST(PictureLayout, PeriodicLinesAreShownOnlyWhenTheyAreFarEnoughApart) {
  TileMatrix matrix = uniform_matrix(8);
  matrix.period_rows = 2;
  matrix.period_cols = 1;
  EXPECT_TRUE(shows_row_boundaries(matrix, 6));   // 12 px apart
  EXPECT_FALSE(shows_row_boundaries(matrix, 5));  // 10 px apart
  EXPECT_FALSE(shows_col_boundaries(matrix, 48)); // every tile: no structure
  matrix.boundaries = Boundaries::OwnerChanges;
  EXPECT_TRUE(shows_col_boundaries(matrix, 1));
}

TEST(PictureLayout, LegendTextNamesUnusedProcessors) {
  EXPECT_EQ(legend_text(LegendEntry{3, 0.25, 4.0, 40}, "tiles"), "P3   speed 0.25   t 4      40 tiles");
  EXPECT_EQ(legend_text(LegendEntry{8, 0.125, 8.0, 0}, "tiles"), "P8   speed 0.125  t 8      unused");
}

TEST(PictureLayout, RefusesMetricsWithoutAWidthOrLineHeight) {
  const TilePicture picture = picture_of({uniform_matrix(4)}, 1);
  TextMetrics metrics = fixed_width_metrics();
  metrics.line_height = 0;
  EXPECT_THROW(layout_picture(picture, metrics), InvalidArgument);
  EXPECT_THROW(layout_picture(picture, TextMetrics{}), InvalidArgument);
}

}  // namespace
}  // namespace hetscal::tools::plan
