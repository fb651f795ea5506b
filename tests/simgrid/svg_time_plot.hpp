#pragma once
/// @file svg_time_plot.hpp
/// A minimal SVG line chart (several series, side-by-side panels; by default simulated time
/// versus N) for the simulated benchmarks, so that no plotting program is needed.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace hetscal::bench {

/// The smallest of 1, 2, 5 × 10^k that is at least `raw`: a round tick spacing.
inline double round_step(double raw) {
  double step = 1.0;
  while (step < raw) step *= 10.0;
  while (step / 10.0 >= raw) step /= 10.0;
  if (step / 5.0 >= raw) return step / 5.0;
  if (step / 2.0 >= raw) return step / 2.0;
  return step;
}

/// `text` with XML's special characters escaped, for titles and names such as "GCR&M".
inline std::string xml_escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '\'') out += "&apos;";
    else out += c;
  }
  return out;
}

struct Series {
  std::string name;
  std::string colour;
  std::vector<double> y;  ///< one value per x
};

struct Panel {
  std::string title;
  std::vector<double> x;
  std::vector<Series> series;
  std::string x_label = "matrix size N";
  std::string y_label = "simulated time (s)";
};

/// Writes the panels side by side to `path`, each with its own axes and labels.
/// @return false when the file cannot be written.
inline bool write_time_plot(const std::string& path, const std::vector<Panel>& panels) {
  const double width = 460, height = 340, left = 70, right = 20, top = 40, bottom = 50;
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (out == nullptr) return false;
  std::fprintf(out, "<svg xmlns='http://www.w3.org/2000/svg' width='%.0f' height='%.0f' "
               "font-family='sans-serif' font-size='12'>\n", width * double(panels.size()), height);
  for (std::size_t p = 0; p < panels.size(); ++p) {
    const Panel& panel = panels[p];
    const double x0 = width * double(p) + left, x1 = width * double(p + 1) - right;
    const double y0 = height - bottom, y1 = top;
    double xmax = 0, ymax = 0;
    for (double x : panel.x) xmax = std::max(xmax, x);
    for (const Series& s : panel.series)
      for (double y : s.y) ymax = std::max(ymax, y);
    if (xmax <= 0 || ymax <= 0) continue;
    const double xstep = round_step(xmax / 5), ystep = round_step(ymax / 5);
    xmax = xstep * std::ceil(xmax / xstep), ymax = ystep * std::ceil(ymax / ystep);
    const auto px = [&](double x) { return x0 + (x1 - x0) * x / xmax; };
    const auto py = [&](double y) { return y0 - (y0 - y1) * y / ymax; };
    std::fprintf(out, "<text x='%.1f' y='22' text-anchor='middle' font-size='14'>%s</text>\n",
                 (x0 + x1) / 2, xml_escaped(panel.title).c_str());
    std::fprintf(out, "<path d='M%.1f %.1fV%.1fH%.1f' fill='none' stroke='black'/>\n", x0, y1, y0, x1);
    for (double xv = 0; xv <= xmax * 1.0001; xv += xstep)
      std::fprintf(out, "<text x='%.1f' y='%.1f' text-anchor='middle'>%g</text>\n", px(xv), y0 + 16, xv);
    for (double yv = 0; yv <= ymax * 1.0001; yv += ystep) {
      std::fprintf(out, "<text x='%.1f' y='%.1f' text-anchor='end'>%g</text>\n", x0 - 4, py(yv) + 4, yv);
      std::fprintf(out, "<path d='M%.1f %.1fH%.1f' stroke='#ddd'/>\n", x0, py(yv), x1);
    }
    std::fprintf(out, "<text x='%.1f' y='%.1f' text-anchor='middle'>%s</text>\n", (x0 + x1) / 2, height - 12,
                 xml_escaped(panel.x_label).c_str());
    std::fprintf(out, "<text transform='translate(%.1f %.1f) rotate(-90)' text-anchor='middle'>%s</text>\n",
                 x0 - 52, (y0 + y1) / 2, xml_escaped(panel.y_label).c_str());
    for (std::size_t s = 0; s < panel.series.size(); ++s) {
      const Series& series = panel.series[s];
      std::string points;
      for (std::size_t i = 0; i < series.y.size() && i < panel.x.size(); ++i)
        points += std::to_string(px(panel.x[i])) + "," + std::to_string(py(series.y[i])) + " ";
      std::fprintf(out, "<polyline points='%s' fill='none' stroke='%s' stroke-width='2'/>\n",
                   points.c_str(), series.colour.c_str());
      const double ly = y1 + 8 + 16 * double(s);
      std::fprintf(out, "<path d='M%.1f %.1fh24' stroke='%s' stroke-width='2'/>"
                   "<text x='%.1f' y='%.1f'>%s</text>\n", x0 + 12, ly, series.colour.c_str(),
                   x0 + 42, ly + 4, xml_escaped(series.name).c_str());
    }
  }
  std::fprintf(out, "</svg>\n");
  return std::fclose(out) == 0;
}

}  // namespace hetscal::bench
