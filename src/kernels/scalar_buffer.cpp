#include "kernels/scalar_buffer.hpp"

#include "core/common/error.hpp"

namespace hetscal::kernels {
namespace {
ScalarBufferHooks g_hooks;  // one per process (per simulated rank under SMPI's privatisation)
}  // namespace

void set_scalar_buffer_hooks(ScalarBufferHooks hooks) {
#ifndef HETSCAL_SIMGRID
  throw InvalidArgument("scalar buffer hooks exist only in SimGrid builds (HETSCAL_SIMGRID)");
#endif
  if ((hooks.allocate == nullptr) != (hooks.release == nullptr))
    throw InvalidArgument("set_scalar_buffer_hooks: set both hooks or neither");
  g_hooks = hooks;
}

namespace detail {

void* allocate_scalars(std::size_t bytes) {
  if (g_hooks.allocate != nullptr) return g_hooks.allocate(bytes);
  return ::operator new(bytes);
}

void release_scalars(void* block, std::size_t bytes) noexcept {
  if (g_hooks.release != nullptr) {
    g_hooks.release(block, bytes);
    return;
  }
  ::operator delete(block);
}

}  // namespace detail
}  // namespace hetscal::kernels
