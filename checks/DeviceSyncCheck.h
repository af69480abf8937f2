#pragma once
// device-sync: device-wide or legacy-stream synchronization, worst on hot paths.

#include "analyzer/analysis/ProgramStream.h"
#include "checks/Check.h"

#include "analyzer/analysis/NarrowedWaitFix.h"
#include "checks/LegacyStreamMoves.h"

#include "analyzer/reach/TranslationUnitReach.h"

#include <optional>

namespace streamlint {

/// Flags cudaDeviceSynchronize, legacy-stream syncs and synchronous copies:
/// a warning inside a loop or in a function reached from one (any TU), else
/// a note.
class DeviceSyncCheck : public Check {
public:
  explicit DeviceSyncCheck(TranslationUnitContext &context);
  static RuleInfo rule();
  unsigned needs() const override { return NeedsCallGraph; }
  void checkCallGraph(reach::TranslationUnitReach &callGraph) override;
  static std::vector<OptionSpec> options();

private:
  /// The CUDA API's own syncs, and calls of ExtraSyncFunctions.
  bool synchronizes(const reach::CallSite &site) const;
  void checkCall(const reach::CallSite &site);
  std::optional<FixIt> narrowingFix(const reach::CallSite &site, const Finding &finding) const;
  std::optional<NarrowedWaitFix> loopStreamFix(const reach::CallSite &site) const;
  std::optional<NarrowedWaitFix> perThreadWaitFix(const clang::CallExpr &sync,
                                                  const clang::FunctionDecl &function,
                                                  const FunctionOperations &operations,
                                                  bool withMoves = true) const;
  NarrowedWaitFix withPerThreadMoves(NarrowedWaitFix narrowed, const clang::CallExpr &sync,
                                     const clang::FunctionDecl &function,
                                     const FunctionOperations &operations,
                                     const std::vector<LegacyStreamMove> &moves,
                                     bool asyncCopies) const;

  const std::string extraSyncFunctions_;
  const llvm::StringSet<> extraSync_;
  /// Which stream default-stream moves this TU's legacy work to (the
  /// per-thread target of an Async copy must agree); caches per function.
  mutable StreamSuggester suggester_;
  reach::TranslationUnitReach *reach_ = nullptr;
};

} // namespace streamlint
