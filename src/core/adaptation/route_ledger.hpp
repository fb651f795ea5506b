#pragma once
/// @file route_ledger.hpp
/// Decisions from observation: how long each route of a call really took against what the
/// time model predicted, per routine and shape class, and the choice those measurements
/// correct. Pure and deterministic: every rank records the same agreed times and so reaches
/// the same choice.
///
/// A shape class is the routine's name plus floor(log2) of each dimension ("PDGEMM
/// 2^11x2^11x2^11" holds every PDGEMM with 2048 <= M, N, K < 4096): calls alike enough for
/// the model's error to carry over (the run time records only calls during which the speeds
/// held, runtime/adaptation.cpp). Per class and route the ledger keeps the last
/// `window` ratios measured/predicted seconds; the route's correction is their median, known
/// once the route has `observations` of them (one slow call, a page fault, never decides),
/// or at once when a single call took more than `believed_ratio` times its prediction: a
/// model that far off is wrong, not unlucky (skinny PDGEMMs of PDGETRI predicted 0.15 s ran
/// 5 s, class after class, each taken over again until its second call). A route that loses
/// by such a correction is not taken again for the class while the predictions stand: its
/// window keeps the ratio, and no later call of the route replaces it.
/// The corrected prediction of a route is its predicted time times its correction (1 while
/// unknown), and the choice is:
///   - speeds that differ: the route with the smaller corrected prediction (hetscal stops
///     taking over a class it measured itself slower in than ScaLAPACK; while ScaLAPACK is
///     not measured yet, its prediction stands in, so those forwarded calls measure it);
///   - equal speeds: once hetscal's correction is known, the same comparison (its kernels
///     measured faster than ScaLAPACK's take homogeneous calls too); before, a trial: once
///     ScaLAPACK's correction is known and the model predicts hetscal, without what it pays
///     once, within `trial_margin` of ScaLAPACK, hetscal computes the class until its own
///     correction is known
///     (`observations` calls), otherwise the call is forwarded. A trial stops early, after
///     `trial_verdict` calls, when those calls already measured hetscal slower than
///     ScaLAPACK: on a homogeneous machine every trial call of a kernel no faster than
///     ScaLAPACK's is time lost, and the cost of the class's first call alone (its planned
///     copy's first touch) is priced apart (`once_s`), so that it does not make the first
///     call look slow.
///
/// Seconds a route pays on one call only (the first touch of hetscal's planned copy) are
/// neither recorded nor corrected: the caller records the call's time without them and passes
/// them to advise() beside the prediction that the measurements correct.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace hetscal::core {

/// The two routes of an intercepted call.
enum class MeasuredRoute { Forward, Heterogeneous };

/// The rule's constants (documented above and in the README).
struct LedgerRule {
  int observations = 2;        ///< measured calls of a route before its correction counts
  int window = 3;              ///< ratios kept per class and route (the median is taken)
  double trial_margin = 1.25;  ///< equal speeds: try hetscal when predicted within this factor
  int trial_verdict = 1;       ///< trial calls after which hetscal measured slower ends it
  double believed_ratio = 2.0; ///< one call measured above this times its prediction decides
};

/// "PDGEMM 2^11x2^11x2^11".
/// @throws InvalidArgument if a dimension is not positive.
std::string shape_class(const std::string& routine, const std::vector<std::int64_t>& dims);

/// What the ledger advises for one call.
struct LedgerAdvice {
  MeasuredRoute route = MeasuredRoute::Forward;
  double forward_s = 0.0;        ///< ScaLAPACK's predicted time, corrected
  double heterogeneous_s = 0.0;  ///< hetscal's predicted time, corrected
  bool measured = false;         ///< a correction changed the predictions
  bool trial = false;            ///< equal speeds, hetscal computes to measure itself
  /// Both routes measured (on equal speeds, hetscal's), and they chose otherwise than the
  /// model alone would (which forwards equal speeds and otherwise takes the smaller
  /// predicted time). A class forwarded once hetscal alone is measured slower than
  /// ScaLAPACK's prediction is only measuring ScaLAPACK: not yet an override.
  bool overrides_model = false;
  std::string why;               ///< "hetscal measured x1.30 its prediction (2 calls), ..."
};

/// Measured over predicted seconds per shape class and route.
class RouteLedger {
 public:
  /// @throws InvalidArgument if the rule's counts are below 1, window < observations,
  ///         trial_verdict > observations, or the margin or the believed ratio is below 1.
  explicit RouteLedger(LedgerRule rule = {});

  /// Makes room for `shape_class` (both routes, a full window each), so that recording its
  /// calls later allocates nothing. The only step that allocates: the run time does it on
  /// every rank together, agreed. Nothing when the class is known.
  void add_class(const std::string& shape_class);
  bool knows(const std::string& shape_class) const { return forward_.count(shape_class) != 0; }
  /// Undoes add_class (when another rank could not make room: all ranks forget it alike).
  void forget_class(const std::string& shape_class) noexcept;

  /// Records one call of `shape_class` that took `measured_s` on `route`, predicted
  /// `predicted_s` (allocates nothing once add_class made room for the class).
  /// @throws InvalidArgument unless both times are finite and > 0.
  void record(const std::string& shape_class, MeasuredRoute route, double measured_s,
              double predicted_s);

  /// The route's correction (median measured/predicted ratio), or 0 while fewer than the
  /// rule's observations were recorded, unless the last call alone was measured above the
  /// rule's believed_ratio (then its ratio).
  double correction(const std::string& shape_class, MeasuredRoute route) const;

  /// The calls of `shape_class` recorded on `route`.
  std::int64_t calls(const std::string& shape_class, MeasuredRoute route) const;

  /// The route to take for a call of `shape_class` with these predicted times.
  /// @param heterogeneous_s hetscal's predicted time without `once_s` (what record() was given).
  /// @param equal_speeds every rank of the context planned at the same speed.
  /// @param once_s what hetscal's route pays on this call only: added to its corrected
  ///        prediction, uncorrected (advice.heterogeneous_s includes it).
  LedgerAdvice advise(const std::string& shape_class, double forward_s, double heterogeneous_s,
                      bool equal_speeds, double once_s = 0.0) const;

  const LedgerRule& rule() const { return rule_; }

 private:
  struct Ratios {
    std::vector<double> recent;  ///< the last `window` ratios, oldest first
    std::int64_t count = 0;      ///< every ratio recorded
  };
  const Ratios* find(const std::string& shape_class, MeasuredRoute route) const;
  // The median of hetscal's ratios once the trial's verdict is due (trial_verdict calls),
  // or 0.
  double trial_correction(const std::string& shape_class) const;

  LedgerRule rule_;
  std::map<std::string, Ratios> forward_;
  std::map<std::string, Ratios> heterogeneous_;
};

}  // namespace hetscal::core
