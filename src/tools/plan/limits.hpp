#pragma once
/// @file limits.hpp
/// The largest problems hetscal-plan accepts. Beyond them its time or memory would grow past
/// what a planning tool may take (a hostile or mistyped input must not run for minutes or
/// exhaust memory), so they are refused before any work with one message naming the option
/// and the limit. Each figure was measured on a 2-core machine; --help and the README list
/// them.
#include <cstddef>

namespace hetscal::tools::plan {

/// Processors in --speeds, --cycle-times, --file or a --rebalance list. Trying every grid
/// shape grows as P^2.2: 2.3 s at 1,024, 9 s at 2,048.
inline constexpr std::size_t kMaxProcessors = 1024;
/// Processors with --model: the runtime's planner (speed classes, a few process counts,
/// pruned candidates; core/planners/candidate_search.hpp); tests/bench/scale/planning_time.sh measures it.
inline constexpr std::size_t kMaxModelProcessors = 16384;
/// Processors up to which --model also prints the grid plan: its shape search scores each of
/// the P shapes with the time model (a Cholesky prediction each), minutes at 1,024 processors
/// and N = 10⁶ where the model's own planner takes seconds.
inline constexpr std::size_t kMaxGridWithModelProcessors = 128;
/// Processors with --model --exhaustive: its candidates (every process count, every
/// factorisation, every tile size) grow as P·d(P); 2.8 s at 128.
inline constexpr std::size_t kMaxExhaustiveProcessors = 128;
/// Processors with --pattern gcrm: its randomised search takes 5.6 s at 128.
inline constexpr std::size_t kMaxGcrmProcessors = 128;
/// Fastest over slowest processor. Plans are computed on speeds relative to the fastest, so
/// 1e308 is as good a speed as 1; the ratio bounds the shares' range.
inline constexpr double kMaxSpeedRatio = 1e12;
/// A processor file's size (thousands of numbers with comments).
inline constexpr std::size_t kMaxFileBytes = 256 * 1024;
/// --order: the time model keeps a few numbers per tile row (N / block).
inline constexpr long long kMaxOrder = 1LL << 22;
/// --model's pricing: operations summed over its candidates (2e9: about 4 s at 128
/// processors) and peak memory; a larger --order is refused with the largest that fits.
inline constexpr double kMaxModelOperations = 2.0e9;
inline constexpr double kMaxModelBytes = 512.0 * 1024 * 1024;
/// Each side of --panel: the integer plan tries its orderings over B_p·B_q blocks (0.2 s at
/// 4096x4096 on a 2x2 grid; the time grows as the square of the side).
inline constexpr std::size_t kMaxPanelSide = 4096;
/// Cells of a --pattern hetero (sized by the speed ratio, or --grid): its local search makes
/// 60 swap attempts per cell (3.6 s at 2^20 cells).
inline constexpr double kMaxPatternCells = 1 << 20;
/// Each side of a --pattern --grid.
inline constexpr std::size_t kMaxPatternSide = 4096;
/// Side of the pictured tile matrix (--matrix-tiles): beyond it a picture no longer shows tiles.
inline constexpr std::size_t kMaxPictureTiles = 1024;

}  // namespace hetscal::tools::plan
