/// @file descriptor.cpp
/// Descriptor parsing and the two validation conventions (PBLAS's PB_Cchkmat, ScaLAPACK's
/// CHK1MAT). Both accumulate the smallest "position*100 + field" code, as ScaLAPACK does,
/// so that the earliest bad argument is reported whatever order the tests run in.
#include "layout/descriptor.hpp"

#include <algorithm>
#include <string>

#include "core/common/error.hpp"

namespace hetscal::layout {

Descriptor Descriptor::parse(const int* desc) {
  Descriptor d;
  if (desc[0] == static_cast<int>(DescriptorType::BlockCyclic2D)) {
    d.type = DescriptorType::BlockCyclic2D;
    d.context = desc[1];
    d.m = desc[2];
    d.n = desc[3];
    d.imb = d.mb = desc[4];
    d.inb = d.nb = desc[5];
    d.rsrc = desc[6];
    d.csrc = desc[7];
    d.lld = desc[8];
  } else if (desc[0] == static_cast<int>(DescriptorType::BlockCyclic2DInb)) {
    d.type = DescriptorType::BlockCyclic2DInb;
    d.context = desc[1];
    d.m = desc[2];
    d.n = desc[3];
    d.imb = desc[4];
    d.inb = desc[5];
    d.mb = desc[6];
    d.nb = desc[7];
    d.rsrc = desc[8];
    d.csrc = desc[9];
    d.lld = desc[10];
  } else {
    throw InvalidArgument("Descriptor: DTYPE " + std::to_string(desc[0]) +
                          " is neither 1 (BLOCK_CYCLIC_2D) nor 2 (BLOCK_CYCLIC_2D_INB)");
  }
  return d;
}

Descriptor Descriptor::block_cyclic(int context, std::int64_t m, std::int64_t n, std::int64_t mb,
                                    std::int64_t nb, int rsrc, int csrc, std::int64_t lld) {
  Descriptor d;
  d.type = DescriptorType::BlockCyclic2D;
  d.context = context;
  d.m = m;
  d.n = n;
  d.imb = d.mb = mb;
  d.inb = d.nb = nb;
  d.rsrc = rsrc;
  d.csrc = csrc;
  d.lld = lld;
  return d;
}

std::vector<int> Descriptor::to_array() const {
  const auto i = [](std::int64_t v) { return static_cast<int>(v); };
  if (type == DescriptorType::BlockCyclic2D) {
    return {1, context, i(m), i(n), i(mb), i(nb), rsrc, csrc, i(lld)};
  }
  return {2, context, i(m), i(n), i(imb), i(inb), i(mb), i(nb), rsrc, csrc, i(lld)};
}

LocalSubmatrix local_submatrix(const Descriptor& desc, std::int64_t row, std::int64_t col,
                               std::int64_t rows, std::int64_t cols, const BlacsGridView& grid) {
  const CyclicAxis matrix_rows = desc.row_axis(grid.nprow);
  const CyclicAxis matrix_cols = desc.col_axis(grid.npcol);
  LocalSubmatrix s;
  s.rows = sub_axis(matrix_rows, row, rows);
  s.cols = sub_axis(matrix_cols, col, cols);
  s.ii = local_count_before(matrix_rows, row, grid.myrow);
  s.jj = local_count_before(matrix_cols, col, grid.mycol);
  s.local_rows = local_count(matrix_rows, row, rows, grid.myrow);
  s.local_cols = local_count(matrix_cols, col, cols, grid.mycol);
  return s;
}

namespace {

constexpr std::int64_t kDescMult = 100;
constexpr std::int64_t kNoError = kDescMult * kDescMult;

/// The running minimum "position*100 + field" of ScaLAPACK's checkers.
class InfoAccumulator {
 public:
  explicit InfoAccumulator(int previous_info) {
    if (previous_info >= 0) {
      code_ = kNoError;
    } else if (previous_info < -kDescMult) {
      code_ = -static_cast<std::int64_t>(previous_info);
    } else {
      code_ = -static_cast<std::int64_t>(previous_info) * kDescMult;
    }
  }
  void scalar(int position) { code_ = std::min(code_, position * kDescMult); }
  void field(int desc_position, int field_index) {
    code_ = std::min(code_, desc_position * kDescMult + field_index);
  }
  bool clean() const { return code_ == kNoError; }
  int info() const {
    if (code_ == kNoError) return 0;
    if (code_ % kDescMult == 0) return static_cast<int>(-code_ / kDescMult);
    return static_cast<int>(-code_);
  }

 private:
  std::int64_t code_;
};

/// PB_CargFtoC: any descriptor seen in the 11-entry form; an unknown type keeps only its
/// DTYPE and CTXT (it is refused before anything else is read).
Descriptor as_eleven_entry(const int* desc, bool& known_type) {
  known_type = desc[0] == 1 || desc[0] == 2;
  if (known_type) return Descriptor::parse(desc);
  Descriptor d;
  d.context = desc[1];
  return d;
}

/// LOCr(M_A) (or LOCc(N_A)) for the LLD test; a negative global size is refused by an
/// earlier-ranked code anyway, so it counts as empty here.
std::int64_t local_extent_for_check(CyclicAxis axis, int proc) {
  axis.extent = std::max<std::int64_t>(axis.extent, 0);
  return local_extent(axis, proc);
}

}  // namespace

int check_matrix_pblas(const MatrixArgument& a, const BlacsGridView& grid, int previous_info) {
  using namespace field11;
  InfoAccumulator info(previous_info);
  const int ia_position = a.desc_position - 2, ja_position = a.desc_position - 1;
  if (a.m < 0) info.scalar(a.m_position);
  if (a.n < 0) info.scalar(a.n_position);
  if (a.ia < 1) info.scalar(ia_position);
  if (a.ja < 1) info.scalar(ja_position);

  bool known_type = false;
  const Descriptor d = as_eleven_entry(a.desc, known_type);
  if (!known_type) {
    info.field(a.desc_position, kDtype);
    return info.info();
  }
  if (d.context != grid.context) {
    info.field(a.desc_position, kCtxt);
    return info.info();
  }
  if (d.imb < 1) info.field(a.desc_position, kImb);
  if (d.inb < 1) info.field(a.desc_position, kInb);
  if (d.mb < 1) info.field(a.desc_position, kMb);
  if (d.nb < 1) info.field(a.desc_position, kNb);
  if (d.rsrc < kReplicated || d.rsrc >= grid.nprow) info.field(a.desc_position, kRsrc);
  if (d.csrc < kReplicated || d.csrc >= grid.npcol) info.field(a.desc_position, kCsrc);

  if (a.m == 0 || a.n == 0) {
    if (d.m < 0) info.field(a.desc_position, kM);
    if (d.n < 0) info.field(a.desc_position, kN);
    if (d.lld < 1) info.field(a.desc_position, kLld);
    return info.info();
  }
  if (d.m < 1) info.field(a.desc_position, kM);
  if (d.n < 1) info.field(a.desc_position, kN);
  if (d.m >= 1 && d.n >= 1) {
    if (a.ia - 1 + static_cast<std::int64_t>(a.m) > d.m) info.scalar(ia_position);
    if (a.ja - 1 + static_cast<std::int64_t>(a.n) > d.n) info.scalar(ja_position);
  }
  // The leading dimension is checked only when nothing else is wrong (sizes are then sane).
  if (info.clean()) {
    const std::int64_t local_rows = local_extent(d.row_axis(grid.nprow), grid.myrow);
    if (d.lld < std::max<std::int64_t>(1, local_rows)) {
      const std::int64_t local_cols = local_extent(d.col_axis(grid.npcol), grid.mycol);
      if (d.lld < 1 || local_cols > 0) info.field(a.desc_position, kLld);
    }
  }
  return info.info();
}

int check_matrix_scalapack(const MatrixArgument& a, const BlacsGridView& grid, int previous_info) {
  using namespace field9;
  InfoAccumulator info(previous_info);
  const int ia_position = a.desc_position - 2, ja_position = a.desc_position - 1;
  const int* desc = a.desc;
  const int dpos = a.desc_position;

  // CHK1MAT's first chain stops at the first failing test.
  if (desc[kDtype - 1] != static_cast<int>(DescriptorType::BlockCyclic2D)) {
    info.field(dpos, kDtype);
  } else if (a.m < 0) {
    info.scalar(a.m_position);
  } else if (a.n < 0) {
    info.scalar(a.n_position);
  } else if (a.ia < 1) {
    info.scalar(ia_position);
  } else if (a.ja < 1) {
    info.scalar(ja_position);
  } else if (desc[kMb - 1] < 1) {
    info.field(dpos, kMb);
  } else if (desc[kNb - 1] < 1) {
    info.field(dpos, kNb);
  } else if (desc[kRsrc - 1] < 0 || desc[kRsrc - 1] >= grid.nprow) {
    info.field(dpos, kRsrc);
  } else if (desc[kCsrc - 1] < 0 || desc[kCsrc - 1] >= grid.npcol) {
    info.field(dpos, kCsrc);
  } else if (desc[kLld - 1] < 1) {
    info.field(dpos, kLld);
  } else {
    const Descriptor d = Descriptor::parse(desc);
    if (d.lld < local_extent_for_check(d.row_axis(grid.nprow), grid.myrow) &&
        local_extent_for_check(d.col_axis(grid.npcol), grid.mycol) > 0) {
      info.field(dpos, kLld);
    }
  }

  const int m_a = desc[kM - 1], n_a = desc[kN - 1];
  if (a.m == 0 || a.n == 0) {
    if (m_a < 0) info.field(dpos, kM);
    if (n_a < 0) info.field(dpos, kN);
  } else if (m_a < 1) {
    info.field(dpos, kM);
  } else if (n_a < 1) {
    info.field(dpos, kN);
  } else if (a.ia > m_a) {
    info.scalar(ia_position);
  } else if (a.ja > n_a) {
    info.scalar(ja_position);
  } else {
    if (a.ia + static_cast<std::int64_t>(a.m) - 1 > m_a) info.scalar(a.m_position);
    if (a.ja + static_cast<std::int64_t>(a.n) - 1 > n_a) info.scalar(a.n_position);
  }
  return info.info();
}

}  // namespace hetscal::layout
