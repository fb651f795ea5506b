/// @file owner_reach.cpp
#include "layout/owner_reach.hpp"

#include <algorithm>

namespace hetscal::layout {
namespace {

/// A class, rank or line as an index into a vector.
template <typename Integer>
std::size_t as_index(Integer x) {
  return static_cast<std::size_t>(x);
}

/// The classes of the transposed distribution: rows and columns swap.
OwnerClasses transpose(OwnerClasses c) {
  OwnerClasses t;
  t.row_class = std::move(c.col_class);
  t.col_class = std::move(c.row_class);
  t.class_rows = c.class_cols;
  t.class_cols = c.class_rows;
  t.cells.resize(c.cells.size());
  for (int r = 0; r < t.class_rows; ++r)
    for (int col = 0; col < t.class_cols; ++col)
      t.cells[as_index(r * t.class_cols + col)] = c.cell(col, r);
  return t;
}

/// Decreasing reach, equal reaches by increasing rank.
bool deeper(const OwnerReach::Holder& a, const OwnerReach::Holder& b) {
  return a.reach != b.reach ? a.reach > b.reach : a.rank < b.rank;
}

}  // namespace

template <typename Entry>
std::int64_t OwnerReach::Grouped<Entry>::bytes() const {
  return static_cast<std::int64_t>(sizeof(std::size_t) * start.capacity() +
                                   sizeof(Entry) * entries.capacity());
}

template <typename Entry>
template <typename Earlier>
void OwnerReach::Grouped<Entry>::sort_each(Earlier&& earlier) {
  for (std::size_t x = 0; x + 1 < start.size(); ++x)
    std::sort(entries.begin() + static_cast<std::ptrdiff_t>(start[x]),
              entries.begin() + static_cast<std::ptrdiff_t>(start[x + 1]), earlier);
}

namespace {

/// Groups `keyed` (index, entry) by index in [0, indices), keeping their order within an index
/// (a counting sort).
template <typename Group, typename Entry>
void group_by(std::size_t indices, const std::vector<std::pair<std::size_t, Entry>>& keyed,
              Group& group) {
  group.start.assign(indices + 1, 0);
  for (const auto& k : keyed) ++group.start[k.first + 1];
  for (std::size_t x = 0; x < indices; ++x) group.start[x + 1] += group.start[x];
  group.entries.resize(keyed.size());
  std::vector<std::size_t> next(group.start.begin(), group.start.end() - 1);
  for (const auto& k : keyed) group.entries[next[k.first]++] = k.second;
}

}  // namespace

OwnerReach::OwnerReach(const Distribution& d, bool transposed)
    : rows_(transposed ? d.cols().count() : d.rows().count()),
      cols_(transposed ? d.rows().count() : d.cols().count()) {
  OwnerClasses classes = transposed ? transpose(d.owner_classes()) : d.owner_classes();
  std::vector<std::pair<std::size_t, std::int64_t>> columns;
  for (std::int64_t j = 0; j < cols_; ++j)
    columns.emplace_back(as_index(classes.class_of_col(j)), j);
  group_by(as_index(classes.class_cols), columns, class_cols_);
  last_row_of_class_.assign(as_index(classes.class_rows), -1);
  for (std::int64_t i = 0; i < rows_; ++i)
    last_row_of_class_[as_index(classes.class_of_row(i))] = i;
  col_class_per_tile_.assign(as_index(classes.class_cols), 0);
  for (int r = 0; r < classes.class_rows; ++r)
    for (int c = 0; c < classes.class_cols; ++c)
      if (classes.cell(r, c) == kOwnerPerTile) col_class_per_tile_[as_index(c)] = 1;
  index_cells(classes, d.num_ranks());
  list_class_ranks(classes);
  list_own_tiles(d, classes, transposed);
  row_class_ = std::move(classes.row_class);
  col_class_ = std::move(classes.col_class);
  list_column_holders();
}

void OwnerReach::index_cells(const OwnerClasses& classes, int ranks) {
  // Row-major over the table: each rank's cells come by row, then column class.
  std::vector<std::pair<std::size_t, Cell>> cells;
  for (int r = 0; r < classes.class_rows; ++r)
    for (int c = 0; c < classes.class_cols; ++c)
      if (classes.cell(r, c) != kOwnerPerTile)
        cells.emplace_back(as_index(classes.cell(r, c)), Cell{r, c});
  group_by(as_index(ranks), cells, rank_cells_);
  // Per rank, how deep it reaches in each column class: its deepest row class with tiles.
  std::vector<std::pair<std::size_t, ClassReach>> reaches;
  std::vector<std::pair<std::size_t, Holder>> holders;
  std::vector<ClassReach> mine;
  for (int rank = 0; rank < ranks; ++rank) {
    mine.clear();
    const auto own = rank_cells_.of(rank);
    for (const Cell* cell = own.first; cell != own.second; ++cell) {
      const std::int64_t reach = last_row_of_class_[as_index(cell->row_class)];
      if (reach >= 0) mine.push_back({cell->col_class, reach});
    }
    std::sort(mine.begin(), mine.end(), [](const ClassReach& a, const ClassReach& b) {
      return a.col_class != b.col_class ? a.col_class < b.col_class : a.reach > b.reach;
    });
    for (std::size_t at = 0; at < mine.size(); ++at) {
      if (at > 0 && mine[at].col_class == mine[at - 1].col_class) continue;  // not its deepest
      reaches.emplace_back(as_index(rank), mine[at]);
      holders.emplace_back(as_index(mine[at].col_class), Holder{rank, mine[at].reach});
    }
  }
  group_by(as_index(ranks), reaches, rank_columns_);
  group_by(as_index(classes.class_cols), holders, class_holders_);
  class_holders_.sort_each(deeper);
}

void OwnerReach::list_class_ranks(const OwnerClasses& classes) {
  // The ranks of a row class's cells over columns the matrix has, each once.
  std::vector<std::pair<std::size_t, int>> ranks_by_class;
  std::vector<int> row;
  for (int r = 0; r < classes.class_rows; ++r) {
    row.clear();
    for (int c = 0; c < classes.class_cols; ++c) {
      const auto cols = class_cols_.of(c);
      if (classes.cell(r, c) != kOwnerPerTile && cols.first != cols.second)
        row.push_back(classes.cell(r, c));
    }
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    for (const int rank : row) ranks_by_class.emplace_back(as_index(r), rank);
  }
  group_by(as_index(classes.class_rows), ranks_by_class, class_ranks_);
}

void OwnerReach::list_own_tiles(const Distribution& d, const OwnerClasses& classes,
                                bool transposed) {
  std::vector<std::vector<std::int64_t>> rows_of_class(as_index(classes.class_rows));
  for (std::int64_t i = 0; i < rows_; ++i)
    rows_of_class[as_index(classes.class_of_row(i))].push_back(i);
  std::vector<std::pair<std::size_t, OwnTile>> in_rows, in_cols;
  for (int r = 0; r < classes.class_rows; ++r) {
    for (int c = 0; c < classes.class_cols; ++c) {
      if (classes.cell(r, c) != kOwnerPerTile) continue;
      const auto cols = class_cols_.of(c);
      for (const std::int64_t i : rows_of_class[as_index(r)]) {
        for (const std::int64_t* j = cols.first; j != cols.second; ++j) {
          const int rank = d.owner(transposed ? GlobalTile{*j, i} : GlobalTile{i, *j});
          in_rows.emplace_back(as_index(i), OwnTile{rank, *j});
          in_cols.emplace_back(as_index(*j), OwnTile{rank, i});
        }
      }
    }
  }
  if (in_rows.empty()) return;
  group_by(as_index(rows_), in_rows, row_own_tiles_);
  group_by(as_index(cols_), in_cols, column_own_tiles_);
  row_own_tiles_.sort_each(by_rank_then_line);
  column_own_tiles_.sort_each(by_rank_then_line);
}

void OwnerReach::list_column_holders() {
  // A column of a class with per-tile cells: the class's owners and those of its own tiles,
  // each rank once with its deepest reach.
  std::vector<std::pair<std::size_t, Holder>> holders;
  std::vector<Holder> column;
  for (std::int64_t j = 0; j < cols_; ++j) {
    const int c = col_class_[as_index(j)];
    if (!col_class_per_tile_[as_index(c)]) continue;
    const auto assigned = class_holders_.of(c);
    column.assign(assigned.first, assigned.second);
    const auto own = column_own_tiles_.of(j);
    for (const OwnTile* tile = own.first; tile != own.second; ++tile)
      column.push_back({tile->rank, tile->line});
    std::sort(column.begin(), column.end(), [](const Holder& a, const Holder& b) {
      return a.rank != b.rank ? a.rank < b.rank : a.reach > b.reach;
    });
    column.erase(std::unique(column.begin(), column.end(),
                             [](const Holder& a, const Holder& b) { return a.rank == b.rank; }),
                 column.end());
    std::sort(column.begin(), column.end(), deeper);
    for (const Holder& h : column) holders.emplace_back(as_index(j), h);
  }
  if (!holders.empty()) group_by(as_index(cols_), holders, column_holders_);
}

std::int64_t OwnerReach::largest_col_of_class(int col_class, std::int64_t bound) const {
  const auto cols = class_cols_.of(col_class);
  if (cols.first == cols.second || bound < *cols.first) return -1;
  if (*(cols.second - 1) <= bound) return *(cols.second - 1);
  return *(std::upper_bound(cols.first, cols.second, bound) - 1);
}

std::int64_t OwnerReach::own_tile_reach(const Grouped<OwnTile>& lines, std::int64_t line, int rank,
                                        std::int64_t bound) {
  const auto tiles = lines.of(line);
  const OwnTile* after =
      std::upper_bound(tiles.first, tiles.second, OwnTile{rank, bound}, by_rank_then_line);
  return after != tiles.first && (after - 1)->rank == rank ? (after - 1)->line : -1;
}

std::int64_t OwnerReach::row_reach(int rank, std::int64_t i, std::int64_t bound) const {
  const int row_class = row_class_[as_index(i)];
  const auto cells = rank_cells_.of(rank);
  const Cell* cell = std::lower_bound(cells.first, cells.second, row_class,
                                      [](const Cell& c, int r) { return c.row_class < r; });
  std::int64_t reach = -1;
  for (; cell != cells.second && cell->row_class == row_class; ++cell)
    reach = std::max(reach, largest_col_of_class(cell->col_class, bound));
  return std::max(reach, own_tile_reach(row_own_tiles_, i, rank, bound));
}

std::int64_t OwnerReach::column_reach(int rank, std::int64_t j) const {
  const int col_class = col_class_[as_index(j)];
  const auto classes = rank_columns_.of(rank);
  const ClassReach* at =
      std::lower_bound(classes.first, classes.second, col_class,
                       [](const ClassReach& c, int b) { return c.col_class < b; });
  const std::int64_t reach = at != classes.second && at->col_class == col_class ? at->reach : -1;
  return std::max(reach, own_tile_reach(column_own_tiles_, j, rank, rows_ - 1));
}

std::pair<const OwnerReach::Holder*, const OwnerReach::Holder*> OwnerReach::column_holders(
    std::int64_t j) const {
  const int col_class = col_class_[as_index(j)];
  return col_class_per_tile_[as_index(col_class)] ? column_holders_.of(j)
                                                  : class_holders_.of(col_class);
}

std::int64_t OwnerReach::bytes() const {
  return static_cast<std::int64_t>(sizeof(int) * (row_class_.capacity() + col_class_.capacity()) +
                                   sizeof(std::int64_t) * last_row_of_class_.capacity() +
                                   col_class_per_tile_.capacity()) +
         class_cols_.bytes() + rank_cells_.bytes() + class_ranks_.bytes() + rank_columns_.bytes() +
         class_holders_.bytes() + column_holders_.bytes() + row_own_tiles_.bytes() +
         column_own_tiles_.bytes();
}

}  // namespace hetscal::layout
