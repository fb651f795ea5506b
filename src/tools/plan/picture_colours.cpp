#include <cmath>

#include "tools/plan/picture.hpp"

namespace hetscal::tools::plan {
namespace {

// Hand-picked qualitative colours, ordered so that consecutive indices differ strongly.
constexpr Rgb kPalette[] = {
    {0x1f, 0x77, 0xb4}, {0xff, 0x7f, 0x0e}, {0x2c, 0xa0, 0x2c}, {0xd6, 0x27, 0x28},
    {0x94, 0x67, 0xbd}, {0x8c, 0x56, 0x4b}, {0xe3, 0x77, 0xc2}, {0x7f, 0x7f, 0x7f},
    {0xbc, 0xbd, 0x22}, {0x17, 0xbe, 0xcf}, {0xae, 0xc7, 0xe8}, {0xff, 0xbb, 0x78},
    {0x98, 0xdf, 0x8a}, {0xff, 0x98, 0x96}, {0xc5, 0xb0, 0xd5}, {0xc4, 0x9c, 0x94},
    {0xf7, 0xb6, 0xd2}, {0xdb, 0xdb, 0x8d}, {0x9e, 0xda, 0xe5}, {0x39, 0x3b, 0x79},
};
constexpr std::size_t kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);

std::uint8_t channel(double value) {
  return static_cast<std::uint8_t>(std::lround(255.0 * std::fmin(1.0, std::fmax(0.0, value))));
}

// Beyond the palette: hues spread by the golden angle, so any count stays distinguishable
// from its neighbours.
Rgb golden_angle_colour(std::size_t k) {
  const double hue = std::fmod(static_cast<double>(k) * 0.618033988749895, 1.0) * 6.0;
  const double saturation = k % 2 == 0 ? 0.55 : 0.75;
  const double value = k % 3 == 0 ? 0.80 : 0.92;
  const double chroma = value * saturation;
  const double x = chroma * (1.0 - std::fabs(std::fmod(hue, 2.0) - 1.0));
  const double m = value - chroma;
  double r = 0, g = 0, b = 0;
  switch (static_cast<int>(hue)) {
    case 0: r = chroma, g = x; break;
    case 1: r = x, g = chroma; break;
    case 2: g = chroma, b = x; break;
    case 3: g = x, b = chroma; break;
    case 4: r = x, b = chroma; break;
    default: r = chroma, b = x; break;
  }
  return {channel(r + m), channel(g + m), channel(b + m)};
}

}  // namespace

Rgb processor_colour(std::size_t processor) {
  return processor < kPaletteSize ? kPalette[processor] : golden_angle_colour(processor);
}

Rgb text_colour_on(Rgb background) {
  const double luminance = 0.299 * background.r + 0.587 * background.g + 0.114 * background.b;
  return luminance > 150.0 ? Rgb{0x10, 0x10, 0x10} : Rgb{0xff, 0xff, 0xff};
}

}  // namespace hetscal::tools::plan
