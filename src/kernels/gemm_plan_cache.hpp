#pragma once
/// @file gemm_plan_cache.hpp
/// Planned GEMM layouts of one context, by shape. The context's speeds are fixed once agreed
/// (the shim's context state, the native API's context), so (M, N, K) is the whole key; the cache
/// dies with the context. Shapes that have no plan are remembered too, so a refused shape is not
/// planned again.
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/gemm_layout.hpp"

namespace hetscal::kernels {

class PlanCache {
 public:
  /// @param speeds the context's agreed speeds, one per rank.
  /// @param capacity shapes kept; the cache is emptied when full (factorisations call many
  ///        shapes once each, so old entries are rarely worth keeping).
  explicit PlanCache(std::vector<double> speeds, std::size_t capacity = 64)
      : speeds_(std::move(speeds)), capacity_(capacity) {}

  /// The layout of an M×N×K GEMM, planned on first request.
  /// @throws InvalidArgument (every time) when the shape has no plan.
  std::shared_ptr<const GemmLayout> gemm(std::int64_t m, std::int64_t n, std::int64_t k);

  std::size_t size() const { return entries_.size(); }
  std::size_t plans_made() const { return plans_made_; }

 private:
  struct Entry {
    std::shared_ptr<const GemmLayout> layout;
    std::string refusal;  ///< why there is no layout
  };
  std::vector<double> speeds_;
  std::size_t capacity_;
  std::size_t plans_made_ = 0;
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, Entry> entries_;
};

}  // namespace hetscal::kernels
