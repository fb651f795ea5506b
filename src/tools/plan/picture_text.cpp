// The pictures' fonts, and text measured by cairo for the layout.
#include <cmath>
#include <memory>

#include "core/common/error.hpp"
#include "tools/plan/picture_draw.hpp"

namespace hetscal::tools::plan {
namespace {

constexpr const char* kSans = "DejaVu Sans";
constexpr const char* kMono = "DejaVu Sans Mono";  // the legend pads its columns with spaces
constexpr int kTextPx = 14;
constexpr int kTitlePx = 16;

}  // namespace

void select_font(cairo_t* cr, TextStyle style) {
  const bool mono = style == TextStyle::Legend || style == TextStyle::LegendHeading;
  const bool bold = style == TextStyle::Title || style == TextStyle::LegendHeading;
  cairo_select_font_face(cr, mono ? kMono : kSans, CAIRO_FONT_SLANT_NORMAL,
                         bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, style == TextStyle::Title ? kTitlePx : kTextPx);
}

void select_tile_label_font(cairo_t* cr, int tile_px, const std::string& label) {
  const double nominal = tile_px * 0.45;
  const double room = tile_px - 4.0;  // keep clear of the lines around the tile
  cairo_select_font_face(cr, kSans, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo_set_font_size(cr, nominal);
  cairo_text_extents_t extents;
  cairo_text_extents(cr, label.c_str(), &extents);
  if (extents.width > room) cairo_set_font_size(cr, nominal * room / extents.width);
}

TextMetrics cairo_text_metrics() {
  // Text advances do not depend on the surface; a one-pixel image is enough to measure on.
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
  std::shared_ptr<cairo_t> cr(cairo_create(surface), cairo_destroy);
  cairo_surface_destroy(surface);  // cr holds its own reference
  if (cairo_status(cr.get()) != CAIRO_STATUS_SUCCESS)
    throw Error(std::string("picture: cairo cannot measure text: ") + cairo_status_to_string(cairo_status(cr.get())));
  TextMetrics metrics;
  metrics.line_height = kTextPx;
  metrics.width = [cr](const std::string& text, TextStyle style) {
    select_font(cr.get(), style);
    cairo_text_extents_t extents;
    cairo_text_extents(cr.get(), text.c_str(), &extents);
    return static_cast<int>(std::ceil(extents.x_advance));
  };
  return metrics;
}

}  // namespace hetscal::tools::plan
