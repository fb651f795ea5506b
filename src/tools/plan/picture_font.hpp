#pragma once
/// @file picture_font.hpp
/// A 5×8 bitmap font for the PNG pictures: digits, letters, and the punctuation the legend
/// and titles use. Other characters draw as blanks.

namespace hetscal::tools::plan {

constexpr int kGlyphWidth = 5;
constexpr int kGlyphHeight = 8;  ///< the last row holds descenders (g, j, p, q, y)

/// The kGlyphHeight rows of `c`'s glyph, each a string of kGlyphWidth characters where '#' is ink.
/// @return nullptr for a character the font does not have (drawn as a space).
const char* const* glyph_rows(char c);

}  // namespace hetscal::tools::plan
