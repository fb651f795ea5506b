// The drawing of a TilePicture on a cairo surface. Tiles and lines are filled rectangles on
// whole pixels, so the PNG shows exact colours and crisp edges; tiles of one owner, and all
// lines of one kind, form one path filled once, which keeps the SVG and PDF small.
#include <map>
#include <string>
#include <vector>

#include "tools/plan/picture_draw.hpp"

namespace hetscal::tools::plan {
namespace {

constexpr Rgb kWhite{0xff, 0xff, 0xff};
constexpr Rgb kInk{0x20, 0x20, 0x20};
constexpr Rgb kGrey{0x80, 0x80, 0x80};
constexpr int kThickLinePx = 3;  // centred on a boundary: one pixel before it, two after

void set_colour(cairo_t* cr, Rgb colour) {
  cairo_set_source_rgb(cr, colour.r / 255.0, colour.g / 255.0, colour.b / 255.0);
}

void fill_path(cairo_t* cr, Rgb colour) {
  set_colour(cr, colour);
  cairo_fill(cr);
}

Rgb fill_of(std::size_t owner) { return owner == TilePicture::kNoOwner ? kWhite : processor_colour(owner); }

void draw_text(cairo_t* cr, TextStyle style, double x, double baseline, const std::string& text, Rgb colour) {
  select_font(cr, style);
  set_colour(cr, colour);
  cairo_move_to(cr, x, baseline);
  cairo_show_text(cr, text.c_str());
}

// Runs of equal tiles along each row, gathered by owner and filled one path per owner.
void draw_tiles(cairo_t* cr, const TileMatrix& m, const MatrixPlacement& at, int s) {
  struct Run {
    int x, y, width;
  };
  std::map<std::size_t, std::vector<Run>> runs_of_owner;
  for (std::size_t i = 0; i < m.tiles; ++i)
    for (std::size_t j = 0; j < m.tiles;) {
      std::size_t end = j + 1;
      while (end < m.tiles && m.owner_at(i, end) == m.owner_at(i, j)) ++end;
      runs_of_owner[m.owner_at(i, j)].push_back(
          Run{at.x + static_cast<int>(j) * s, at.y + static_cast<int>(i) * s, static_cast<int>(end - j) * s});
      j = end;
    }
  for (const auto& [owner, runs] : runs_of_owner) {
    for (const Run& run : runs) cairo_rectangle(cr, run.x, run.y, run.width, s);
    fill_path(cr, fill_of(owner));
  }
}

// Each owned tile's processor index, centred, in black or white as reads better on its colour.
void draw_tile_labels(cairo_t* cr, const TileMatrix& m, const MatrixPlacement& at, int s) {
  for (std::size_t i = 0; i < m.tiles; ++i)
    for (std::size_t j = 0; j < m.tiles; ++j) {
      const std::size_t owner = m.owner_at(i, j);
      if (owner == TilePicture::kNoOwner) continue;
      const std::string label = std::to_string(owner);
      cairo_text_extents_t extents;
      select_tile_label_font(cr, s, label);
      cairo_text_extents(cr, label.c_str(), &extents);
      const double centre_x = at.x + (static_cast<double>(j) + 0.5) * s;
      const double centre_y = at.y + (static_cast<double>(i) + 0.5) * s;
      set_colour(cr, text_colour_on(processor_colour(owner)));
      cairo_move_to(cr, centre_x - extents.x_bearing - extents.width / 2,
                    centre_y - extents.y_bearing - extents.height / 2);
      cairo_show_text(cr, label.c_str());
    }
}

// A thick line over the segment from (x, y) to (x + w, y + h), one of w and h being 0.
void thick_line(cairo_t* cr, int x, int y, int w, int h) {
  cairo_rectangle(cr, x - 1, y - 1, w + kThickLinePx, h + kThickLinePx);
}

// Thin white lines between tiles when tiles are big enough to see them; thick dark ones on
// the matrix's boundaries (panels, pattern periods or rectangles) and around it. Runs of
// boundary along a line become one rectangle.
void draw_lines(cairo_t* cr, const TileMatrix& m, const MatrixPlacement& at, int s) {
  const int n = static_cast<int>(m.tiles);
  if (s >= kThinLinesMinTilePx) {
    for (int k = 1; k < n; ++k) {
      cairo_rectangle(cr, at.x, at.y + k * s, at.side, 1);
      cairo_rectangle(cr, at.x + k * s, at.y, 1, at.side);
    }
    fill_path(cr, kWhite);
  }
  const bool rows = shows_row_boundaries(m, s), cols = shows_col_boundaries(m, s);
  for (std::size_t k = 1; k < m.tiles; ++k) {
    const int offset = static_cast<int>(k) * s;
    for (std::size_t t = 0; rows && t < m.tiles;) {  // runs of boundary above tile row k
      if (!m.row_boundary(k, t)) { ++t; continue; }
      std::size_t end = t + 1;
      while (end < m.tiles && m.row_boundary(k, end)) ++end;
      thick_line(cr, at.x + static_cast<int>(t) * s, at.y + offset, static_cast<int>(end - t) * s, 0);
      t = end;
    }
    for (std::size_t t = 0; cols && t < m.tiles;) {  // runs of boundary left of tile column k
      if (!m.col_boundary(t, k)) { ++t; continue; }
      std::size_t end = t + 1;
      while (end < m.tiles && m.col_boundary(end, k)) ++end;
      thick_line(cr, at.x + offset, at.y + static_cast<int>(t) * s, 0, static_cast<int>(end - t) * s);
      t = end;
    }
  }
  thick_line(cr, at.x, at.y, at.side, 0);
  thick_line(cr, at.x, at.y + at.side, at.side, 0);
  thick_line(cr, at.x, at.y, 0, at.side);
  thick_line(cr, at.x + at.side, at.y, 0, at.side);
  fill_path(cr, kInk);
}

void draw_legend(cairo_t* cr, const TilePicture& picture, const PictureLayout& layout) {
  const int baseline_in_line = layout.swatch - 4;
  draw_text(cr, TextStyle::LegendHeading, layout.legend_x, layout.legend_y + baseline_in_line,
            legend_heading(), kInk);
  for (std::size_t k = 0; k < picture.legend.size(); ++k) {
    const LegendEntry& entry = picture.legend[k];
    const int top = legend_line_top(layout, k);
    const bool unused = entry.tiles == 0;
    cairo_rectangle(cr, layout.legend_x, top, layout.swatch, layout.swatch);
    fill_path(cr, kInk);
    cairo_rectangle(cr, layout.legend_x + 1, top + 1, layout.swatch - 2, layout.swatch - 2);
    fill_path(cr, unused ? kWhite : processor_colour(entry.processor));
    draw_text(cr, TextStyle::Legend, layout.legend_text_x, top + baseline_in_line,
              legend_text(entry, picture.unit), unused ? kGrey : kInk);
  }
}

}  // namespace

void draw_picture(cairo_t* cr, const TilePicture& picture, const PictureLayout& layout) {
  cairo_rectangle(cr, 0, 0, layout.width, layout.height);
  fill_path(cr, kWhite);
  draw_text(cr, TextStyle::Title, layout.title_x, layout.title_baseline, picture.title, kInk);
  for (std::size_t k = 0; k < picture.matrices.size(); ++k) {
    const TileMatrix& m = picture.matrices[k];
    const MatrixPlacement& at = layout.matrices[k];
    if (!m.caption.empty()) draw_text(cr, TextStyle::Caption, at.x, at.caption_baseline, m.caption, kInk);
    draw_tiles(cr, m, at, layout.tile_px);
    if (layout.label_tiles) draw_tile_labels(cr, m, at, layout.tile_px);
    draw_lines(cr, m, at, layout.tile_px);
  }
  draw_legend(cr, picture, layout);
}

}  // namespace hetscal::tools::plan
