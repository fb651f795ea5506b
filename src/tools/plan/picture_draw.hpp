#pragma once
/// @file picture_draw.hpp
/// The one drawing code of hetscal-plan's pictures: what picture_layout places, drawn on any
/// cairo surface (image, SVG, PDF), text in DejaVu fonts through cairo's text API.
#include <cairo.h>

#include <string>

#include "tools/plan/picture.hpp"
#include "tools/plan/picture_layout.hpp"

namespace hetscal::tools::plan {

/// Makes `style`'s font (family, weight, size) current on `cr`.
void select_font(cairo_t* cr, TextStyle style);

/// Makes current on `cr` the font of `label` inside a tile of `tile_px` pixels: about half
/// the tile high, smaller when the label would not fit across the tile.
void select_tile_label_font(cairo_t* cr, int tile_px, const std::string& label);

/// Text metrics of the fonts select_font() chooses, measured by cairo, so that the layout
/// leaves room for the text exactly as it will be drawn.
/// @throws hetscal::Error if cairo cannot create the surface it measures on.
TextMetrics cairo_text_metrics();

/// Draws `picture` at `layout`'s places on `cr`, whose surface is layout.width ×
/// layout.height units.
void draw_picture(cairo_t* cr, const TilePicture& picture, const PictureLayout& layout);

}  // namespace hetscal::tools::plan
