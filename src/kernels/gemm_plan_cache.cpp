#include "kernels/gemm_plan_cache.hpp"

#include "core/error.hpp"

namespace hetscal::kernels {

std::shared_ptr<const GemmLayout> PlanCache::gemm(std::int64_t m, std::int64_t n, std::int64_t k) {
  const auto key = std::make_tuple(m, n, k);
  auto found = entries_.find(key);
  if (found == entries_.end()) {
    if (entries_.size() >= capacity_) entries_.clear();
    Entry entry;
    try {
      entry.layout = std::make_shared<const GemmLayout>(plan_gemm_layout(speeds_, m, n, k));
    } catch (const InvalidArgument& e) {
      entry.refusal = e.what();
    }
    ++plans_made_;
    found = entries_.emplace(key, std::move(entry)).first;
  }
  if (!found->second.layout) throw InvalidArgument(found->second.refusal);
  return found->second.layout;
}

}  // namespace hetscal::kernels
