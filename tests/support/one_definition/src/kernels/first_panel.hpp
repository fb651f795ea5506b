#pragma once
namespace hetscal::kernels::detail {

inline constexpr int kPanelTag = 2;
inline constexpr int kTileLimit[] = {1, 2};

/// Overloads share a name lawfully.
inline constexpr int twice(int x) { return 2 * x; }

struct Panel {
  static inline constexpr int kSlots = 2;  // a member, not a namespace-scope name
  int slot = 0;
};

}  // namespace hetscal::kernels::detail
