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
  /// The shortest chain from a root of `root`'s kind to `usr`; recursion and
  /// cycles terminate (each function is visited once); nullopt if none.
  std::optional<ReachChain> reach(ReachRoot root, const std::string &usr) const;

private:
  struct Parent {
    const CallEdge *via = nullptr;                   // nullptr at a root function
    const LoopFacts *loop = nullptr;
    const CallbackRegistration *callback = nullptr;
  };
  void computeKinds();
  void search(ReachRoot root);

  const ProgramSummary &program_;
  std::map<std::string, std::vector<const CallEdge *>> callsFrom_;
  std::map<std::string, unsigned> kinds_;
  std::map<std::string, unsigned> loopKinds_; // by pointKey, with callees' kinds
  std::map<ReachRoot, std::map<std::string, Parent>> parents_;
};

/// "line 12" when `point` is in `file`, else "name.cu:12".
std::string describePoint(const SourcePoint &point, const std::string &file);

/// Turns every deferred site of `program` into its finding (or drops it).
/// Messages replace "{where}" with where the site runs; related locations
/// list the loop or registration and each call of the chain. Sorted.
std::vector<Finding> resolveSites(ProgramSummary program);

} // namespace streamlint::reach
