#pragma once
// The whole-program facts the reach analyses share: per translation unit a
// call graph (functions keyed by USR), the loops and host-callback
// registrations that start hot or callback paths, and the check sites whose
// verdict depends on other functions. No clang types: summaries are merged
// across TUs, serialized to JSON and resolved after every TU was parsed.

#include "analyzer/Finding.h"
#include "analyzer/WholeProgramPart.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

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
};

/// A check's candidate finding whose verdict needs the whole program: is
/// its function reached from a loop or a host callback?
struct PendingSite {
  /// Its message is the check's words before where the site runs ("inside
  /// the loop at line 12", "on a hot path: called from ...", "in host
  /// callback ..."), `messageTail` the words after it.
  Finding finding;
  std::string messageTail;
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
};

/// Everything one TU contributes to the whole-program pass.
struct TranslationUnitSummary {
  std::string mainFile;
  std::vector<FunctionFacts> functions;
  std::vector<CallEdge> edges;
  std::vector<LoopFacts> loops;
  std::vector<CallbackRegistration> callbacks;
  std::vector<PendingSite> sites;
  std::vector<MethodOverride> overrides; // user methods overriding others
  /// Whole-program parts' facts (analyzer/WholeProgramPart.h), by part id.
  std::map<std::string, PartFactsPtr> parts;
};

/// The union of all TUs' summaries; functions defined in several TUs
/// (inline functions in headers) are merged by USR.
struct ProgramSummary {
  std::map<std::string, FunctionFacts> functions;
  std::vector<CallEdge> edges;
  std::map<std::string, LoopFacts> loops; // keyed by pointKey(location)
  std::vector<CallbackRegistration> callbacks;
  std::vector<PendingSite> sites;
  /// Every TU's facts of each whole-program part, by part id.
  std::map<std::string, std::vector<PartFactsPtr>> parts;
  /// Direct overriders of each method, by its USR (sorted, unique).
  std::map<std::string, std::vector<std::string>> overriders;

  void add(TranslationUnitSummary summary);
  /// Sorts and deduplicates, so the result is the same whatever the order
  /// TUs were added in.
  void normalize();
};

/// "file:line:col", a stable key for a source point.
std::string pointKey(const SourcePoint &point);
bool pointLess(const SourcePoint &a, const SourcePoint &b);

/// The format a summary names; 2: parts keyed by id, no check's own facts;
/// 3: the ordering part says what calls leave on blocking streams.
inline constexpr const char *kSummaryFormat = "streamlint-reach-summary-3";

/// JSON forms (nlohmann/json text) so a later run can reuse summaries.
std::string toJson(const TranslationUnitSummary &summary);
/// Parses toJson's output; errors name `origin` (a file name).
bool fromJson(const std::string &text, const std::string &origin,
              TranslationUnitSummary &summary, std::string &error);

} // namespace streamlint::reach
