// PNG rendering of a TilePicture: drawn on an RGB canvas in memory, then encoded with libpng
// into a byte buffer (the caller writes the file, so a failure leaves no partial file).
#include <png.h>

#include <algorithm>
#include <csetjmp>

#include "core/error.hpp"
#include "tools/plan/picture.hpp"
#include "tools/plan/picture_font.hpp"
#include "tools/plan/picture_layout.hpp"

namespace hetscal::tools::plan {
namespace {

constexpr int kTextScale = 2;                               // legend and title glyphs: 10×14
constexpr int kCharWidth = (kGlyphWidth + 1) * kTextScale;  // advance per character
constexpr int kCharHeight = kGlyphHeight * kTextScale;
constexpr Rgb kWhite{0xff, 0xff, 0xff};
constexpr Rgb kInk{0x20, 0x20, 0x20};
constexpr Rgb kGrey{0x80, 0x80, 0x80};

class Canvas {
 public:
  Canvas(int width, int height) : width_(width), height_(height), pixels_(3u * width * height, 0xff) {}

  void fill(int x, int y, int w, int h, Rgb colour) {
    const int x_end = std::min(x + w, width_), y_end = std::min(y + h, height_);
    for (int row = std::max(y, 0); row < y_end; ++row)
      for (int col = std::max(x, 0); col < x_end; ++col) {
        std::uint8_t* pixel = &pixels_[3u * (static_cast<unsigned>(row) * width_ + col)];
        pixel[0] = colour.r, pixel[1] = colour.g, pixel[2] = colour.b;
      }
  }

  /// Draws `text` with its top-left corner at (x, y), each font pixel `scale` pixels wide.
  void text(int x, int y, const std::string& text, Rgb colour, int scale) {
    for (char c : text) {
      if (const char* const* rows = glyph_rows(c))
        for (int gy = 0; gy < kGlyphHeight; ++gy)
          for (int gx = 0; gx < kGlyphWidth; ++gx)
            if (rows[gy][gx] == '#') fill(x + gx * scale, y + gy * scale, scale, scale, colour);
      x += (kGlyphWidth + 1) * scale;
    }
  }

  int width() const { return width_; }
  int height() const { return height_; }
  const std::uint8_t* row(int y) const { return &pixels_[3u * static_cast<unsigned>(y) * width_]; }

 private:
  int width_, height_;
  std::vector<std::uint8_t> pixels_;
};

// The largest glyph scale (1 to 3) at which `characters` characters fit in a tile.
int label_scale(std::size_t characters, int tile_px) {
  int scale = 3;
  while (scale > 1 && (static_cast<int>(characters) * (kGlyphWidth + 1) * scale > tile_px - 4 ||
                       kGlyphHeight * scale > tile_px / 2))
    --scale;
  return scale;
}

void draw_tiles(Canvas& canvas, const TileMatrix& m, const MatrixPlacement& at, const PictureLayout& layout) {
  const int s = layout.tile_px;
  for (std::size_t i = 0; i < m.tiles; ++i)
    for (std::size_t j = 0; j < m.tiles; ++j) {
      const std::size_t owner = m.owner_at(i, j);
      const int x = at.x + static_cast<int>(j) * s;
      const int y = at.y + static_cast<int>(i) * s;
      const Rgb colour = owner == TilePicture::kNoOwner ? kWhite : processor_colour(owner);
      canvas.fill(x, y, s, s, colour);
      if (layout.label_tiles && owner != TilePicture::kNoOwner) {
        const std::string label = std::to_string(owner);
        const int scale = label_scale(label.size(), s);
        const int text_w = static_cast<int>(label.size()) * (kGlyphWidth + 1) * scale - scale;
        canvas.text(x + (s - text_w) / 2, y + (s - kGlyphHeight * scale) / 2, label,
                    text_colour_on(colour), scale);
      }
    }
}

// Thin white lines between tiles when tiles are big enough to see them; dark ones, three
// pixels wide, on the matrix's boundaries (panels, pattern periods or rectangles) and around.
void draw_lines(Canvas& canvas, const TileMatrix& m, const MatrixPlacement& at, int s) {
  if (s >= kThinLinesMinTilePx)
    for (std::size_t k = 1; k < m.tiles; ++k) {
      const int offset = static_cast<int>(k) * s;
      canvas.fill(at.x, at.y + offset, at.side, 1, kWhite);
      canvas.fill(at.x + offset, at.y, 1, at.side, kWhite);
    }
  const bool rows = shows_row_boundaries(m, s), cols = shows_col_boundaries(m, s);
  for (std::size_t k = 1; k < m.tiles; ++k)
    for (std::size_t t = 0; t < m.tiles; ++t) {
      const int offset = static_cast<int>(k) * s, along = static_cast<int>(t) * s;
      if (rows && m.row_boundary(k, t)) canvas.fill(at.x + along - 1, at.y + offset - 1, s + 3, 3, kInk);
      if (cols && m.col_boundary(t, k)) canvas.fill(at.x + offset - 1, at.y + along - 1, 3, s + 3, kInk);
    }
  canvas.fill(at.x - 1, at.y - 1, at.side + 3, 3, kInk);
  canvas.fill(at.x - 1, at.y + at.side - 1, at.side + 3, 3, kInk);
  canvas.fill(at.x - 1, at.y - 1, 3, at.side + 3, kInk);
  canvas.fill(at.x + at.side - 1, at.y - 1, 3, at.side + 3, kInk);
}

void draw_legend(Canvas& canvas, const TilePicture& picture, const PictureLayout& layout) {
  const int text_x = layout.legend_x + layout.swatch + kCharWidth;
  const int text_dy = (layout.swatch - kGlyphHeight * kTextScale) / 2;
  canvas.text(layout.legend_x, layout.legend_y + text_dy, legend_heading(), kInk, kTextScale);
  for (std::size_t k = 0; k < picture.legend.size(); ++k) {
    const LegendEntry& entry = picture.legend[k];
    const int top = layout.legend_y + static_cast<int>(k + 1) * layout.legend_line;
    const bool unused = entry.tiles == 0;
    canvas.fill(layout.legend_x, top, layout.swatch, layout.swatch, kInk);
    canvas.fill(layout.legend_x + 1, top + 1, layout.swatch - 2, layout.swatch - 2,
                unused ? kWhite : processor_colour(entry.processor));
    canvas.text(text_x, top + text_dy, legend_text(entry, picture.unit), unused ? kGrey : kInk, kTextScale);
  }
}

void append_bytes(png_structp png, png_bytep data, png_size_t length) {
  auto* out = static_cast<std::vector<std::uint8_t>*>(png_get_io_ptr(png));
  out->insert(out->end(), data, data + length);
}

// libpng reports errors by longjmp; nothing with a destructor lives between setjmp and the
// calls that may jump, so the jump is safe.
std::vector<std::uint8_t> encode(const Canvas& canvas) {
  std::vector<std::uint8_t> bytes;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!png || !info) {
    png_destroy_write_struct(&png, nullptr);
    throw Error("picture: libpng could not start");
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    throw Error("picture: libpng failed to encode the picture");
  }
  png_set_write_fn(png, &bytes, append_bytes, nullptr);
  png_set_IHDR(png, info, static_cast<png_uint_32>(canvas.width()), static_cast<png_uint_32>(canvas.height()), 8,
               PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
               PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < canvas.height(); ++y) png_write_row(png, canvas.row(y));
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  return bytes;
}

}  // namespace

std::vector<std::uint8_t> render_png(const TilePicture& picture) {
  const PictureLayout layout = layout_picture(picture, kCharWidth, kCharHeight);
  Canvas canvas(layout.width, layout.height);
  canvas.text(layout.title_x, layout.title_baseline - kCharHeight, picture.title, kInk, kTextScale);
  for (std::size_t k = 0; k < picture.matrices.size(); ++k) {
    const TileMatrix& m = picture.matrices[k];
    const MatrixPlacement& at = layout.matrices[k];
    canvas.text(at.x, at.caption_baseline - kCharHeight, m.caption, kInk, kTextScale);
    draw_tiles(canvas, m, at, layout);
    draw_lines(canvas, m, at, layout.tile_px);
  }
  draw_legend(canvas, picture, layout);
  return encode(canvas);
}

}  // namespace hetscal::tools::plan
