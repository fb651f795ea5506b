namespace hetscal::kernels {
namespace {
class Local {};  // internal linkage: may repeat across files
}  // namespace

class Helper {
 public:
  int size() const { return 1; }
};

int first() { return Helper().size() + 100'000; }

}  // namespace hetscal::kernels
