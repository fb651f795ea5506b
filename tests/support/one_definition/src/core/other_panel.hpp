#pragma once
namespace hetscal::core {
inline constexpr int kPanelTag = 3;  // another namespace
}  // namespace hetscal::core
