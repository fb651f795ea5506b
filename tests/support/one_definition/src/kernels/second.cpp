namespace hetscal::kernels {
namespace {
class Local {
  int x = 0;
};
}  // namespace

struct Helper : Base {
  int size() const { return 2; }
};

int second() {
  if (1) {
    return Helper().size();
  }
  return 0;
}

}  // namespace hetscal::kernels
