#include "core/adaptation/route_ledger.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/common/error.hpp"

namespace hetscal::core {
namespace {

int floor_log2(std::int64_t value) {
  int exponent = 0;
  while (value >>= 1) ++exponent;
  return exponent;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : 0.5 * (values[middle - 1] + values[middle]);
}

std::string correction_text(const char* route, double correction, std::int64_t calls) {
  char text[96];
  std::snprintf(text, sizeof text, "%s measured x%.2f its prediction (%lld call%s)", route,
                correction, static_cast<long long>(calls), calls == 1 ? "" : "s");
  return text;
}

}  // namespace

std::string shape_class(const std::string& routine, const std::vector<std::int64_t>& dims) {
  std::string text = routine + " ";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] <= 0)
      throw InvalidArgument("shape class of " + routine + ": dimension " + std::to_string(dims[i]) +
                            " is not positive");
    text += (i ? "x2^" : "2^") + std::to_string(floor_log2(dims[i]));
  }
  return text;
}

RouteLedger::RouteLedger(LedgerRule rule) : rule_(rule) {
  if (rule_.observations < 1 || rule_.window < rule_.observations)
    throw InvalidArgument("route ledger: " + std::to_string(rule_.observations) + " observations in a window of " +
                          std::to_string(rule_.window) + " (need 1 <= observations <= window)");
  if (rule_.trial_verdict < 1 || rule_.trial_verdict > rule_.observations)
    throw InvalidArgument("route ledger: a trial's verdict after " + std::to_string(rule_.trial_verdict) +
                          " calls (need 1 <= trial_verdict <= observations = " +
                          std::to_string(rule_.observations) + ")");
  if (!(rule_.trial_margin >= 1.0))
    throw InvalidArgument("route ledger: trial margin " + std::to_string(rule_.trial_margin) + " is below 1");
  if (!(rule_.believed_ratio >= 1.0))
    throw InvalidArgument("route ledger: believed ratio " + std::to_string(rule_.believed_ratio) + " is below 1");
}

void RouteLedger::add_class(const std::string& shape_class) {
  if (knows(shape_class)) return;
  Ratios forward, heterogeneous;
  forward.recent.reserve(static_cast<std::size_t>(rule_.window));
  heterogeneous.recent.reserve(static_cast<std::size_t>(rule_.window));
  heterogeneous_.emplace(shape_class, std::move(heterogeneous));
  forward_.emplace(shape_class, std::move(forward));  // last: knows() means both are there
}

void RouteLedger::forget_class(const std::string& shape_class) noexcept {
  forward_.erase(shape_class);
  heterogeneous_.erase(shape_class);
}

void RouteLedger::record(const std::string& shape_class, MeasuredRoute route, double measured_s,
                         double predicted_s) {
  if (!(std::isfinite(measured_s) && measured_s > 0.0 && std::isfinite(predicted_s) && predicted_s > 0.0))
    throw InvalidArgument("route ledger: " + shape_class + " measured " + std::to_string(measured_s) +
                          " s against " + std::to_string(predicted_s) + " s predicted (both must be > 0)");
  add_class(shape_class);
  Ratios& ratios = (route == MeasuredRoute::Forward ? forward_ : heterogeneous_)[shape_class];
  if (ratios.recent.size() == static_cast<std::size_t>(rule_.window)) ratios.recent.erase(ratios.recent.begin());
  ratios.recent.push_back(measured_s / predicted_s);
  ++ratios.count;
}

const RouteLedger::Ratios* RouteLedger::find(const std::string& shape_class, MeasuredRoute route) const {
  const auto& table = route == MeasuredRoute::Forward ? forward_ : heterogeneous_;
  const auto found = table.find(shape_class);
  return found == table.end() ? nullptr : &found->second;
}

double RouteLedger::correction(const std::string& shape_class, MeasuredRoute route) const {
  const Ratios* ratios = find(shape_class, route);
  if (!ratios || ratios->count == 0) return 0.0;
  if (ratios->count >= rule_.observations) return median(ratios->recent);
  return ratios->recent.back() > rule_.believed_ratio ? ratios->recent.back() : 0.0;
}

std::int64_t RouteLedger::calls(const std::string& shape_class, MeasuredRoute route) const {
  const Ratios* ratios = find(shape_class, route);
  return ratios ? ratios->count : 0;
}

double RouteLedger::trial_correction(const std::string& shape_class) const {
  const Ratios* ratios = find(shape_class, MeasuredRoute::Heterogeneous);
  if (!ratios || ratios->count < rule_.trial_verdict) return 0.0;
  return median(ratios->recent);
}

LedgerAdvice RouteLedger::advise(const std::string& shape_class, double forward_s, double heterogeneous_s,
                                 bool equal_speeds, double once_s) const {
  const double forward_correction = correction(shape_class, MeasuredRoute::Forward);
  const double own_correction = correction(shape_class, MeasuredRoute::Heterogeneous);
  LedgerAdvice advice;
  advice.forward_s = forward_s * (forward_correction > 0.0 ? forward_correction : 1.0);
  advice.heterogeneous_s = heterogeneous_s * (own_correction > 0.0 ? own_correction : 1.0) + once_s;
  advice.measured = forward_correction > 0.0 || own_correction > 0.0;
  if (own_correction > 0.0)
    advice.why = correction_text("hetscal", own_correction, find(shape_class, MeasuredRoute::Heterogeneous)->count);
  if (forward_correction > 0.0) {
    advice.why += (advice.why.empty() ? "" : ", ") +
                  correction_text("ScaLAPACK", forward_correction, find(shape_class, MeasuredRoute::Forward)->count);
  }
  const bool faster = advice.heterogeneous_s < advice.forward_s;
  if (!equal_speeds || own_correction > 0.0) {
    advice.route = faster ? MeasuredRoute::Heterogeneous : MeasuredRoute::Forward;
    const bool model_computes = !equal_speeds && heterogeneous_s < forward_s;
    const bool both_measured = own_correction > 0.0 && (equal_speeds || forward_correction > 0.0);
    advice.overrides_model = both_measured && (advice.route == MeasuredRoute::Heterogeneous) != model_computes;
    return advice;
  }
  // A trial whose first calls measured hetscal slower than ScaLAPACK ends there.
  const double early = trial_correction(shape_class);
  if (early > 0.0 && forward_correction > 0.0) {
    const double measured_s = heterogeneous_s * early + once_s;
    const std::int64_t calls = find(shape_class, MeasuredRoute::Heterogeneous)->count;
    advice.why = correction_text("hetscal", early, calls) + (advice.why.empty() ? "" : ", ") + advice.why;
    advice.measured = true;
    if (!(measured_s < advice.forward_s)) {
      advice.heterogeneous_s = measured_s;
      advice.route = MeasuredRoute::Forward;
      return advice;
    }
  }
  // A trial is an investment: what it pays once (the first touch of its copy) serves every
  // later call of the class, so only the recurring prediction must be within the margin.
  // Held against it, that cost decided on its own whether a homogeneous PDGEMM was ever tried:
  // this VM's fresh memory fills at 0.5-9 GB/s from one run to the next, and hetscal's GEMM
  // (N = 3,000 on 2 ranks: 0.47 s a call against ScaLAPACK's 0.52) stayed untried whenever
  // the first touch was priced slow.
  advice.trial = forward_correction > 0.0 && (early > 0.0 || heterogeneous_s <= rule_.trial_margin * forward_s);
  advice.route = advice.trial ? MeasuredRoute::Heterogeneous : MeasuredRoute::Forward;
  return advice;
}

}  // namespace hetscal::core
