#pragma once
/// @file shared_workspace.hpp
/// For the simulated programs at scale (bench_scale_cluster): the kernels' buffers of matrix
/// elements in SMPI shared memory (shared_workspace.cpp).
namespace hetscal::bench {

/// Routes this rank's kernel buffers of matrix elements (kernels::ScalarBuffer) of 1 MiB
/// and more to SMPI shared memory. Call once per rank, before the first kernel call, and
/// only with ComputeMode::Skip: the elements of all such buffers alias one another.
void share_kernel_buffers();

}  // namespace hetscal::bench
