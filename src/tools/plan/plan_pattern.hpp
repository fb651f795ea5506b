#pragma once
/// @file plan_pattern.hpp
/// `hetscal-plan --pattern KIND`: a distribution pattern (Beaumont et al. 2023) over the
/// given processors, its communication cost T and its load balance over the pictured tile
/// matrix, printed as text or JSON and drawn.
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>

#include "core/common/speeds.hpp"
#include "core/patterns/pattern.hpp"
#include "core/patterns/pattern_cost.hpp"
#include "tools/plan/input.hpp"
#include "tools/plan/picture.hpp"

namespace hetscal::tools::plan {

/// The patterns hetscal-plan can build.
enum class PatternKind {
  BlockCyclic,  ///< 2DBC on a p×q grid of all processors
  G2dbc,        ///< generalised 2DBC for any P (LU)
  Gcrm,         ///< greedy colrow & matching (Cholesky)
  Hetero,       ///< cells in proportion to speed (hetscal's own)
};

/// "2dbc", "g2dbc", "gcrm", "hetero".
std::string to_string(PatternKind kind);

/// The kind named `name` (as to_string writes it).
/// @throws InvalidArgument for any other name.
PatternKind pattern_kind_from(const std::string& name);

/// What --pattern reports.
struct PatternReport {
  PatternKind kind = PatternKind::G2dbc;
  core::Factorization factorization = core::Factorization::LU;
  std::optional<core::Pattern> pattern;  ///< always set by plan_pattern
  double cost = 0.0;                     ///< T: x̄ + ȳ (LU) or z̄ (Cholesky)
  std::optional<double> cost_formula;    ///< G-2DBC's closed form (Lemma 2)
  std::size_t tiles = 0;                 ///< n: balance and picture over n×n tiles
  core::LoadBalance balance;             ///< over the n×n tiles, fair share ∝ speed
};

/// Builds the pattern over all processors of `speeds`. `grid` (--grid) sets the shape of
/// 2DBC (it must use every processor; otherwise the cheapest factorisation) and of hetero
/// (otherwise sized by core); G-2DBC and GCR&M choose their own.
/// @param tiles n of the n×n matrix to balance over; 0 = 2·max(R, C).
/// @throws InvalidArgument if core refuses the input or the grid does not fit.
PatternReport pattern_report(PatternKind kind, const core::Speeds& speeds,
                           const std::optional<Shape>& grid, std::size_t tiles);

/// The pattern section as text.
std::string pattern_text(const PatternReport& report);

/// The pattern section as JSON.
nlohmann::ordered_json pattern_json(const PatternReport& report);

/// The pattern laid over the n×n tile matrix, a thick line every pattern period.
TileMatrix pattern_matrix(const PatternReport& report);

}  // namespace hetscal::tools::plan
