#pragma once
// The whole-program resolution: which functions are reached from a loop or a
// host callback, through which chain of calls, and which deferred check sites
// therefore become findings. Runs once after every TU was analyzed.

#include "analyzer/reach/ReachSummary.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace streamlint::reach {

/// Longest call chain spelled out in a message and its related locations.
inline constexpr unsigned MaxReportedChainSteps = 8;

/// How a function is reached from a root: the root and the calls after it.
struct ReachChain {
  const LoopFacts *loop = nullptr;                 // loop roots
  const CallbackRegistration *callback = nullptr;  // callback roots
  std::vector<const CallEdge *> calls;             // root side first
};

/// Answers "is this function reached from a loop / churning loop / host
/// callback, and how" for a normalized ProgramSummary.
class ReachIndex {
public:
  explicit ReachIndex(const ProgramSummary &program);

  /// The function's API kinds including everything it calls, transitively.
  unsigned transitiveKinds(const std::string &usr) const;
  /// Whether one iteration of the loop both allocates and frees.
  bool churns(const SourcePoint &loop) const;
  /// The same, counting calls of `site`'s allocatingCalls/freeingCalls (its
  /// check's options) as allocations/frees: for that site only.
  bool churns(const SourcePoint &loop, const PendingSite &site) const;
  /// The shortest chain from a root of `root`'s kind to `usr`; recursion and
  /// cycles terminate (each function is visited once); nullopt if none.
  std::optional<ReachChain> reach(ReachRoot root, const std::string &usr) const;
  /// reach() for `site`'s root, function and (ChurningLoop) options.
  std::optional<ReachChain> reach(const PendingSite &site) const;

private:
  struct Parent {
    const CallEdge *via = nullptr;                   // nullptr at a root function
    const LoopFacts *loop = nullptr;
    const CallbackRegistration *callback = nullptr;
  };
  using Parents = std::map<std::string, Parent>;
  /// Kinds of functions (transitive) and loops (with their callees').
  struct KindIndex {
    std::map<std::string, unsigned> functions;
    std::map<std::string, unsigned> loops; // by pointKey
  };
  KindIndex computeKinds(const PendingSite *options) const;
  static bool churns(const KindIndex &kinds, const SourcePoint &loop);
  Parents search(ReachRoot root, const KindIndex &kinds) const;
  /// Kinds and churning-loop parents for one set of check options, cached.
  struct OptionIndex {
    KindIndex kinds;
    Parents churningParents;
  };
  const OptionIndex &withOptions(const PendingSite &site) const;
  std::optional<ReachChain> chainTo(const Parents &parents, const std::string &usr) const;

  const ProgramSummary &program_;
  std::map<std::string, std::vector<const CallEdge *>> callsFrom_;
  KindIndex kinds_;
  std::map<ReachRoot, Parents> parents_;
  mutable std::map<std::string, OptionIndex> byOptions_; // keyed by the names
};

/// "line 12" when `point` is in `file`, else "name.cu:12".
std::string describePoint(const SourcePoint &point, const std::string &file);

/// Turns every deferred site of `program` into its finding (or drops it),
/// then every part's facts into the part's findings. A site's message is
/// its words, where the site runs, then its tail; related locations list
/// the loop or registration and each call of the chain. Sorted.
std::vector<Finding> resolveSites(ProgramSummary program);

/// Lets every part with an `amend` adjust the findings finally reported
/// (stream ordering's verdicts on fixes, analysis/OrderingPart.h).
void amendFindings(const std::map<std::string, std::vector<PartFactsPtr>> &parts,
                   std::vector<Finding> &findings);

} // namespace streamlint::reach
