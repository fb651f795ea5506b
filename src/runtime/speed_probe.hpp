#pragma once
/// @file speed_probe.hpp
/// Speed measurement (HETSCAL_PROBE=1 in the shim, NULL speeds in the native API): each rank
/// measures its own DGEMM rate at first use (HeteroPBLAS's automatic speed measurement on the
/// representative kernel, Reddy2009), and the rate of its updates by inner dimension.
#include <vector>

#include "core/time_models/platform.hpp"

namespace hetscal::runtime {

/// The order of the probe's DGEMMs, and the largest short probe's: observations of the same
/// order as the starting estimate measure the same thing (a smaller DGEMM runs at a lower
/// rate, and a slowed rank's sleeps and wake-ups weigh more in it).
inline constexpr int kProbeOrder = 384;

/// The rate of a local n×n DGEMM, in flop/s: the best of three windows, each the median of
/// its runs, so that a moment of another process (or a core waking) during one window does
/// not set it; measured once per process (later calls return the same value). Calls BLAS
/// directly, outside the flop accounting.
double probed_speed();

/// The inner dimensions probed_tile_rates measures.
inline constexpr int kTileRateWidths[] = {1, 2, 4, 8, 16, 32, 64, 128, 256};

/// The rate of DGEMMs of kTileRateOrder² outputs by each inner dimension of kTileRateWidths,
/// as a fraction of probed_speed() (capped at 1): the shapes of a SUMMA step or a trailing
/// update on tiles that wide. Measured once per process, about 10 ms.
std::vector<core::TileRate> probed_tile_rates();
inline constexpr int kTileRateOrder = 256;

/// A fresh, shorter measurement: the median rate of 3 DGEMMs of order `order` (kProbeOrder at
/// most: about 7 ms on one core of 48 Gflop/s), what a rank observes of itself when it has no computed work to
/// observe (forwarded calls), so that speed changes are seen there too.
/// @param order the DGEMMs' order (runtime::short_probe_order sizes it to the call).
double short_probed_speed(int order);

}  // namespace hetscal::runtime
