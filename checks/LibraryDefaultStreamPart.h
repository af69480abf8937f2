#pragma once
// library-default-stream's whole-program part (analyzer/WholeProgramPart.h):
// library handles (cuBLAS handles, cuFFT plans, cuRAND generators, ...) as
// whole-program facts: per translation unit, what each statement does to a
// handle's storage (creates, binds a stream, does work, passes it to a
// function); after every TU, which created handles do work before a stream
// is bound to them. A handle is usually created in one function or file and
// used in others, so the verdict waits for every TU. No clang types: these
// facts travel in the TU's summary, through the project index and shards.
// The TU's side, which collects them from the AST, is LibraryHandles.h.

#include "analyzer/Finding.h"
#include "analyzer/WholeProgramPart.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace streamlint {

enum class HandleEventKind {
  Create, // cublasCreate(&h)
  Bind,   // cublasSetStream(h, s)
  Work,   // cublasSgemm(h, ...): runs on whatever stream is bound
  Pass,   // helper(h): the callee's parameter decides (bind, work, escape)
};

/// One statement's effect on a handle.
struct HandleEvent {
  HandleEventKind kind = HandleEventKind::Work;
  SourcePoint site;      // the call
  std::string function;  // USR of the function the call is in
  std::string call;      // what is called, as the user wrote it (messages)
  std::string callee;    // Pass: the callee's USR
  unsigned parameter = 0; // Pass: which parameter receives the handle
  /// Create: the finding reported if this handle does work unbound
  /// (message and fix prepared in the TU; the uses are added when resolved).
  std::optional<Finding> finding;
};

/// Where a handle lives, which decides how events in different functions
/// are ordered.
enum class HandleScope {
  Shared,    // a global or a class member: seen by every function and TU
  Local,     // a local variable: events only in its own function
  Parameter, // a function's parameter: what the function does with it
};

/// One handle storage and everything the program does to it.
struct HandleFacts {
  /// USR for globals and members; the function's USR and the variable for
  /// locals; the function's USR, '#' and the index for parameters.
  std::string key;
  std::string name; // as written, for messages
  HandleScope scope = HandleScope::Shared;
  /// Its value went somewhere the analysis does not follow (copied,
  /// returned, stored, passed to an unknown function): never reported.
  bool escapes = false;
  std::vector<HandleEvent> events; // in source order within each function
};

/// The key of a function's parameter in HandleFacts.
std::string parameterHandleKey(const std::string &functionUsr, unsigned index);

/// Merges one TU's facts into `program` (a header's handle is seen by every
/// TU that includes it: events are deduplicated by kind and site).
void mergeHandleFacts(std::map<std::string, HandleFacts> &program,
                      std::vector<HandleFacts> facts);

/// Every created handle that does work before a stream is bound to it, as
/// its creation's finding with each unbound use as related locations.
std::vector<Finding> resolveHandles(const std::map<std::string, HandleFacts> &program);

/// One TU's handles, as the part carries them.
struct LibraryHandleFacts : PartFacts {
  std::vector<HandleFacts> handles;
  nlohmann::json toJson() const override;
  PartFactsPtr withoutFixes() const override;
};

/// The part: every TU's handles merged (mergeHandleFacts), then
/// resolveHandles.
WholeProgramPart libraryDefaultStreamPart();

/// The JSON form of a TU's handles, and back (throws on malformed input).
nlohmann::json handleFactsJson(const std::vector<HandleFacts> &handles);
std::vector<HandleFacts> handleFactsFrom(const nlohmann::json &j);

} // namespace streamlint
