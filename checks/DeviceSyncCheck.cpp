#include "checks/DeviceSyncCheck.h"
#include "analyzer/analysis/CallerOrdering.h"
#include "analyzer/analysis/NarrowedWaitFix.h"
#include "analyzer/analysis/OrderingSafety.h"
#include "analyzer/analysis/ProgramStream.h"
#include "analyzer/analysis/StreamOperations.h"
#include "analyzer/analysis/StreamResolution.h"

#include "analyzer/reach/CudaApi.h"
#include "analyzer/reach/ReachResolution.h"

#include "checks/LegacyStreamMoves.h"

#include "llvm/ADT/StringExtras.h"


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
    : Check(rule().id, context, options()),
      extraSyncFunctions_(option("ExtraSyncFunctions")),
      extraSync_(reach::parseNameList(extraSyncFunctions_)), suggester_(context.ast()) {}

std::vector<OptionSpec> DeviceSyncCheck::options() {
  return {{"ExtraSyncFunctions", OptionType::NameList, "", {}, "",
           "functions that synchronize the whole device, ';'-separated"}};
}

bool DeviceSyncCheck::synchronizes(const reach::CallSite &site) const {
  return (site.kinds & reach::Synchronizes) || extraSync_.contains(site.name) ||
         extraSync_.contains(llvm::StringRef(api::baseName(site.name)));
}

// The reach analysis has already visited every call of the TU once: its call
// sites, not a second AST walk.
void DeviceSyncCheck::checkCallGraph(reach::TranslationUnitReach &callGraph) {
  reach_ = &callGraph;
  for (const reach::CallSite &site : callGraph.calls()) {
    // A configured wrapper counts as the sync itself: what its body calls is
    // reported at the wrapper's calls, not a second time inside it.
    if (site.caller && site.caller->getIdentifier() &&
        extraSync_.contains(site.caller->getName()))
      continue;
    if (synchronizes(site))
      checkCall(site);
  }
}

/// cudaMemcpy, cudaMemset and friends: they run on the default stream.
static bool isSynchronousCopy(llvm::StringRef name) {
  const api::ApiInfo *info = api::findApi(name);
  return info && info->sync == api::SyncKind::DefaultStream;
}

/// What the call does, in the user's words, without where it runs.
static std::string describe(const reach::CallSite &site) {
  llvm::StringRef name = api::baseName(site.name);
  if (!site.cudaApi || !(site.kinds & reach::Synchronizes))
    return "'" + site.name + "' (device-sync.ExtraSyncFunctions) synchronizes the device";
  const api::ApiInfo *info = api::findApi(name);
  if (info && info->sync == api::SyncKind::Stream)
    return name.str() + " on the legacy default stream waits for all work in "
                        "every blocking stream";
  if (isSynchronousCopy(name))
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
  if (isSynchronousCopy(api::baseName(site.name)))
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
    if (std::optional<FixIt> fix = narrowingFix(site, finding))
      finding.fixes.push_back(std::move(*fix));
    return;
  }
  std::string otherwise = what + "; not on a hot path, but it still serializes all streams";
  if (!site.steadyState) { // error handling, lazy initialization: runs once
    report(Severity::Note, site.expr->getSourceRange(), otherwise, site.expr);
    return;
  }
  // Not in a loop here: a loop may still call this function, maybe from
  // another TU; the whole-program pass decides between warning and note.
  std::optional<Finding> finding = reach_->pendingFinding(id(), site, what + ", ");
  if (!finding)
    return;
  // Its fix holds if a loop reaches it (a note drops it).
  if (std::optional<FixIt> fix = narrowingFix(site, *finding))
    finding->fixes.push_back(std::move(*fix));
  reach::PendingSite pending;
  pending.finding = std::move(*finding);
  pending.messageTail = std::string("; ") + advice; // after where it runs
  pending.function = site.callerUsr;
  pending.root = reach::ReachRoot::Loop;
  pending.otherwiseReported = true;
  pending.otherwiseSeverity = Severity::Note;
  pending.otherwiseMessage = otherwise;
  reach_->defer(std::move(pending));
}

/// Whether work on a stream variable (or an unknown stream) may be pending
/// at `sync` from its own function: issued before it, or in a loop around it.
static bool streamWorkBefore(const clang::CallExpr &sync, const FunctionOperations &operations) {
  std::optional<size_t> at;
  for (size_t i = 0; i < operations.operations.size(); ++i)
    if (operations.operations[i].node == &sync)
      at = i;
  if (!at)
    return true;
  const StreamOperation &wait = operations.operations[*at];
  for (size_t i = 0; i < operations.operations.size(); ++i) {
    const StreamOperation &op = operations.operations[i];
    bool onStream = (op.effect == OperationEffect::Enqueue &&
                     (op.stream.kind == OrderingStream::Variable ||
                      op.stream.kind == OrderingStream::Unknown)) ||
                    op.effect == OperationEffect::Opaque;
    bool reaches = i < *at || (!wait.loops.empty() && llvm::is_contained(op.loops, wait.loops.back()));
    if (onStream && reaches)
      return true;
  }
  return false;
}

/// A fix for the wait at `site`: cudaDeviceSynchronize() -> the one stream
/// the loop uses, or a loop over the array of streams the pending work is
/// on; a synchronous copy -> its Async form on the one stream in use, then a
/// wait for that stream. Judged for ordering (docs/fixes.md, rules 7-9).
std::optional<FixIt> DeviceSyncCheck::narrowingFix(const reach::CallSite &site,
                                                   const Finding &finding) const {
  const api::ApiInfo *info = api::findApi(api::baseName(site.name));
  // The runtime's own calls; the fixes write runtime calls.
  if (!site.call || !info || info->family != api::Family::Runtime)
    return std::nullopt;
  bool ptds = context().info().perThreadDefaultStream;
  const clang::FunctionDecl *function = context().enclosingFunction(*site.call);
  if (!function)
    return std::nullopt;
  std::optional<NarrowedWaitFix> narrowed;
  std::string why;
  bool perThreadTarget = false;
  if (info->sync == api::SyncKind::DefaultStream) {
    std::optional<StreamInScope> stream =
        uniqueStreamInScope(*function, *site.call, context().ast());
    if (stream && stream->variable)
      narrowed = asyncCopyFix(*site.call, stream->variable, context(), ptds);
    else if (!stream && suggester_.perThreadIsTarget(
                            *function, operationsOf(*function, context().ast(), ptds))) {
      narrowed = asyncCopyFix(*site.call, nullptr, context(), ptds);
      perThreadTarget = true;
    }
  } else if (info->sync == api::SyncKind::Device) {
    if (!site.loops.empty())
      narrowed = loopStreamFix(site);
    if (!narrowed)
      narrowed = streamArrayWaitFix(*site.call, context(), ptds, why);
    if (!narrowed)
      narrowed = namedStreamsWaitFix(*site.call, context(), ptds);
    FunctionOperations operations = operationsOf(*function, context().ast(), ptds);
    // Only where no stream variable takes any work: elsewhere the streams'
    // own waits are the narrowing (rules 7 and 8).
    bool onStreams = llvm::any_of(operations.operations, [](const StreamOperation &op) {
      return (op.effect == OperationEffect::Enqueue || op.effect == OperationEffect::HostWaitsStream) &&
             (op.stream.kind == OrderingStream::Variable || op.stream.kind == OrderingStream::Unknown);
    });
    if (!narrowed && !ptds && !onStreams && suggester_.perThreadIsTarget(*function, operations)) {
      narrowed = perThreadWaitFix(*site.call, *function, operations);
      perThreadTarget = narrowed.has_value();
    } else if (!narrowed && !ptds && !streamWorkBefore(*site.call, operations) &&
               suggester_.perThreadIsTarget(*function, operations)) {
      // The function's streams get work only after the wait (perlin's
      // timing wait before its loop): the wait alone, narrowed to the
      // per-thread stream, when the callers leave nothing pending.
      narrowed = perThreadWaitFix(*site.call, *function, operations);
      perThreadTarget = narrowed.has_value();
    }
  }
  if (!narrowed)
    return std::nullopt;
  FixIt fix = std::move(narrowed->fix);
  // Applied only if no work the host then waits for is on another stream
  // (docs/fixes.md).
  OrderingVerdict ordering = narrowed->judge(OrderingAssumption{});
  std::string before = fix.description;
  applyOrderingVerdict(fix, ordering); // a narrowed wait needs no added waits
  if (perThreadTarget) {
    // The per-thread default stream: the whole program decides (one host
    // thread, streams created), main included.
    fix.applicable = false;
    if (std::optional<ordering::ConditionalFix> conditional =
            perThreadConditional(*function, /*narrow=*/true, narrowed->judge)) {
      fix.description = before + "; not applied by --fix: the whole program was not analyzed";
      recordConditionalFix(std::move(*conditional), finding, fix, std::move(before), context());
    } else if (ordering.keepsOrdering) {
      fix.description += "; not applied by --fix: the program's host threads and streams "
                         "could not be checked for this function";
    }
    return fix;
  }
  // A stream parameter every caller passes the legacy stream for changes
  // nothing (cdpAdvancedQuicksort's run_quicksort_cdp(..., NULL)): the
  // whole program decides that too.
  bool parameterTarget = llvm::isa<clang::ParmVarDecl>(narrowed->target) &&
                         isStreamType(narrowed->target->getType());
  if (!ordering.keepsOrdering || parameterTarget) {
    // Refused because of the callers' work (rule 7): the program's callers
    // may decide (analysis/OrderingSummary.h).
    if (std::optional<ordering::ConditionalFix> conditional = conditionalOrdering(
            *function, *narrowed->target, /*narrow=*/true, narrowed->judge))
      recordConditionalFix(std::move(*conditional), finding, fix, std::move(before), context());
  }
  return fix;
}

/// cudaDeviceSynchronize() -> cudaStreamSynchronize(cudaStreamPerThread) in a
/// function whose work has no stream variable to go to (docs/fixes.md, rule
/// 10): applied when all the work the host then waits for is on the
/// per-thread stream, or there is none.
std::optional<NarrowedWaitFix>
DeviceSyncCheck::perThreadWaitFix(const clang::CallExpr &sync, const clang::FunctionDecl &function,
                                  const FunctionOperations &operations, bool withMoves) const {
  std::optional<TextEdit> edit =
      context().edit(clang::CharSourceRange::getTokenRange(sync.getSourceRange()),
                     "cudaStreamSynchronize(cudaStreamPerThread)");
  if (!edit)
    return std::nullopt;
  NarrowedWaitFix narrowed;
  narrowed.fix.description = "synchronize only cudaStreamPerThread, the per-thread default "
                             "stream (no stream variable is in use here)";
  narrowed.fix.edits.push_back(std::move(*edit));
  narrowed.judge = [call = &sync, this](const OrderingAssumption &assume) {
    return checkNarrowedWaitToPerThread(*call, context(), /*perThreadBuild=*/false, assume);
  };
  // Kept on its own where some callers would let it keep every edge.
  if (!withMoves || perThreadConditional(function, /*narrow=*/true, narrowed.judge))
    return narrowed;
  std::vector<LegacyStreamMove> moves =
      perThreadMoves(function, operations, suggester_, context(), /*perThreadBuild=*/false);
  NarrowedWaitFix combined =
      withPerThreadMoves(narrowed, sync, function, operations, moves, /*asyncCopies=*/false);
  if (!moves.empty() && perThreadConditional(function, /*narrow=*/true, combined.judge))
    return combined;
  // The function's synchronous copies made Async on the per-thread stream
  // too, as device-sync's own fixes of them do.
  NarrowedWaitFix withCopies =
      withPerThreadMoves(narrowed, sync, function, operations, moves, /*asyncCopies=*/true);
  if (withCopies.fix.prerequisites.size() > moves.size() &&
      perThreadConditional(function, /*narrow=*/true, withCopies.judge))
    return withCopies;
  return moves.empty() ? narrowed : combined;
}

/// The narrowed wait of perThreadWaitFix together with default-stream's
/// moves of the function's legacy-stream work to cudaStreamPerThread: one
/// fix that makes all of their edits, judged with all of them made, and
/// applied only when default-stream's own fixes of those calls are applied
/// in the same run (FixIt::prerequisites).
NarrowedWaitFix DeviceSyncCheck::withPerThreadMoves(NarrowedWaitFix narrowed,
                                                    const clang::CallExpr &sync,
                                                    const clang::FunctionDecl &function,
                                                    const FunctionOperations &operations,
                                                    const std::vector<LegacyStreamMove> &moves,
                                                    bool asyncCopies) const {
  std::vector<MovedCall> group;
  std::vector<const clang::CallExpr *> copies;
  std::string lines, copyLines;
  if (asyncCopies)
    for (const StreamOperation &op : operations.operations) {
      const auto *call = llvm::dyn_cast<clang::CallExpr>(op.node);
      const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
      if (!callee || !callee->getIdentifier() || !isSynchronousCopy(callee->getName()))
        continue;
      std::optional<NarrowedWaitFix> copy = asyncCopyFix(*call, nullptr, context(), false);
      if (!copy)
        continue;
      std::string line = describeLine(*call, function, context().sources());
      copyLines += (copyLines.empty() ? "" : ", ") + line;
      for (const TextEdit &edit : copy->fix.edits) {
        narrowed.fix.edits.push_back(edit);
        narrowed.fix.prerequisites.push_back({"device-sync", edit, "the " + op.what + " at " + line});
      }
      copies.push_back(call);
    }
  for (const LegacyStreamMove &move : moves) {
    std::string what = "the call";
    for (const StreamOperation &op : operations.operations)
      if (op.node == move.moved.call)
        what = "the " + op.what;
    std::string line = describeLine(*move.moved.call, function, context().sources());
    lines += (lines.empty() ? "" : ", ") + line;
    narrowed.fix.edits.push_back(move.edit);
    narrowed.fix.prerequisites.push_back({"default-stream", move.edit, what + " at " + line});
    group.push_back(move.moved);
  }
  std::vector<std::string> with;
  if (!lines.empty())
    with.push_back("pass it to the legacy-stream work of '" + function.getNameAsString() +
                   "' as default-stream's fixes do (" + lines + ")");
  if (!copyLines.empty())
    with.push_back("make the synchronous copies Async on it as device-sync's fixes do (" +
                   copyLines + ")");
  narrowed.fix.description =
      "synchronize only cudaStreamPerThread, the per-thread default stream, and " +
      llvm::join(with, ", and ") + " (no stream variable is in use here)";
  narrowed.judge = [call = &sync, group = std::move(group), copies = std::move(copies),
                    this](const OrderingAssumption &assume) {
    return checkNarrowedWaitWithPerThreadMoves(*call, group, copies, context(), assume);
  };
  return narrowed;
}

/// cudaDeviceSynchronize() -> cudaStreamSynchronize(s) when every CUDA call in
/// the loop uses stream `s`: the loop only needs `s` drained.
std::optional<NarrowedWaitFix> DeviceSyncCheck::loopStreamFix(const reach::CallSite &site) const {
  const clang::ValueDecl *stream = reach_->uniqueStream(site.loops.front(), site.expr);
  if (!stream)
    return std::nullopt;
  std::optional<TextEdit> edit = context().edit(
      clang::CharSourceRange::getTokenRange(site.call->getSourceRange()),
      "cudaStreamSynchronize(" + stream->getNameAsString() + ")");
  if (!edit)
    return std::nullopt;
  NarrowedWaitFix narrowed;
  narrowed.target = stream;
  narrowed.fix.description = "synchronize only stream '" + stream->getNameAsString() +
                             "', the only stream this loop uses";
  narrowed.fix.edits.push_back(std::move(*edit));
  bool ptds = context().info().perThreadDefaultStream;
  narrowed.judge = [call = site.call, stream, this, ptds](const OrderingAssumption &assume) {
    return checkNarrowedWait(*call, *stream, context(), ptds, assume);
  };
  return narrowed;
}

} // namespace streamlint
