#pragma once
/// @file plan_cache.hpp
/// The plans of one context, by (routine, scalar type, shape, options, speeds). Planning is
/// deterministic, so every rank of a context that asks for the same key gets the same plan;
/// a shape that has no plan (InvalidArgument from the planner) is remembered as refused so
/// it is not planned again, while any other failure (memory, above all) is not remembered:
/// that rank tries again next time, as the others do after the agreement sent them all to
/// ScaLAPACK. Dies with the context.
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "core/common/error.hpp"
#include "runtime/routine.hpp"

namespace hetscal::runtime {

struct PlanKey {
  RoutineId routine;
  std::array<std::int64_t, 3> shape{};  ///< GEMM: M, N, K; factorizations: M, N, 0
  int options = 0;                      ///< what else changes the plan (e.g. UPLO), per routine
  std::uint64_t speeds_version = 0;     ///< bumped when the context's speeds change
  /// The caller's layout, for routines whose plan depends on it (Cholesky prices keeping it
  /// and moving out of it); empty for the others.
  std::vector<std::size_t> caller_layout;

  friend bool operator<(const PlanKey& a, const PlanKey& b) {
    return std::tie(a.routine, a.shape, a.options, a.speeds_version, a.caller_layout) <
           std::tie(b.routine, b.shape, b.options, b.speeds_version, b.caller_layout);
  }
};

class PlanCache {
 public:
  /// @param capacity keys kept; the cache is emptied when full (factorizations call many
  ///        shapes once each, so old entries are rarely worth keeping).
  explicit PlanCache(std::size_t capacity = 64) : capacity_(capacity) {}

  /// The plan of `key`, made by `make` on first request.
  /// @throws InvalidArgument (every time) when `make` refused the key; rethrows anything
  ///         else `make` throws without remembering it.
  template <typename Plan>
  std::shared_ptr<const Plan> find_or_make(const PlanKey& key, const std::function<Plan()>& make) {
    auto found = entries_.find(key);
    if (found == entries_.end()) {
      Entry entry;
      try {
        entry.plan = std::make_shared<const Plan>(make());
      } catch (const InvalidArgument& e) {
        entry.refusal = e.what();
      }
      if (entries_.size() >= capacity_) entries_.clear();
      ++plans_made_;
      found = entries_.emplace(key, std::move(entry)).first;
    }
    if (!found->second.plan) throw InvalidArgument(found->second.refusal);
    return std::static_pointer_cast<const Plan>(found->second.plan);
  }

  /// Whether `key` has an entry (a plan or a refusal).
  bool holds(const PlanKey& key) const { return entries_.count(key) != 0; }
  /// Whether `key` is remembered as refused.
  bool refuses(const PlanKey& key) const {
    const auto found = entries_.find(key);
    return found != entries_.end() && !found->second.plan;
  }
  /// Drops `key`'s entry, if any (the next request makes it again).
  void forget(const PlanKey& key) { entries_.erase(key); }

  std::size_t size() const { return entries_.size(); }
  std::size_t plans_made() const { return plans_made_; }
  void clear() { entries_.clear(); }

 private:
  struct Entry {
    std::shared_ptr<const void> plan;  ///< of the type the key's routine plans
    std::string refusal;               ///< why there is no plan
  };
  std::size_t capacity_;
  std::size_t plans_made_ = 0;
  std::map<PlanKey, Entry> entries_;
};

}  // namespace hetscal::runtime
