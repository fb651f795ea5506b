// SVG rendering of a TilePicture. Runs of equal tiles along a row become one rectangle and
// runs of boundary along a line become one segment, which keeps large pictures small.
#include <sstream>

#include "tools/plan/picture.hpp"
#include "tools/plan/picture_layout.hpp"

namespace hetscal::tools::plan {
namespace {

constexpr int kCharWidth = 9;    // advance of a 14px monospace character (legend), for layout
constexpr int kCharHeight = 14;
constexpr const char* kUnownedFill = "#ffffff";
constexpr const char* kFont = "font-family=\"DejaVu Sans, Arial, sans-serif\"";

std::string escape_xml(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string fill_of(std::size_t owner) {
  return owner == TilePicture::kNoOwner ? kUnownedFill : to_hex(processor_colour(owner));
}

void write_tiles(std::ostream& svg, const TileMatrix& m, const MatrixPlacement& at, int s) {
  svg << "<g shape-rendering=\"crispEdges\">\n";
  for (std::size_t i = 0; i < m.tiles; ++i) {
    std::size_t j = 0;
    while (j < m.tiles) {
      std::size_t end = j + 1;
      while (end < m.tiles && m.owner_at(i, end) == m.owner_at(i, j)) ++end;
      svg << "<rect x=\"" << at.x + static_cast<int>(j) * s << "\" y=\"" << at.y + static_cast<int>(i) * s
          << "\" width=\"" << static_cast<int>(end - j) * s << "\" height=\"" << s << "\" fill=\""
          << fill_of(m.owner_at(i, j)) << "\"/>\n";
      j = end;
    }
  }
  svg << "</g>\n";
}

void write_tile_labels(std::ostream& svg, const TileMatrix& m, const MatrixPlacement& at, int s) {
  svg << "<g " << kFont << " font-size=\"" << s * 9 / 20
      << "\" text-anchor=\"middle\" dominant-baseline=\"central\">\n";
  for (std::size_t i = 0; i < m.tiles; ++i)
    for (std::size_t j = 0; j < m.tiles; ++j) {
      const std::size_t owner = m.owner_at(i, j);
      if (owner == TilePicture::kNoOwner) continue;
      svg << "<text x=\"" << at.x + static_cast<int>(j) * s + s / 2 << "\" y=\""
          << at.y + static_cast<int>(i) * s + s / 2 << "\" fill=\""
          << to_hex(text_colour_on(processor_colour(owner))) << "\">" << owner << "</text>\n";
    }
  svg << "</g>\n";
}

void segment(std::ostream& svg, int x1, int y1, int x2, int y2) {
  svg << "<line x1=\"" << x1 << "\" y1=\"" << y1 << "\" x2=\"" << x2 << "\" y2=\"" << y2 << "\"/>\n";
}

// Thin white lines between tiles (when tiles are big enough to see them), thick dark ones
// on the matrix's boundaries (panels, pattern periods or rectangles) and around it.
void write_lines(std::ostream& svg, const TileMatrix& m, const MatrixPlacement& at, int s) {
  const int n = static_cast<int>(m.tiles);
  if (s >= kThinLinesMinTilePx) {
    svg << "<g stroke=\"#ffffff\" stroke-width=\"0.6\">\n";
    for (int k = 1; k < n; ++k) {
      segment(svg, at.x, at.y + k * s, at.x + at.side, at.y + k * s);
      segment(svg, at.x + k * s, at.y, at.x + k * s, at.y + at.side);
    }
    svg << "</g>\n";
  }
  svg << "<g stroke=\"#202020\" stroke-width=\"2.5\" stroke-linecap=\"square\">\n";
  const bool rows = shows_row_boundaries(m, s), cols = shows_col_boundaries(m, s);
  for (std::size_t k = 1; k < m.tiles; ++k) {
    for (std::size_t j = 0; rows && j < m.tiles;) {  // runs of row boundary above tile row k
      if (!m.row_boundary(k, j)) { ++j; continue; }
      std::size_t end = j + 1;
      while (end < m.tiles && m.row_boundary(k, end)) ++end;
      const int y = at.y + static_cast<int>(k) * s;
      segment(svg, at.x + static_cast<int>(j) * s, y, at.x + static_cast<int>(end) * s, y);
      j = end;
    }
    for (std::size_t i = 0; cols && i < m.tiles;) {  // runs of column boundary left of column k
      if (!m.col_boundary(i, k)) { ++i; continue; }
      std::size_t end = i + 1;
      while (end < m.tiles && m.col_boundary(end, k)) ++end;
      const int x = at.x + static_cast<int>(k) * s;
      segment(svg, x, at.y + static_cast<int>(i) * s, x, at.y + static_cast<int>(end) * s);
      i = end;
    }
  }
  svg << "</g>\n<rect x=\"" << at.x << "\" y=\"" << at.y << "\" width=\"" << at.side << "\" height=\""
      << at.side << "\" fill=\"none\" stroke=\"#202020\" stroke-width=\"2.5\"/>\n";
}

void write_matrix(std::ostream& svg, const TileMatrix& m, const MatrixPlacement& at,
                  const PictureLayout& layout) {
  if (!m.caption.empty())
    svg << "<text x=\"" << at.x << "\" y=\"" << at.caption_baseline << "\" " << kFont
        << " font-size=\"14\">" << escape_xml(m.caption) << "</text>\n";
  write_tiles(svg, m, at, layout.tile_px);
  if (layout.label_tiles) write_tile_labels(svg, m, at, layout.tile_px);
  write_lines(svg, m, at, layout.tile_px);
}

void write_legend(std::ostream& svg, const TilePicture& picture, const PictureLayout& layout) {
  const int text_x = layout.legend_x + layout.swatch + kCharWidth;
  svg << "<g font-family=\"DejaVu Sans Mono, Courier New, monospace\" font-size=\"14\" xml:space=\"preserve\" style=\"white-space:pre\">\n";
  svg << "<text x=\"" << layout.legend_x << "\" y=\"" << layout.legend_y + layout.swatch - 4
      << "\" font-weight=\"bold\">" << escape_xml(legend_heading()) << "</text>\n";
  for (std::size_t k = 0; k < picture.legend.size(); ++k) {
    const LegendEntry& entry = picture.legend[k];
    const int top = layout.legend_y + static_cast<int>(k + 1) * layout.legend_line;
    const bool unused = entry.tiles == 0;
    svg << "<rect x=\"" << layout.legend_x << "\" y=\"" << top << "\" width=\"" << layout.swatch
        << "\" height=\"" << layout.swatch << "\" fill=\""
        << (unused ? kUnownedFill : to_hex(processor_colour(entry.processor)))
        << "\" stroke=\"#202020\"/>\n";
    svg << "<text x=\"" << text_x << "\" y=\"" << top + layout.swatch - 4 << "\""
        << (unused ? " fill=\"#808080\"" : "") << ">" << escape_xml(legend_text(entry, picture.unit)) << "</text>\n";
  }
  svg << "</g>\n";
}

}  // namespace

std::string render_svg(const TilePicture& picture) {
  const PictureLayout layout = layout_picture(picture, kCharWidth, kCharHeight);
  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << layout.width << "\" height=\""
      << layout.height << "\" viewBox=\"0 0 " << layout.width << ' ' << layout.height << "\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      << "<text x=\"" << layout.title_x << "\" y=\"" << layout.title_baseline << "\" " << kFont
      << " font-size=\"16\" font-weight=\"bold\">" << escape_xml(picture.title) << "</text>\n";
  for (std::size_t k = 0; k < picture.matrices.size(); ++k)
    write_matrix(svg, picture.matrices[k], layout.matrices[k], layout);
  write_legend(svg, picture, layout);
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace hetscal::tools::plan
