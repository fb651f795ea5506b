#pragma once
/// @file scalapack_arguments.hpp
/// The argument checks ScaLAPACK's factorizations (PxPOTRF, PxGETRF) share: the grid of
/// DESCA's context, and PCHK1MAT's agreement over the grid on sub(A)'s arguments.
#include <array>

#include "layout/descriptor.hpp"

namespace hetscal::shim {

/// What BLACS_GRIDINFO tells this process about DESCA's context (NPROW = -1 outside it).
layout::BlacsGridView grid_of(const int* desca);

/// Whether DESCA's context holds this process.
bool in_grid(const int* desca);

/// The INFO every process of the grid ends with, as PCHK1MAT makes it for one matrix
/// argument without extra values: the earliest error any process found (CHK1MAT's, or the
/// routine's own codes in local_info), or the earliest of M, N, IA, JA and DESCA's fields
/// that differs from grid position (0,0)'s. Collective over DESCA's context.
/// @param a sub(A)'s arguments and their positions.
/// @param local_info this process's INFO so far; @pre this process is in the grid.
/// @param also_minimised two values replaced by their minimum over the grid in the same
///        reduction (mpi::agreed_argument_info), or null.
int agreed_matrix_info(const layout::MatrixArgument& a, int local_info,
                       std::array<int, 2>* also_minimised = nullptr);

}  // namespace hetscal::shim
