#pragma once
/// @file speeds.hpp
/// Relative processor speeds and their inverse, cycle-times (the papers' t_i: the time one
/// processor needs for one unit of work).
#include <cstddef>
#include <string>
#include <vector>

namespace hetscal::core {

/// Relative speeds of P processors, validated on construction: one finite value > 0 each.
/// Only ratios matter; cycle_time(k) = 1 / speed(k).
class Speeds {
 public:
  /// @throws InvalidArgument if the list is empty or a value is not finite and > 0.
  static Speeds from_speeds(std::vector<double> speeds);
  /// @throws InvalidArgument if the list is empty or a value is not finite and > 0.
  static Speeds from_cycle_times(const std::vector<double>& cycle_times);

  std::size_t size() const { return speeds_.size(); }
  double speed(std::size_t k) const { return speeds_.at(k); }
  double cycle_time(std::size_t k) const { return 1.0 / speeds_.at(k); }
  const std::vector<double>& speeds() const { return speeds_; }
  std::vector<double> cycle_times() const;
  double total_speed() const;

  /// Speeds scaled so that the fastest processor has speed 1 (cycle-times >= 1).
  Speeds normalised() const;

  /// @throws InvalidArgument unless size() == expected; `what` names the list in the message.
  void require_count(std::size_t expected, const std::string& what = "speeds") const;

 private:
  explicit Speeds(std::vector<double> speeds) : speeds_(std::move(speeds)) {}
  std::vector<double> speeds_;
};

/// Checks that every value is finite and > 0.
/// @throws InvalidArgument naming `what` and the first bad value's position.
void require_positive_finite(const std::vector<double>& values, const std::string& what);

}  // namespace hetscal::core
