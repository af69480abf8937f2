#include "checks/DeviceSyncCheck.h"

#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang::ast_matchers;

namespace streamlint {

RuleInfo DeviceSyncCheck::rule() {
  RuleInfo rule;
  rule.id = "device-sync";
  rule.shortDescription = "Device-wide synchronization on a hot path";
  rule.fullDescription =
      "cudaDeviceSynchronize, synchronous cudaMemcpy/cudaMemset and "
      "synchronizing the legacy default stream stall the host until all "
      "preceding work on the device has finished, serializing every stream.";
  rule.helpText = "Synchronize only the stream whose results you need "
                  "(cudaStreamSynchronize(s)) or use events.";
  rule.helpUri = "docs/checks/device-sync.md";
  return rule;
}

void DeviceSyncCheck::registerMatchers(MatchFinder &finder) {
  auto syncCall = callExpr(callee(functionDecl(hasAnyName(
                               "cudaDeviceSynchronize", "cudaThreadSynchronize"))))
                      .bind("call");
  finder.addMatcher(syncCall, this);
}

void DeviceSyncCheck::check(const MatchFinder::MatchResult &result) {
  const auto *call = result.Nodes.getNodeAs<clang::CallExpr>("call");
  report(Severity::Note, call->getSourceRange(),
         "device-wide synchronization", call);
}

} // namespace streamlint
