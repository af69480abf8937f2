#include "checks/AllocInLoopCheck.h"
#include "checks/AllocInLoopFix.h"

#include "analyzer/analysis/SourceEdits.h"
#include "analyzer/reach/CudaApi.h"
#include "api/CudaApiTable.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

#include <functional>

using namespace clang::ast_matchers;

namespace streamlint {
namespace {

/// The free that releases what `alloc` allocates: cudaMalloc -> cudaFree.
/// Runtime allocations only: the fixes below rewrite runtime calls.
llvm::StringRef pairedFree(llvm::StringRef alloc) {
  const api::ApiInfo *info = api::findApi(alloc);
  if (!info || info->family != api::Family::Runtime)
    return "";
  return llvm::StringRef(info->pairedFree.data(), info->pairedFree.size());
}

} // namespace

RuleInfo AllocInLoopCheck::rule() {
  RuleInfo rule;
  rule.id = "alloc-in-loop";
  rule.shortDescription = "CUDA allocation and free every loop iteration";
  rule.fullDescription =
      "cudaMalloc, cudaFree, cudaMallocHost, cudaHostRegister and friends are "
      "driver round trips, and cudaFree/cudaFreeHost (and often cudaMalloc) "
      "implicitly synchronize the whole device. A loop that allocates and "
      "frees every iteration, directly or through calls in any translation "
      "unit, pays that and stalls all streams each time.";
  rule.helpText = "Allocate once before the loop and free after it, reusing "
                  "the buffer; or use cudaMallocAsync/cudaFreeAsync on a "
                  "stream (stream-ordered pool).";
  rule.helpUri = "docs/checks/alloc-in-loop.md";
  return rule;
}

AllocInLoopCheck::AllocInLoopCheck(TranslationUnitContext &context)
    : Check(rule().id, context, options()),
      extraAllocFunctions_(option("ExtraAllocFunctions")),
      extraFreeFunctions_(option("ExtraFreeFunctions")),
      extraAlloc_(reach::parseNameList(extraAllocFunctions_)),
      extraFree_(reach::parseNameList(extraFreeFunctions_)) {}

std::vector<OptionSpec> AllocInLoopCheck::options() {
  return {{"ExtraAllocFunctions", OptionType::NameList, "", {}, "",
           "functions that allocate like cudaMalloc (pool wrappers), ';'-separated"},
          {"ExtraFreeFunctions", OptionType::NameList, "", {}, "",
           "functions that free like cudaFree, ';'-separated"}};
}

/// The API's allocation bits, plus this check's ExtraAllocFunctions and
/// ExtraFreeFunctions (which never reach the shared call graph).
unsigned AllocInLoopCheck::kindsOf(const reach::CallSite &site) const {
  if (!site.steadyState)
    return reach::NoApi; // error handling, lazy initialization: runs once
  llvm::StringRef base = api::baseName(site.name);
  unsigned kinds = site.kinds & (reach::Allocates | reach::Frees);
  if (extraAlloc_.contains(site.name) || extraAlloc_.contains(base))
    kinds = reach::Allocates;
  if (extraFree_.contains(site.name) || extraFree_.contains(base))
    kinds |= reach::Frees;
  return kinds;
}

// The reach analysis already visited every call; see DeviceSyncCheck.
void AllocInLoopCheck::checkCallGraph(reach::TranslationUnitReach &callGraph) {
  reach_ = &callGraph;
  for (const reach::CallSite &site : callGraph.calls()) {
    // A configured wrapper counts as the allocation itself: its body's
    // cudaMalloc is reported at the wrapper's calls, not a second time.
    if (site.caller && site.caller->getIdentifier() &&
        (extraAlloc_.contains(site.caller->getName()) ||
         extraFree_.contains(site.caller->getName())))
      continue;
    if (kindsOf(site))
      checkCall(site);
  }
}

void AllocInLoopCheck::checkCall(const reach::CallSite &site) {
  bool allocates = kindsOf(site) & reach::Allocates;
  llvm::StringRef name = api::baseName(site.name);
  // Around where the site runs, which the whole-program pass decides.
  std::string before = "'" + name.str() + "' " + (allocates ? "allocates" : "frees") +
                       " every iteration ";
  std::string after =
      std::string(" (the loop both allocates and frees): each call "
                  "is a driver round trip") +
      (name.contains("Host") ? ", pinning or unpinning host pages" : "") +
      ", and allocation calls implicitly synchronize the device, stalling "
      "every stream; allocate once outside the loop and reuse the buffer, or "
      "use cudaMallocAsync/cudaFreeAsync on a stream";
  std::optional<Finding> finding = reach_->pendingFinding(id(), site, before);
  if (!finding)
    return;
  if (allocates && !site.loops.empty())
    addFixes(site, *finding);
  else if (allocates && site.caller && site.caller->getIdentifier())
    finding->related.push_back(
        {context().point(site.expr->getBeginLoc()),
         "no fix moves this allocation out of the loop: the loop is in a caller of '" +
             site.caller->getNameAsString() +
             "', and keeping the buffer across calls is a design change the fix does not make"});
  // Whether the loop churns (allocates and frees) may depend on functions
  // in other TUs: the whole-program pass decides, set-up and teardown loops
  // (only allocations, or only frees) are dropped there.
  reach::PendingSite pending;
  pending.finding = std::move(*finding);
  pending.messageTail = std::move(after);
  pending.function = site.callerUsr;
  pending.loops = reach_->loopPoints(site);
  pending.root = reach::ReachRoot::ChurningLoop;
  for (const auto &name : extraAlloc_)
    pending.allocatingCalls.push_back(name.getKey().str());
  for (const auto &name : extraFree_)
    pending.freeingCalls.push_back(name.getKey().str());
  llvm::sort(pending.allocatingCalls);
  llvm::sort(pending.freeingCalls);
  reach_->defer(std::move(pending));
}

/// The hoist or growth fix first (the preferred one), then the
/// stream-ordered suggestion; a note says why there is no fix. The buffers
/// of one loop whose fixes apply move in one fix, the same on each of their
/// findings (--fix applies identical edits once): separate fixes would each
/// insert before and after the loop, at the same offsets, and conflict.
void AllocInLoopCheck::addFixes(const reach::CallSite &alloc, Finding &finding) const {
  std::string why;
  const reach::CallSite *free = matchingFree(alloc, why);
  if (free) {
    LoopAllocationFix planned = planLoopAllocationFix(context(), *reach_, alloc, *free);
    if (planned.fix && planned.fix->applicable)
      planned.fix = combinedLoopFix(loopFixes(alloc.loops.front()));
    if (planned.fix)
      finding.fixes.push_back(std::move(*planned.fix));
    why = planned.refusal;
    if (std::optional<FixIt> fix = asyncFix(alloc, *free))
      finding.fixes.push_back(std::move(*fix));
  }
  if (!why.empty())
    finding.related.push_back({context().point(alloc.expr->getBeginLoc()),
                               "no fix moves this allocation out of the loop: " + why});
}

/// The applicable fixes of the buffers allocated and freed in `loop`'s own
/// iterations, in source order.
std::vector<FixIt> AllocInLoopCheck::loopFixes(const clang::Stmt *loop) const {
  std::vector<const reach::CallSite *> allocations;
  for (const reach::CallSite *site : reach_->callsInLoop(loop))
    if (!site->loops.empty() && site->loops.front() == loop &&
        (kindsOf(*site) & reach::Allocates))
      allocations.push_back(site);
  llvm::sort(allocations, [&](const reach::CallSite *a, const reach::CallSite *b) {
    return context().sources().isBeforeInTranslationUnit(a->expr->getBeginLoc(),
                                                         b->expr->getBeginLoc());
  });
  std::vector<FixIt> fixes;
  for (const reach::CallSite *site : allocations) {
    std::string unused;
    if (const reach::CallSite *free = matchingFree(*site, unused)) {
      LoopAllocationFix planned = planLoopAllocationFix(context(), *reach_, *site, *free);
      if (planned.fix && planned.fix->applicable)
        fixes.push_back(std::move(*planned.fix));
    }
  }
  return fixes;
}

const reach::CallSite *AllocInLoopCheck::matchingFree(const reach::CallSite &alloc,
                                                      std::string &why) const {
  llvm::StringRef freeName = pairedFree(api::baseName(alloc.name));
  if (!alloc.call || freeName.empty() || alloc.call->getNumArgs() < 2) {
    why = "only cudaMalloc, cudaMallocHost, cudaHostAlloc and cudaMallocManaged are "
          "rewritten";
    return nullptr;
  }
  const clang::VarDecl *buffer = loopBufferVariable(alloc.call->getArg(0), true);
  if (!buffer) {
    why = "the allocation does not store into a named pointer variable (&p)";
    return nullptr;
  }
  const clang::Stmt *loop = alloc.loops.front();
  const reach::CallSite *found = nullptr;
  for (const reach::CallSite *site : reach_->callsInLoop(loop)) {
    if (!site->call || site->call->getNumArgs() < 1 || site == &alloc ||
        !kindsOf(*site))
      continue; // kernels and copies may use the buffer freely
    bool sameBuffer = loopBufferVariable(site->call->getArg(0), false) == buffer ||
                      loopBufferVariable(site->call->getArg(0), true) == buffer;
    if (!sameBuffer)
      continue;
    // Exactly one free of the buffer in the same innermost loop, nothing
    // else allocating into it.
    if (found || site->loops.front() != loop ||
        llvm::StringRef(api::baseName(site->name)) != freeName) {
      why = found ? "the buffer is freed or allocated more than once in the loop"
            : site->loops.front() != loop
                ? "the buffer is freed or allocated again in a nested loop"
                : "the buffer is released by " + std::string(api::baseName(site->name)) +
                      ", not by " + freeName.str();
      return nullptr;
    }
    found = site;
  }
  if (!found)
    why = "the loop does not free '" + buffer->getNameAsString() + "' with " +
          freeName.str() + " in the same iteration (it is freed elsewhere, or by a "
          "function the loop calls)";
  return found;
}

/// Advice only: stream-ordered allocation on the loop's one stream. Not
/// applied automatically because the memory then belongs to that stream's
/// order: other streams and host access need an event or a sync first, and
/// without a pool release threshold the pool may still return memory to the
/// driver at each synchronization.
std::optional<FixIt> AllocInLoopCheck::asyncFix(const reach::CallSite &alloc,
                                                const reach::CallSite &free) const {
  if (api::baseName(alloc.name) != "cudaMalloc" || api::baseName(free.name) != "cudaFree")
    return std::nullopt;
  const clang::ValueDecl *stream =
      reach_->uniqueStream(alloc.loops.front(), {alloc.expr, free.expr});
  if (!stream)
    return std::nullopt;
  auto argumentsText = [&](const clang::CallExpr *call) {
    std::string text;
    for (const clang::Expr *argument : call->arguments())
      text += context().normalizedText(argument->getSourceRange()) + ", ";
    return text + stream->getNameAsString();
  };
  FixIt fix;
  fix.description = "use stream-ordered cudaMallocAsync/cudaFreeAsync on '" +
                    stream->getNameAsString() +
                    "' (memory is then ordered on that stream; synchronize "
                    "before using it elsewhere)";
  fix.applicable = false;
  FixEdits edits(context(), fix);
  for (const clang::CallExpr *call : {alloc.call, free.call})
    if (!edits.replaceTokens(call, (call == alloc.call ? "cudaMallocAsync(" : "cudaFreeAsync(") +
                                       argumentsText(call) + ")"))
      return std::nullopt;
  return fix;
}

} // namespace streamlint
