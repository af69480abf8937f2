#pragma once
// pageable-memcpy-async's whole-program part (analyzer/WholeProgramPart.h):
// an async copy whose host pointer comes from another TU, either what a
// function defined there returns (a malloc/new/cudaMallocHost wrapper) or
// what every caller passes for a pointer or value-reference parameter. Each
// TU records what its functions return, what its calls pass for parameters
// (the memory each call's argument refers to, or the caller's own parameter
// it passes on), and its copies those decide; after every TU the part
// decides each copy and words its finding. No clang types.

#include "analyzer/Finding.h"
#include "analyzer/WholeProgramPart.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace streamlint {

/// One call's argument for one pointer parameter; or (parameter -1) the
/// callee's address taken: it may be called from anywhere; or (kind
/// "registers") not a call: the callee pins what it receives for
/// `parameter` with cudaHostRegister.
struct PassedMemory {
  std::string callee;     // USR of the called function
  int parameter = -1;     // the parameter's index; -1: address taken
  std::string kind; // "pageable", "pinned", "device", "unknown", "registers"; "" forwards
  std::string origin;     // "malloc", "new[]", "cudaMallocHost", ...
  SourcePoint location;   // the allocation or declaration of the memory
  bool allocated = false; // `location` is an allocation call, not a declaration
  SourcePoint call;       // the call (or where the address is taken)
  std::string callerName; // qualified, for messages
  /// The argument is the caller's own parameter `forwardsParameter`, whose
  /// callers (USR `forwardsTo`) decide.
  std::string forwardsTo;
  int forwardsParameter = -1;
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

/// A copy whose host end another TU decides.
struct PageableCopy {
  /// Its message is the check's words before the memory's origin
  /// ("malloc, returned by 'allocHost'"), `messageTail` those after it.
  Finding finding;
  std::string messageTail;
  std::string function; // USR of the function whose result or parameter it is
  int parameter = -1;   // -1: what `function` returns; else its parameter
  /// Undecided (callers unknown, nothing summarized): reported as this note
  /// when `noteUndecided` (Strict).
  bool noteUndecided = false;
  std::string undecidedNote;
};

/// One TU's facts, as the part carries them.
struct PageableMemoryFacts : PartFacts {
  std::vector<ReturnedMemory> returns;
  std::vector<PassedMemory> passed;
  std::vector<PageableCopy> copies;
  nlohmann::json toJson() const override;
  PartFactsPtr withoutFixes() const override;
};
/// Parses toJson()'s output; throws std::exception on anything else.
std::shared_ptr<PageableMemoryFacts> pageableMemoryFactsFrom(const nlohmann::json &j);

/// Calls by callee USR.
using PassedMemoryMap = std::map<std::string, std::vector<PassedMemory>>;

/// Every TU's facts merged: the same whatever the order TUs came in.
struct PageableProgram {
  std::map<std::string, ReturnedMemory> returns; // by USR; a header's first
  PassedMemoryMap passed;                        // sorted, each call once
  std::vector<PageableCopy> copies;              // sorted, each copy once
  void add(const PageableMemoryFacts &facts);
  void normalize();
};

void addPassedMemory(PassedMemoryMap &map, std::vector<PassedMemory> passed);
/// Sorts each callee's calls and drops a call recorded twice (a header's
/// inline function summarized by several TUs).
void normalizePassedMemory(PassedMemoryMap &map);

/// The memory parameter `parameter` of `usr` receives, over every call the
/// program shows, following callers that pass their own parameter on.
struct ParameterMemory {
  /// Every call passes memory of one kind, at least one call is seen, and
  /// no caller is hidden (an address taken, a chain too deep or cyclic).
  bool known = false;
  std::string kind;
  std::vector<const PassedMemory *> calls; // the calls that decide
};
ParameterMemory parameterMemory(const PassedMemoryMap &map, const std::string &usr,
                                int parameter);

/// Memory (by pointKey of its allocation or declaration) that some call
/// passes to a function that registers it: pinned at some point, so a copy
/// elsewhere cannot be called pageable.
std::set<std::string> registeredMemory(const PassedMemoryMap &map);

/// What `usr` returns, following forwarding functions across TUs; nullptr
/// when unknown (not summarized, a cycle, or a chain ending elsewhere).
const ReturnedMemory *returnedMemory(const PageableProgram &program, const std::string &usr);

/// Each copy's finding, or none (pinned or device memory; undecided and
/// not Strict). Sorted.
std::vector<Finding> resolvePageableCopies(const PageableProgram &program);

/// The part: merges every TU's facts, then resolvePageableCopies.
WholeProgramPart pageableMemcpyAsyncPart();

} // namespace streamlint
