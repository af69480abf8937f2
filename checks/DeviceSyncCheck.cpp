#include "checks/DeviceSyncCheck.h"
#include "analyzer/analysis/OrderingSafety.h"

#include "analyzer/reach/CudaApi.h"
#include "analyzer/reach/ReachResolution.h"

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
      "preceding work on the device has finished, serializing every stream. "
      "Inside a loop, or in a function a loop calls (in any translation "
      "unit), that stall repeats every iteration.";
  rule.helpText = "Synchronize only the stream whose results you need "
                  "(cudaStreamSynchronize(s)) or use events; use "
                  "cudaMemcpyAsync on a created stream.";
  rule.helpUri = "docs/checks/device-sync.md";
  return rule;
}

DeviceSyncCheck::DeviceSyncCheck(TranslationUnitContext &context)
    : Check(rule().id, context),
      extraSyncFunctions_(option("ExtraSyncFunctions", "")),
      reach_(reach::TranslationUnitReach::of(context)) {
  if (reach_) {
    reach_->request();
    reach_->addSyncFunctions(reach::parseNameList(extraSyncFunctions_));
  }
}

void DeviceSyncCheck::storeOptions(std::map<std::string, std::string> &options) const {
  options["device-sync.ExtraSyncFunctions"] = extraSyncFunctions_;
}

// The reach analysis has already visited every call of the TU once; one
// match on the TU hands its call sites over instead of a second AST walk.
void DeviceSyncCheck::registerMatchers(MatchFinder &finder) {
  finder.addMatcher(translationUnitDecl().bind("tu"), this);
}

void DeviceSyncCheck::check(const MatchFinder::MatchResult &) {
  if (!reach_)
    return;
  for (const reach::CallSite &site : reach_->calls())
    if (site.kinds & reach::Synchronizes)
      checkCall(site);
}

/// What the call does, in the user's words, without where it runs.
static std::string describe(const reach::CallSite &site) {
  llvm::StringRef name = reach::baseApiName(site.name);
  if (!site.cudaApi)
    return "'" + site.name + "' (device-sync.ExtraSyncFunctions) synchronizes the device";
  if (name == "cudaStreamSynchronize" || name == "cuStreamSynchronize")
    return name.str() + " on the legacy default stream waits for all work in "
                        "every blocking stream";
  if (reach::isSynchronousCopy(name))
    return "synchronous " + name.str() + " runs on the legacy default stream: it "
           "waits for all preceding work in every blocking stream (and, when "
           "host memory is involved, blocks the host until it ends)";
  return name.str() + " blocks the host until all work on the device has "
                      "finished, in every stream";
}

void DeviceSyncCheck::checkCall(const reach::CallSite &site) {
  std::string what = describe(site);
  const char *advice = "synchronize only the stream whose results you need "
                       "(cudaStreamSynchronize(s)) or wait on an event";
  if (reach::isSynchronousCopy(reach::baseApiName(site.name)))
    advice = "use the Async variant on a created stream";
  if (!site.loops.empty()) {
    const reach::LoopFacts &loop = reach_->loop(site.loops.front());
    Finding &finding = report(
        Severity::Warning, site.expr->getSourceRange(),
        what + ", inside the loop at " +
            reach::describePoint(loop.location, context().point(site.expr->getBeginLoc()).file) +
            "; " + advice,
        site.expr);
    finding.related.push_back({loop.location, loop.kind + " loop"});
    if (std::optional<FixIt> fix = streamSyncFix(site))
      finding.fixes.push_back(std::move(*fix));
    return;
  }
  // Not in a loop here: a loop may still call this function, maybe from
  // another TU; the whole-program pass decides between warning and note.
  std::optional<Finding> finding =
      reach_->pendingFinding(id(), site, what + ", {where}; " + advice);
  if (!finding)
    return;
  reach::PendingSite pending;
  pending.finding = std::move(*finding);
  pending.function = site.callerUsr;
  pending.root = reach::ReachRoot::Loop;
  pending.otherwiseReported = true;
  pending.otherwiseSeverity = Severity::Note;
  pending.otherwiseMessage = what + "; not on a hot path, but it still "
                                    "serializes all streams";
  reach_->defer(std::move(pending));
}

/// cudaDeviceSynchronize() -> cudaStreamSynchronize(s) when every CUDA call in
/// the loop uses stream `s`: the loop only needs `s` drained.
std::optional<FixIt> DeviceSyncCheck::streamSyncFix(const reach::CallSite &site) const {
  llvm::StringRef name = reach::baseApiName(site.name);
  if (!site.call || (name != "cudaDeviceSynchronize" && name != "cudaThreadSynchronize"))
    return std::nullopt;
  const clang::ValueDecl *stream = reach_->uniqueStream(site.loops.front(), site.expr);
  if (!stream)
    return std::nullopt;
  std::optional<TextEdit> edit = context().edit(
      clang::CharSourceRange::getTokenRange(site.call->getSourceRange()),
      "cudaStreamSynchronize(" + stream->getNameAsString() + ")");
  if (!edit)
    return std::nullopt;
  FixIt fix;
  fix.description = "synchronize only stream '" + stream->getNameAsString() +
                    "', the only stream this loop uses";
  fix.edits.push_back(std::move(*edit));
  // Applied only if no work the host then waits for is on another stream
  // (docs/fixes.md).
  OrderingVerdict ordering = checkNarrowedWait(*site.call, *stream, context(),
                                               context().info().perThreadDefaultStream);
  if (!ordering.keepsOrdering) {
    fix.description += "; not applied by --fix: " + ordering.brokenBy;
    fix.applicable = false;
  }
  return fix;
}

} // namespace streamlint
