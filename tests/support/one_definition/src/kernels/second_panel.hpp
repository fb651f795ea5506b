#pragma once
#include <complex>

namespace hetscal::kernels::detail {
namespace short_one {
inline constexpr char kBrace = '{';
}
inline constexpr int kPanelTag = 12;
inline constexpr long twice(long x) { return 2 * x; }
inline constexpr const char* kText = "} // namespace {";

template <typename T>
struct Traits {
  static constexpr int kind = 0;
};
template <>
struct Traits<float> {  // a specialisation, not a second definition
  static constexpr int kind = 1;
};

}  // namespace hetscal::kernels::detail

namespace hetscal::kernels {
namespace detail {}
inline constexpr int kSlots = 2;  // another namespace than Panel's member
}  // namespace hetscal::kernels
