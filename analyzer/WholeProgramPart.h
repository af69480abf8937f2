#pragma once
// Whole-program parts: facts a check summarizes in each translation unit and
// judges only once every TU was analyzed (a handle created in one file and
// used in another, memory a wrapper elsewhere returns). A check declares its
// part beside its options (`static part()`, checks/Check.h) and hands each
// TU's facts over after its call-graph pass; the facts travel opaque, keyed
// by the part's id (the check's id, or a shared part's), through the TU's
// summary, the project index and CI shards; after every TU the part merges
// them and resolves them into findings worded by itself. reach/ knows parts
// by id only; what every check shares (call graph, loops, callbacks, the
// search) is given to each part's resolution. No clang types.

#include "analyzer/Finding.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace streamlint {

namespace reach {
struct ProgramSummary; // reach/ReachSummary.h
class ReachIndex;      // reach/ReachResolution.h
} // namespace reach

/// One TU's facts of one part. Never changed once handed over: shared
/// between the TU's outcome, the index entry written and the program.
class PartFacts {
public:
  virtual ~PartFacts() = default;
  /// The JSON form the part's `read` accepts.
  virtual nlohmann::json toJson() const = 0;
  /// The same facts with every fix-it removed (a CI shard part not sealed
  /// with the merge's key is reported, never applied).
  virtual std::shared_ptr<const PartFacts> withoutFixes() const = 0;
};
using PartFactsPtr = std::shared_ptr<const PartFacts>;

/// What every part's resolution may read besides its own facts: the
/// merged call graph and the loop/callback search over it.
struct ProgramView {
  const reach::ProgramSummary &program;
  const reach::ReachIndex &reach;
};

/// A part's declaration: how its facts are read back, and how the facts of
/// every TU become findings.
struct WholeProgramPart {
  std::string id; ///< the owning check's id, or a shared part's name
  /// Parses what PartFacts::toJson wrote; throws std::exception saying what
  /// is wrong (the entry or shard part holding it is then refused).
  std::function<PartFactsPtr(const nlohmann::json &)> read;
  /// Findings from every TU's facts (in any order; a header's facts may
  /// come from several TUs). Optional.
  std::function<std::vector<Finding>(const std::vector<PartFactsPtr> &, const ProgramView &)>
      resolve;
  /// Adjusts the findings finally reported (after header filtering), e.g.
  /// a fix's verdict that depends on every caller. Optional.
  std::function<void(const std::vector<PartFactsPtr> &, std::vector<Finding> &)> amend;
};

/// The process's parts, filled at start-up (registerAllChecks) before any
/// TU is analyzed or read; registering an id again replaces it.
void registerPart(WholeProgramPart part);
/// nullptr for an id no one registered.
const WholeProgramPart *findPart(const std::string &id);

} // namespace streamlint
