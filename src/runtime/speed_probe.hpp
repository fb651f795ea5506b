#pragma once
/// @file speed_probe.hpp
/// Speed measurement (HETSCAL_PROBE=1 in the shim, NULL speeds in the native API): each rank
/// measures its own DGEMM rate at first use (HeteroPBLAS's automatic speed measurement on the
/// representative kernel, Reddy2009).

namespace hetscal::runtime {

/// The order of the probe's DGEMMs, and the largest short probe's: observations of the same
/// order as the starting estimate measure the same thing (a smaller DGEMM runs at a lower
/// rate, and a slowed rank's sleeps and wake-ups weigh more in it).
inline constexpr int kProbeOrder = 384;

/// The median over several runs of a local n×n DGEMM, in flop/s; measured once per process
/// (later calls return the same value). Calls BLAS directly, outside the flop accounting.
double probed_speed();

/// A fresh, shorter measurement: the median rate of 3 DGEMMs of order `order` (kProbeOrder at
/// most: about 7 ms on one core of 48 Gflop/s), what a rank observes of itself when it has no computed work to
/// observe (forwarded calls), so that speed changes are seen there too.
/// @param order the DGEMMs' order (runtime::short_probe_order sizes it to the call).
double short_probed_speed(int order);

}  // namespace hetscal::runtime
