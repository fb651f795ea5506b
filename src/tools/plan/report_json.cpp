// JSON rendering of the report: the same content as the text, at full precision, with keys
// in a fixed order.
#include <nlohmann/json.hpp>

#include "tools/plan/plan_rebalance.hpp"
#include "tools/plan/report.hpp"

namespace hetscal::tools::plan {
namespace {

using Json = nlohmann::ordered_json;


Json processors_json(const Report& report) {
  Json list = Json::array();
  for (const ProcessorRow& p : report.processors)
    list.push_back({{"index", p.index}, {"speed", p.speed}, {"cycle_time", p.cycle_time}});
  return list;
}

Json figures_json(const core::GridFigures& f) {
  return Json{{"W", f.work_per_time},
              {"W_cyclic", f.cyclic_work_per_time},
              {"speedup", f.predicted_speedup},
              {"efficiency", f.efficiency},
              {"min_busy_fraction", f.min_busy_fraction},
              {"words_per_update", f.words_per_update}};
}

Json shapes_json(const std::vector<ShapeRow>& shapes) {
  Json list = Json::array();
  for (const ShapeRow& row : shapes) {
    Json entry{{"rows", row.rows}, {"cols", row.cols}, {"found_by", to_string(row.found_by)}};
    entry.update(figures_json(row.figures));
    entry["predicted_seconds"] = row.predicted_seconds;
    entry["chosen"] = row.chosen;
    list.push_back(entry);
  }
  return list;
}

Json arrangement_json(const core::Arrangement& a) {
  Json processor = Json::array(), cycle_time = Json::array();
  for (std::size_t i = 0; i < a.rows; ++i) {
    Json processor_row = Json::array(), time_row = Json::array();
    for (std::size_t j = 0; j < a.cols; ++j) {
      processor_row.push_back(a.at(i, j));
      time_row.push_back(a.t(i, j));
    }
    processor.push_back(processor_row);
    cycle_time.push_back(time_row);
  }
  return Json{{"processor", processor}, {"cycle_time", cycle_time}};
}

Json panel_json(const GridReport& grid) {
  const core::PanelPlan& panel = grid.panel;
  return Json{{"rows", panel.panel_rows},
              {"cols", panel.panel_cols},
              {"r", panel.counts.r},
              {"c", panel.counts.c},
              {"row_map", panel.row_of_panel_row},
              {"col_map", panel.col_of_panel_col},
              {"search", panel.search == core::IntegerSearch::Exhaustive ? "exhaustive" : "alternating"},
              {"W", panel.work_per_time},
              {"speedup", grid.panel_speedup}};
}

Json loads_json(const GridReport& grid) {
  Json loads = Json::array();
  for (std::size_t k = 0; k < grid.panel_loads.size(); ++k) {
    const core::ProcessorLoad& load = grid.panel_loads[k];
    loads.push_back({{"processor", load.processor},
                     {"grid_row", load.row},
                     {"grid_col", load.col},
                     {"blocks_per_panel", grid.panel.counts.r[load.row] * grid.panel.counts.c[load.col]},
                     {"busy_fraction", load.busy_fraction},
                     {"rational_busy_fraction", grid.loads[k].busy_fraction}});
  }
  return loads;
}

Json grid_json(const GridReport& grid) {
  Json json{{"rows", grid.arrangement.rows},
            {"cols", grid.arrangement.cols},
            {"found_by", to_string(grid.found_by)},
            {"exact_searched", grid.exact_searched},
            {"arrangement", arrangement_json(grid.arrangement)},
            {"r", grid.shares.r},
            {"c", grid.shares.c}};
  json.update(figures_json(grid.figures));
  json["panel"] = panel_json(grid);
  json["loads"] = loads_json(grid);
  json["unused"] = grid.unused;
  return json;
}

}  // namespace

std::string render_json(const Report& report) {
  Json root;
  if (!report.processors.empty()) {
    root["input_kind"] = to_string(report.input_kind);
    root["processors"] = processors_json(report);
  }
  if (!report.shapes.empty()) root["shapes"] = shapes_json(report.shapes);
  if (report.grid) root["grid"] = grid_json(*report.grid);
  if (report.pattern) root["pattern"] = pattern_json(*report.pattern);
  if (report.rebalance) root["rebalance"] = rebalance_json(*report.rebalance);
  if (report.model) root["model"] = model_json(*report.model);
  if (report.picture_path)
    root["picture"] = Json{{"path", *report.picture_path}, {"tiles", report.picture_tiles}};
  return root.dump(2) + "\n";
}

}  // namespace hetscal::tools::plan
