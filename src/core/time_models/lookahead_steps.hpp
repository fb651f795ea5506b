#pragma once
/// @file lookahead_steps.hpp
/// The timing shared by hetscal's LU and QR kernels priced step by step (lu_steps.hpp,
/// qr_steps.hpp): the panel of step k+1 is gathered, factorised and delivered while the
/// other ranks finish step k (lookahead of one). Step k lasts max(window, gather and
/// factorisation + the panel rank's own part of step k, gather and factorisation +
/// delivery); what exceeds the window counts as panel time, and panel 0 is exposed whole.
/// Beyond 2·kSampledSteps steps, the steps are sampled (step_sampling.hpp).
#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

#include "core/time_models/step_sampling.hpp"
#include "core/time_models/time_model.hpp"

namespace hetscal::core {

/// A step's panel on its panel rank.
struct PanelSeconds {
  double gather_and_factor = 0.0;  ///< the tiles gathered, then LAPACK on the panel rank
  double delivery = 0.0;           ///< the factored panel on its way to the ranks that need it
  double total() const { return gather_and_factor + delivery; }
};

/// Sums a kernel's steps with a lookahead of one.
/// @param steps has steps() >= 1 and step(k), the load of step k, with its panel_rank.
/// @param panel_of the PanelSeconds of a load.
/// @param work_of what a load's step does besides its panel: an object with `messages`
///        (communication seconds), exposed() (seconds on the critical path that no
///        lookahead hides, counted as panel time), slowest_compute(), window() (every rank
///        done) and of(x) (rank x done with its own part).
/// @param floors_of per sample of a list of SampledStep, a lower bound of what it adds before
///        its weight (sampled_step_floors): what the steps not yet summed add at least.
/// Long sequences are sampled (step_sampling.hpp): each sampled step k, with step k+1's
/// panel, stands for its stratum. The sum stops early once it, with the floors of the
/// samples still to come, exceeds pricing_limit().
template <typename Steps, typename PanelOf, typename WorkOf, typename FloorsOf>
TimeBreakdown lookahead_time(const Steps& steps, PanelOf panel_of, WorkOf work_of, FloorsOf floors_of) {
  TimeBreakdown t;
  auto load = steps.step(0);
  t.panel += panel_of(load).total();  // nothing to hide it behind
  std::size_t loaded = 0;             // the step `load` holds whole
  const std::vector<SampledStep> samples = sampled_steps(steps.steps());
  const double limit = pricing_limit();  // past it, the rest of the sum cannot matter
  // rest[s]: the floors of samples s, s + 1, …; every step adds at least its floor, so a
  // candidate whose partial sum and rest pass the limit is known to be beyond it long before
  // its last steps (a near tie that loses by 1 % stops about halfway, not at the end).
  std::vector<double> rest(samples.size() + 1, 0.0);
  if (limit < std::numeric_limits<double>::infinity()) {
    const std::vector<double> floors = floors_of(samples);
    for (std::size_t s = samples.size(); s-- > 0;) rest[s] = rest[s + 1] + samples[s].weight * floors[s];
  }
  for (std::size_t s = 0; s < samples.size(); ++s) {
    const SampledStep& sample = samples[s];
    const std::size_t k = sample.step;
    if (k != loaded) load = steps.step(k);
    const auto work = work_of(load);
    t.communication += sample.weight * work.messages;
    t.panel += sample.weight * work.exposed();
    t.compute += sample.weight * work.slowest_compute();
    if (k + 1 == steps.steps()) break;
    if (t.total() + rest[s + 1] > limit) {
      note_pricing_stopped();
      break;
    }
    // Step k + 1 whole where it is the next sample (steps walked one by one), its panel
    // alone where the samples skip it: its swaps and update are never priced.
    const bool walked_next = s + 1 < samples.size() && samples[s + 1].step == k + 1;
    auto next = walked_next ? steps.step(k + 1) : steps.panel_step(k + 1);
    // The step lasts until every rank is done, the panel rank has its next panel factorised
    // before doing its own part, and that panel has reached every rank.
    const PanelSeconds panel = panel_of(next);
    const double step = std::max(
        {work.window(), panel.gather_and_factor + work.of(next.panel_rank), panel.total()});
    t.panel += sample.weight * (step - work.window());
    if (walked_next) {
      load = std::move(next);
      loaded = k + 1;
    }
  }
  return t;
}

}  // namespace hetscal::core
