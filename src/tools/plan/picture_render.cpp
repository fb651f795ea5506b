// The three back-ends of render_picture: a cairo surface per format, all writing into a byte
// buffer (the caller writes the file atomically), all drawn by draw_picture.
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>

#include <memory>
#include <new>

#include "core/common/error.hpp"
#include "tools/plan/picture_draw.hpp"

namespace hetscal::tools::plan {
namespace {

using Bytes = std::vector<std::uint8_t>;
using SurfacePtr = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;

// cairo's write callback: appends to the Bytes `closure` points to. No exception may cross
// cairo's C frames, so a failed allocation becomes cairo's own error status.
cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int length) {
  try {
    auto* bytes = static_cast<Bytes*>(closure);
    bytes->insert(bytes->end(), data, data + length);
    return CAIRO_STATUS_SUCCESS;
  } catch (const std::bad_alloc&) {
    return CAIRO_STATUS_NO_MEMORY;
  }
}

void require_success(cairo_status_t status, const char* step) {
  if (status != CAIRO_STATUS_SUCCESS)
    throw Error(std::string("picture: cairo failed to ") + step + ": " + cairo_status_to_string(status));
}

SurfacePtr create_surface(PictureFormat format, const PictureLayout& layout, Bytes& bytes) {
  const double width = layout.width, height = layout.height;
  switch (format) {
    case PictureFormat::Png:
      return {cairo_image_surface_create(CAIRO_FORMAT_RGB24, layout.width, layout.height), cairo_surface_destroy};
    case PictureFormat::Pdf:
      return {cairo_pdf_surface_create_for_stream(append_bytes, &bytes, width, height), cairo_surface_destroy};
    case PictureFormat::Svg: {
      SurfacePtr surface(cairo_svg_surface_create_for_stream(append_bytes, &bytes, width, height),
                         cairo_surface_destroy);
      cairo_svg_surface_set_document_unit(surface.get(), CAIRO_SVG_UNIT_PX);  // one pixel per unit
      return surface;
    }
  }
  throw Error("picture: unknown picture format");
}

}  // namespace

std::vector<std::uint8_t> render_picture(const TilePicture& picture, PictureFormat format) {
  const PictureLayout layout = layout_picture(picture, cairo_text_metrics());
  Bytes bytes;
  SurfacePtr surface = create_surface(format, layout, bytes);
  require_success(cairo_surface_status(surface.get()), "create the surface");
  {
    std::unique_ptr<cairo_t, decltype(&cairo_destroy)> cr(cairo_create(surface.get()), cairo_destroy);
    draw_picture(cr.get(), picture, layout);
    require_success(cairo_status(cr.get()), "draw the picture");
  }
  if (format == PictureFormat::Png)
    require_success(cairo_surface_write_to_png_stream(surface.get(), append_bytes, &bytes), "encode the PNG");
  cairo_surface_finish(surface.get());  // vector surfaces write their last bytes here
  require_success(cairo_surface_status(surface.get()), "write the picture");
  return bytes;
}

}  // namespace hetscal::tools::plan
