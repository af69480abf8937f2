#pragma once
// The whole-program facts the reach analyses share: per translation unit a
// call graph (functions keyed by USR), the loops and host-callback
// registrations that start hot or callback paths, and the check sites whose
// verdict depends on other functions. No clang types: summaries are merged
// across TUs, serialized to JSON and resolved after every TU was parsed.

#include "analyzer/Finding.h"
#include "analyzer/reach/HandleFacts.h"
#include "analyzer/reach/PassedMemory.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace streamlint::ordering {
struct OrderingFacts; // analysis/OrderingSummary.h
}

namespace streamlint::reach {

/// What a function or loop does with the CUDA API, as bits.
enum ApiKind : unsigned {
  NoApi = 0,
  Allocates = 1u << 0,   // cudaMalloc, cudaMallocHost, cuMemAlloc, ...
  Frees = 1u << 1,       // cudaFree, cudaFreeHost, cuMemFree, ...
  Synchronizes = 1u << 2, // device-wide or legacy-stream synchronization
  CallsCuda = 1u << 3,   // any CUDA runtime/driver/library call or launch
};

/// A function defined in some TU, with its direct API use.
struct FunctionFacts {
  std::string usr;
  std::string name;      // qualified, for messages
  SourcePoint location;  // of its name
  unsigned kinds = NoApi;
};

/// A call from one user function to another, as written at `site`.
struct CallEdge {
  std::string caller;    // USR
  std::string callee;    // USR
  std::string calleeName;
  SourcePoint site;
  std::vector<SourcePoint> loops; // enclosing loops in the caller, innermost first
  std::string calleeIdentifier;   // unqualified, as check options name functions
  /// A call through a base class pointer or reference: it also reaches
  /// every overrider of `callee` (VirtualCalls.h adds those edges).
  bool virtualCall = false;
};

/// A method that overrides another (class hierarchy analysis).
struct MethodOverride {
  std::string method;     // USR of the overrider
  std::string overridden; // USR of the method it overrides directly
};

/// A loop and the API use directly inside it (nested loops included).
struct LoopFacts {
  SourcePoint location;
  std::string kind;      // "for", "while", "do", "range-for"
  unsigned kinds = NoApi;
};

/// A function handed to cudaLaunchHostFunc & co.
struct CallbackRegistration {
  std::string callback;  // USR
  std::string callbackName;
  std::string registrar; // "cudaLaunchHostFunc", ...
  SourcePoint site;
};

/// What must hold for a deferred site to be reported.
enum class ReachRoot {
  Loop,         // the site runs inside a loop, or is reached from one
  ChurningLoop, // ... a loop that both allocates and frees per iteration
  Callback,     // the site is reached from a registered host callback
  PageableReturn, // `function` (another TU's) returns pageable host memory
  PageableArgument, // every caller of `function` passes pageable memory
                    // for its parameter `parameter`
};

/// What a function defined in some TU returns, when it returns a pointer
/// to host memory it allocated (a malloc/new/cudaMallocHost wrapper), or
/// what another function returns (`forwardsTo`, a USR).
struct ReturnedMemory {
  std::string usr;
  std::string name;      // qualified, for messages
  std::string kind;      // "pageable" or "pinned"; "" when it forwards
  std::string origin;    // "malloc", "new[]", "cudaMallocHost", ...
  SourcePoint location;  // the allocation
  std::string forwardsTo;
};

/// A check's candidate finding whose verdict needs the whole program.
struct PendingSite {
  Finding finding;        // message: what happens and why it costs
  std::string function;   // USR of the enclosing function
  std::vector<SourcePoint> loops; // enclosing loops, innermost first
  ReachRoot root = ReachRoot::Loop;
  /// Reported with this severity and message when no root reaches the site
  /// (device-sync's note); not reported when `otherwiseReported` is false.
  bool otherwiseReported = false;
  Severity otherwiseSeverity = Severity::Note;
  std::string otherwiseMessage;
  /// ChurningLoop: functions the check's options count as allocations or
  /// frees (alloc-in-loop.ExtraAllocFunctions); they decide whether a loop
  /// churns for this site only, never for other checks' sites.
  std::vector<std::string> allocatingCalls, freeingCalls;
  /// PageableArgument: the parameter of `function` the host pointer is.
  int parameter = -1;
};

/// Everything one TU contributes to the whole-program pass.
struct TranslationUnitSummary {
  std::string mainFile;
  std::vector<FunctionFacts> functions;
  std::vector<CallEdge> edges;
  std::vector<LoopFacts> loops;
  std::vector<CallbackRegistration> callbacks;
  std::vector<PendingSite> sites;
  std::vector<ReturnedMemory> returns;
  std::vector<HandleFacts> handles; // library handles (HandleFacts.h)
  std::vector<PassedMemory> passed; // pointer arguments (PassedMemory.h)
  /// Stream ordering (analysis/OrderingSummary.h); null when the TU's
  /// checks judge no stream ordering. Shared, never changed once made.
  std::shared_ptr<const ordering::OrderingFacts> ordering;
  std::vector<MethodOverride> overrides; // user methods overriding others
};

/// The union of all TUs' summaries; functions defined in several TUs
/// (inline functions in headers) are merged by USR.
struct ProgramSummary {
  std::map<std::string, FunctionFacts> functions;
  std::vector<CallEdge> edges;
  std::map<std::string, LoopFacts> loops; // keyed by pointKey(location)
  std::vector<CallbackRegistration> callbacks;
  std::vector<PendingSite> sites;
  std::map<std::string, ReturnedMemory> returns; // by USR
  std::map<std::string, HandleFacts> handles;    // by key
  PassedMemoryMap passed;                        // by callee USR
  /// Every TU's ordering facts, for fixes (analysis/OrderingSummary.h).
  std::vector<std::shared_ptr<const ordering::OrderingFacts>> ordering;
  /// Direct overriders of each method, by its USR (sorted, unique).
  std::map<std::string, std::vector<std::string>> overriders;

  void add(TranslationUnitSummary summary);
  /// Sorts and deduplicates, so the result is the same whatever the order
  /// TUs were added in.
  void normalize();
};

/// What `usr` returns, following forwarding functions across TUs; nullptr
/// when unknown (not summarized, a cycle, or a chain ending elsewhere).
const ReturnedMemory *returnedMemory(const ProgramSummary &program,
                                     const std::string &usr);

/// "file:line:col", a stable key for a source point.
std::string pointKey(const SourcePoint &point);
bool pointLess(const SourcePoint &a, const SourcePoint &b);

/// JSON forms (nlohmann/json text) so a later run can reuse summaries.
std::string toJson(const TranslationUnitSummary &summary);
/// Parses toJson's output; errors name `origin` (a file name).
bool fromJson(const std::string &text, const std::string &origin,
              TranslationUnitSummary &summary, std::string &error);

} // namespace streamlint::reach
