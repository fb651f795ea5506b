#pragma once
/// @file plan_rebalance.hpp
/// `hetscal-plan --rebalance OLD NEW`: the redistribution of a column-based partition when
/// the speeds change (Beaumont, Legrand, Rastello & Robert 2000, §4), printed as text or JSON
/// and drawn before/after.
#include <nlohmann/json_fwd.hpp>
#include <string>

#include "core/common/speeds.hpp"
#include "core/rebalancing/rebalance.hpp"
#include "tools/plan/options.hpp"
#include "tools/plan/picture.hpp"

namespace hetscal::tools::plan {

/// What --rebalance reports.
struct RebalanceReport {
  core::Speeds old_speeds = core::Speeds::from_speeds({1.0});
  core::Speeds new_speeds = core::Speeds::from_speeds({1.0});
  core::RebalanceOptions options;
  core::RebalanceSummary summary;
};

/// Plans the redistribution from the layout of `old_speeds` to `new_speeds`.
/// @throws InvalidArgument if core refuses the speeds or the settings (message names them).
RebalanceReport rebalance_report(const core::Speeds& old_speeds, const core::Speeds& new_speeds,
                                 const RebalanceSettings& settings);

/// The rebalancing as text.
std::string rebalance_text(const RebalanceReport& report);

/// The rebalancing as JSON.
nlohmann::ordered_json rebalance_json(const RebalanceReport& report);

/// The layouts before and after, side by side, outlined by rectangle; the legend shows
/// the new speeds.
TilePicture rebalance_picture(const RebalanceReport& report);

}  // namespace hetscal::tools::plan
