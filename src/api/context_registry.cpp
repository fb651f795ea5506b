#include "api/context_registry.hpp"

#include <map>
#include <mutex>

namespace hetscal::api {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<int, std::unique_ptr<Context>> contexts;  // by handle, i.e. in creation order
  int next_handle = 1;
};

Registry& registry() {
  static Registry instance;
  return instance;
}

}  // namespace

Context* find_context(int handle) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto found = r.contexts.find(handle);
  return found == r.contexts.end() ? nullptr : found->second.get();
}

Context* latest_context_of(int blacs_context) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (auto it = r.contexts.rbegin(); it != r.contexts.rend(); ++it) {
    if (it->second->blacs_context == blacs_context) return it->second.get();
  }
  return nullptr;
}

Context& register_context(std::unique_ptr<Context> context) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  context->handle = r.next_handle++;
  Context& registered = *context;
  r.contexts.emplace(registered.handle, std::move(context));
  return registered;
}

bool erase_context(int handle) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto found = r.contexts.find(handle);
  if (found == r.contexts.end()) return false;
  // A failed free only leaks the communicator: the context is forgotten all the same.
  if (found->second->grid.comm != MPI_COMM_NULL) (void)MPI_Comm_free(&found->second->grid.comm);
  r.contexts.erase(found);
  return true;
}

}  // namespace hetscal::api
