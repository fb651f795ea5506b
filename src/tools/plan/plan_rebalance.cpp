#include "tools/plan/plan_rebalance.hpp"

#include <nlohmann/json.hpp>
#include <sstream>

#include "tools/plan/text_format.hpp"

namespace hetscal::tools::plan {
namespace {

using Json = nlohmann::ordered_json;

const char* kind_name(core::OperationKind kind) {
  switch (kind) {
    case core::OperationKind::ColumnMigration: return "column migration";
    case core::OperationKind::RowMigration: return "row migration";
    case core::OperationKind::LocalSliding: return "local sliding";
  }
  return "?";
}

const char* method_name(core::RebalanceMethod method) {
  return method == core::RebalanceMethod::Optimal ? "optimal" : "greedy (Algorithm 1)";
}

std::string speeds_text(const core::Speeds& speeds) {
  std::string text;
  for (double s : speeds.speeds()) text += (text.empty() ? "" : " ") + format("%.4g", s);
  return text;
}

void print_layout(std::ostream& out, const char* name, const core::BlockLayout& layout) {
  out << name << " layout (columns from the left: width, then processors from the top with heights):\n";
  for (std::size_t k = 0; k < layout.columns.size(); ++k) {
    const core::BlockColumn& column = layout.columns[k];
    out << "  column " << k << ": width " << column.width << ':';
    for (std::size_t j = 0; j < column.processors.size(); ++j)
      out << "  P" << column.processors[j] << " x " << column.heights[j];
    out << '\n';
  }
}

std::string operation_text(const core::Operation& op) {
  std::ostringstream text;
  text << kind_name(op.kind);
  if (op.count > 1) text << " x" << op.count;
  switch (op.kind) {
    case core::OperationKind::ColumnMigration:
      text << ": column " << op.from_column << " -> column " << op.to_column;
      break;
    case core::OperationKind::RowMigration:
      text << ": block row " << op.from_row << " -> owners of block row " << op.to_row;
      break;
    case core::OperationKind::LocalSliding:
      text << ": column " << op.from_column << ", border at block row " << op.from_row;
      break;
  }
  text << "; " << op.blocks_moved << " blocks, cost " << format("%.4g", op.cost) << ';';
  for (const core::Transfer& t : op.transfers)
    text << " P" << t.from << "->P" << t.to << ' ' << t.blocks;
  return text.str();
}

void print_totals(std::ostream& out, const char* name, const core::OperationTotals& totals) {
  out << "  " << name << ": " << totals.operations << " (" << totals.units << " units, "
      << totals.blocks << " blocks, cost " << format("%.4g", totals.cost) << ")\n";
}

Json layout_json(const core::BlockLayout& layout) {
  Json columns = Json::array();
  for (const core::BlockColumn& column : layout.columns)
    columns.push_back({{"width", column.width},
                       {"processors", column.processors},
                       {"heights", column.heights}});
  return columns;
}

Json totals_json(const core::OperationTotals& totals) {
  return Json{{"operations", totals.operations},
              {"units", totals.units},
              {"blocks", totals.blocks},
              {"cost", totals.cost}};
}

Json operation_json(const core::Operation& op) {
  Json transfers = Json::array();
  for (const core::Transfer& t : op.transfers)
    transfers.push_back({{"from", t.from}, {"to", t.to}, {"blocks", t.blocks}});
  return Json{{"kind", kind_name(op.kind)},   {"count", op.count},
              {"from_column", op.from_column}, {"to_column", op.to_column},
              {"from_row", op.from_row},       {"to_row", op.to_row},
              {"blocks_moved", op.blocks_moved}, {"cost", op.cost},
              {"transfers", transfers}};
}

// Owner of every block of an N×N layout, row-major.
std::vector<std::size_t> owners_of(const std::vector<core::BlockRectangle>& rectangles,
                                   std::size_t blocks) {
  std::vector<std::size_t> owner(blocks * blocks, TileMatrix::kNoOwner);
  for (const core::BlockRectangle& r : rectangles)
    for (std::size_t y = r.y; y < r.y + r.height; ++y)
      for (std::size_t x = r.x; x < r.x + r.width; ++x) owner[y * blocks + x] = r.processor;
  return owner;
}

TileMatrix layout_matrix(const std::string& caption,
                         const std::vector<core::BlockRectangle>& rectangles, std::size_t blocks) {
  TileMatrix matrix;
  matrix.caption = caption;
  matrix.tiles = blocks;
  matrix.owner = owners_of(rectangles, blocks);
  matrix.boundaries = Boundaries::OwnerChanges;
  return matrix;
}

std::string to_string(core::RowMigrationCost pricing) {
  return pricing == core::RowMigrationCost::SpannedColumns ? "spanned" : "constant";
}

}  // namespace

RebalanceReport rebalance_report(const core::Speeds& old_speeds, const core::Speeds& new_speeds,
                                 const RebalanceSettings& settings) {
  core::RebalanceOptions options;
  if (settings.blocks) options.blocks = *settings.blocks;
  options.pricing = settings.pricing == RowMigrationPricing::Spanned
                        ? core::RowMigrationCost::SpannedColumns
                        : core::RowMigrationCost::Constant;
  options.method = settings.optimal ? core::RebalanceMethod::Optimal : core::RebalanceMethod::Greedy;
  return RebalanceReport{old_speeds, new_speeds, options,
                         core::plan_rebalance(old_speeds, new_speeds, options)};
}

std::string rebalance_text(const RebalanceReport& report) {
  const core::RebalanceSummary& s = report.summary;
  std::ostringstream out;
  out << "rebalance: " << report.old_speeds.size() << " processors on " << s.blocks << 'x'
      << s.blocks << " blocks (Beaumont, Legrand, Rastello & Robert 2000, section 4)\n"
      << "  old speeds: " << speeds_text(report.old_speeds) << '\n'
      << "  new speeds: " << speeds_text(report.new_speeds) << '\n'
      << "  row migrations priced " << to_string(report.options.pricing) << ", row plan "
      << method_name(report.options.method) << '\n';
  print_layout(out, "old", s.old_layout);
  print_layout(out, "new", s.new_layout);
  out << "blocks per processor (old -> new):";
  for (std::size_t p = 0; p < s.old_loads.size(); ++p)
    out << "  P" << p << ' ' << s.old_loads[p] << "->" << s.new_loads[p];
  out << "\nbalance under the new speeds (ideal time / slowest time): before "
      << format("%.3f", s.balance_before) << ", after " << format("%.3f", s.balance_after) << '\n'
      << "operations (" << s.operations.size() << "):\n";
  for (const core::Operation& op : s.operations) out << "  " << operation_text(op) << '\n';
  out << "totals:\n";
  print_totals(out, "column migrations", s.column_migrations);
  print_totals(out, "row migrations", s.row_migrations);
  print_totals(out, "local slidings", s.local_slidings);
  out << "total cost " << format("%.4g", s.total_cost) << " (slidings only after the column migrations: "
      << format("%.4g", s.slidings_only_cost) << "; a fresh partition for the new speeds would move "
      << s.fresh_partition_blocks << " blocks)\n";
  return out.str();
}

Json rebalance_json(const RebalanceReport& report) {
  const core::RebalanceSummary& s = report.summary;
  Json operations = Json::array();
  for (const core::Operation& op : s.operations) operations.push_back(operation_json(op));
  return Json{{"blocks", s.blocks},
              {"old_speeds", report.old_speeds.speeds()},
              {"new_speeds", report.new_speeds.speeds()},
              {"row_migration_cost", to_string(report.options.pricing)},
              {"method", report.options.method == core::RebalanceMethod::Optimal ? "optimal" : "greedy"},
              {"old_layout", layout_json(s.old_layout)},
              {"new_layout", layout_json(s.new_layout)},
              {"old_loads", s.old_loads},
              {"new_loads", s.new_loads},
              {"balance_before", s.balance_before},
              {"balance_after", s.balance_after},
              {"operations", operations},
              {"column_migrations", totals_json(s.column_migrations)},
              {"row_migrations", totals_json(s.row_migrations)},
              {"local_slidings", totals_json(s.local_slidings)},
              {"total_cost", s.total_cost},
              {"slidings_only_cost", s.slidings_only_cost},
              {"fresh_partition_blocks", s.fresh_partition_blocks}};
}

TilePicture rebalance_picture(const RebalanceReport& report) {
  const core::RebalanceSummary& s = report.summary;
  TilePicture picture;
  picture.unit = "blocks";
  picture.title = "rebalancing " + std::to_string(s.blocks) + "x" + std::to_string(s.blocks) +
                  " blocks: cost " + format("%.4g", s.total_cost) + ", balance " +
                  format("%.2f", s.balance_before) + " -> " + format("%.2f", s.balance_after);
  picture.matrices.push_back(layout_matrix("before (old speeds)", s.old_rectangles, s.blocks));
  picture.matrices.push_back(layout_matrix("after (new speeds)", s.new_rectangles, s.blocks));
  for (std::size_t p = 0; p < report.new_speeds.size(); ++p)
    picture.legend.push_back(LegendEntry{p, report.new_speeds.speed(p),
                                         report.new_speeds.cycle_time(p), s.new_loads[p]});
  return picture;
}

}  // namespace hetscal::tools::plan
