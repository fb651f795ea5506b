// render_picture in each format: the PNG decoded by libpng (size, the owners' colours at
// tile centres, the legend's swatches, text in the title and the tiles), the SVG checked as
// well-formed XML of the layout's size, the PDF by its header, page size and embedded font.
#include <png.h>

#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <vector>

#include "tools/plan/picture.hpp"
#include "tools/plan/picture_draw.hpp"
#include "tools/plan/picture_layout.hpp"

namespace hetscal::tools::plan {

// Found by argument-dependent lookup, so they live in Rgb's namespace (here, for tests only).
bool operator==(Rgb a, Rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; }
std::ostream& operator<<(std::ostream& out, Rgb c) {
  return out << '(' << int(c.r) << ',' << int(c.g) << ',' << int(c.b) << ')';
}

namespace {

constexpr Rgb kWhite{0xff, 0xff, 0xff};

struct DecodedPng {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
  Rgb at(int x, int y) const {
    const std::uint8_t* p = &rgb[3 * (static_cast<std::size_t>(y) * width + x)];
    return {p[0], p[1], p[2]};
  }
};

DecodedPng decode_png(const std::vector<std::uint8_t>& bytes) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&image, bytes.data(), bytes.size()))
    ADD_FAILURE() << "libpng cannot read the PNG: " << image.message;
  image.format = PNG_FORMAT_RGB;
  DecodedPng png;
  png.width = static_cast<int>(image.width);
  png.height = static_cast<int>(image.height);
  png.rgb.resize(PNG_IMAGE_SIZE(image));
  if (!png_image_finish_read(&image, nullptr, png.rgb.data(), 0, nullptr))
    ADD_FAILURE() << "libpng cannot decode the PNG: " << image.message;
  return png;
}

bool is_dark(Rgb c) { return c.r < 0x80 && c.g < 0x80 && c.b < 0x80; }

// n×n tiles of owners 0 to 3 in a repeating pattern, one tile owned by nobody, a fifth
// processor unused; periods of 2 rows and 3 columns.
TilePicture test_picture(std::size_t tiles) {
  TilePicture picture;
  picture.title = "Test picture: periodic owners";
  TileMatrix matrix;
  matrix.tiles = tiles;
  matrix.period_rows = 2;
  matrix.period_cols = 3;
  for (std::size_t i = 0; i < tiles; ++i)
    for (std::size_t j = 0; j < tiles; ++j) matrix.owner.push_back((i + 2 * j) % 4);
  matrix.owner[tiles + 1] = TilePicture::kNoOwner;  // tile (1, 1)
  picture.matrices.push_back(matrix);
  for (std::size_t p = 0; p < 5; ++p) picture.legend.push_back(LegendEntry{p, 1.0, 1.0, p < 4 ? tiles : 0});
  return picture;
}

Rgb expected_fill(const TileMatrix& m, std::size_t i, std::size_t j) {
  const std::size_t owner = m.owner_at(i, j);
  return owner == TilePicture::kNoOwner ? kWhite : processor_colour(owner);
}

TEST(PictureRender, PngHasTheLayoutsSizeAndEachTileItsOwnersColour) {
  const TilePicture picture = test_picture(60);
  const PictureLayout layout = layout_picture(picture, cairo_text_metrics());
  const DecodedPng png = decode_png(render_picture(picture, PictureFormat::Png));
  ASSERT_EQ(png.width, layout.width);
  ASSERT_EQ(png.height, layout.height);
  ASSERT_EQ(layout.tile_px, 12);  // 760 / 60: no labels, thin and thick lines off the centres
  const TileMatrix& m = picture.matrices[0];
  const MatrixPlacement& at = layout.matrices[0];
  for (std::size_t i = 0; i < m.tiles; ++i)
    for (std::size_t j = 0; j < m.tiles; ++j)
      ASSERT_EQ(png.at(at.x + static_cast<int>(j) * 12 + 6, at.y + static_cast<int>(i) * 12 + 6), expected_fill(m, i, j))
          << "tile (" << i << ", " << j << ")";
  EXPECT_TRUE(is_dark(png.at(at.x, at.y + 5))) << "the frame's left edge";
  EXPECT_TRUE(is_dark(png.at(at.x + 3 * 12 + 1, at.y + 5))) << "the period line left of tile column 3";
  EXPECT_EQ(png.at(png.width - 1, png.height - 1), kWhite);
}

TEST(PictureRender, PngLegendSwatchesShowEachProcessorsColourAndUnusedOnesWhite) {
  const TilePicture picture = test_picture(60);
  const PictureLayout layout = layout_picture(picture, cairo_text_metrics());
  const DecodedPng png = decode_png(render_picture(picture, PictureFormat::Png));
  for (std::size_t k = 0; k < picture.legend.size(); ++k) {
    const int centre_x = layout.legend_x + layout.swatch / 2;
    const int centre_y = legend_line_top(layout, k) + layout.swatch / 2;
    EXPECT_EQ(png.at(centre_x, centre_y), k < 4 ? processor_colour(k) : kWhite) << "P" << k;
  }
}

TEST(PictureRender, PngTitleAndTileLabelsAreDrawnAsText) {
  const TilePicture picture = test_picture(6);
  const PictureLayout layout = layout_picture(picture, cairo_text_metrics());
  ASSERT_TRUE(layout.label_tiles);
  const DecodedPng png = decode_png(render_picture(picture, PictureFormat::Png));
  int title_ink = 0;
  for (int y = layout.title_baseline - 14; y < layout.title_baseline; ++y)
    for (int x = layout.title_x; x < png.width; ++x) title_ink += is_dark(png.at(x, y));
  EXPECT_GT(title_ink, 100) << "the title's glyphs";
  for (int x = 0; x < png.width; ++x) ASSERT_EQ(png.at(x, layout.margin / 2), kWhite) << "above the title, x " << x;

  // Tile (0, 0) of owner 0: its own colour in the corner, its label's colour at the centre.
  const MatrixPlacement& at = layout.matrices[0];
  const int s = layout.tile_px;
  EXPECT_EQ(png.at(at.x + 4, at.y + 4), processor_colour(0));
  const Rgb label = text_colour_on(processor_colour(0));
  int label_pixels = 0;
  for (int y = at.y + s / 4; y < at.y + 3 * s / 4; ++y)
    for (int x = at.x + s / 4; x < at.x + 3 * s / 4; ++x) label_pixels += png.at(x, y) == label;
  EXPECT_GT(label_pixels, 10) << "the digit 0 in " << label;
}

// Every element closed in order, one root element, tags and quotes balanced: enough to
// tell a well-formed document from a truncated or garbled one.
bool well_formed_xml(const std::string& xml, std::string& root) {
  std::vector<std::string> open;
  int roots = 0;
  for (std::size_t at = xml.find('<'); at != std::string::npos; at = xml.find('<', at)) {
    std::size_t end = at + 1;
    for (char quote = 0; end < xml.size() && (quote || xml[end] != '>'); ++end)
      if (xml[end] == '"' || xml[end] == '\'') quote = quote == xml[end] ? 0 : (quote ? quote : xml[end]);
    if (end >= xml.size()) return false;
    const std::string tag = xml.substr(at + 1, end - at - 1);
    at = end;
    if (tag.empty()) return false;
    if (tag[0] == '?' || tag[0] == '!') continue;  // declaration, comment
    const std::string name = tag.substr(tag[0] == '/', tag.find_first_of(" \n\t/", 1) - (tag[0] == '/'));
    if (tag[0] == '/') {
      if (open.empty() || open.back() != name) return false;
      open.pop_back();
    } else {
      if (open.empty() && ++roots == 1) root = tag;
      if (tag.back() != '/') open.push_back(name);
    }
  }
  return open.empty() && roots == 1;
}

std::string as_text(const std::vector<std::uint8_t>& bytes) { return std::string(bytes.begin(), bytes.end()); }

TEST(PictureRender, SvgIsWellFormedXmlOfTheLayoutsSizeWithGlyphs) {
  const TilePicture picture = test_picture(6);
  const PictureLayout layout = layout_picture(picture, cairo_text_metrics());
  const std::string svg = as_text(render_picture(picture, PictureFormat::Svg));
  std::string root;
  ASSERT_TRUE(well_formed_xml(svg, root));
  EXPECT_EQ(root.rfind("svg ", 0), 0u) << root;
  EXPECT_NE(root.find(" width=\"" + std::to_string(layout.width) + "px\""), std::string::npos) << root;
  EXPECT_NE(root.find(" height=\"" + std::to_string(layout.height) + "px\""), std::string::npos) << root;
  EXPECT_NE(svg.find("<symbol overflow=\"visible\" id=\"glyph"), std::string::npos) << "text drawn as glyphs";
  EXPECT_FALSE(well_formed_xml(svg.substr(0, svg.size() / 2), root)) << "the check rejects a truncated SVG";
}

TEST(PictureRender, PdfHasItsHeaderAPageOfTheLayoutsSizeAndDejaVuEmbedded) {
  const TilePicture picture = test_picture(6);
  const PictureLayout layout = layout_picture(picture, cairo_text_metrics());
  const std::string pdf = as_text(render_picture(picture, PictureFormat::Pdf));
  EXPECT_EQ(pdf.rfind("%PDF-", 0), 0u);
  EXPECT_NE(pdf.find("/MediaBox [ 0 0 " + std::to_string(layout.width) + " " + std::to_string(layout.height) + " ]"),
            std::string::npos);
  EXPECT_NE(pdf.find("+DejaVuSans-Bold"), std::string::npos) << "the title's font";
  EXPECT_NE(pdf.find("+DejaVuSansMono"), std::string::npos) << "the legend's font";
  EXPECT_EQ(pdf.substr(pdf.size() - 6), "%%EOF\n");
}

}  // namespace
}  // namespace hetscal::tools::plan
