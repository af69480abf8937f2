#pragma once
// What callers pass for a pointer parameter, across TUs: the memory each
// call's argument refers to, or the caller's own parameter it passes on. The
// whole-program pass decides a copy whose host pointer is a parameter of a
// function that other TUs may call (pageable-memcpy-async).

#include "analyzer/Finding.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace streamlint::reach {

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

/// Calls by callee USR, as ProgramSummary holds them.
using PassedMemoryMap = std::map<std::string, std::vector<PassedMemory>>;

void addPassedMemory(PassedMemoryMap &map, std::vector<PassedMemory> passed);
/// Sorts each callee's calls and drops a call recorded twice (a header's
/// inline function summarized by several TUs): the same whatever the order
/// TUs were added in.
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

} // namespace streamlint::reach
