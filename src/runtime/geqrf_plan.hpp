#pragma once
/// @file geqrf_plan.hpp
/// hetscal's layout for one QR factorization of an M×N matrix on a context's ranks. QR is
/// planned among the same families of distribution as LU (core::LuLayoutKind: the caller's
/// layout, 2DBC, heterogeneous grids in Boudet1999's order, G-2DBC, the heterogeneous pattern)
/// and lands in the same LuLayout, but is priced by the QR time model (its flops, its panel
/// and the reduction W = VᴴA of its update). The shim's route and the native API only see a
/// LuLayout, whose options say where kernels::qr factorises its panels.
#include <vector>

#include "runtime/getrf_plan.hpp"

namespace hetscal::runtime {

/// Plans the layout of an M×N QR held in problem.caller's layout, as choose_lu_layout does
/// for an LU.
/// @param problem the call: Routine::QR, M = problem.rows() >= 1, N = problem.n >= 1.
/// @param kinds the kinds of layout to choose from (HETSCAL_QR_LAYOUTS; without CallerLayout
///        under HETSCAL_FORCE).
/// @throws as choose_lu_layout (InvalidArgument for another routine).
LuLayout choose_qr_layout(const core::Platform& platform, const core::Problem& problem,
                          const std::vector<core::LuLayoutKind>& kinds, const core::PricingSlice& slice = {});

}  // namespace hetscal::runtime
