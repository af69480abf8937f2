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
#include <tuple>

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
/// insert before and after the loop, at the same offsets, and conflict. In
/// a template, the findings of the pattern and of each instantiation are one
/// finding after deduplication, so they carry that same fix too.
void AllocInLoopCheck::addFixes(const reach::CallSite &alloc, Finding &finding) const {
  std::string why;
  const reach::CallSite *free = matchingFree(alloc, why);
  const LoopPlan &plan = loopPlan(alloc.loops.front());
  auto known = plan.byAllocation.find(alloc.expr->getBeginLoc().getRawEncoding());
  LoopAllocationFix planned;
  if (known != plan.byAllocation.end())
    planned = known->second;
  else if (free)
    planned = planLoopAllocationFix(context(), *reach_, alloc, *free);
  else
    planned.refusal = why;
  if (planned.fix)
    finding.fixes.push_back(std::move(*planned.fix));
  why = planned.refusal;
  if (free)
    if (std::optional<FixIt> fix = asyncFix(alloc, *free))
      finding.fixes.push_back(std::move(*fix));
  if (!why.empty())
    finding.related.push_back({context().point(alloc.expr->getBeginLoc()),
                               "no fix moves this allocation out of the loop: " + why});
}

std::vector<const clang::Stmt *> AllocInLoopCheck::loopCopies(const clang::Stmt *loop,
                                                              bool &uninstantiated) const {
  std::vector<const clang::Stmt *> instantiated, patterns;
  for (const reach::CallSite &site : reach_->calls())
    for (const clang::Stmt *copy : site.loops) {
      if (copy->getBeginLoc() != loop->getBeginLoc() || copy->getEndLoc() != loop->getEndLoc())
        continue;
      auto &copies = site.caller && site.caller->isDependentContext() ? patterns : instantiated;
      if (!llvm::is_contained(copies, copy))
        copies.push_back(copy);
    }
  uninstantiated = instantiated.empty() && !patterns.empty();
  return instantiated.empty() ? patterns : instantiated;
}

namespace {

/// `typed<int>` for an instantiation, the name otherwise.
std::string nameWithArguments(const clang::FunctionDecl &function) {
  std::string name;
  llvm::raw_string_ostream stream(name);
  function.getNameForDiagnostic(stream, function.getASTContext().getPrintingPolicy(),
                                /*Qualified=*/false);
  return name;
}

bool sameEdits(const FixIt &a, const FixIt &b) {
  return a.edits.size() == b.edits.size() &&
         std::equal(a.edits.begin(), a.edits.end(), b.edits.begin(),
                    [](const TextEdit &x, const TextEdit &y) {
                      return std::tie(x.file, x.offset, x.length, x.replacement) ==
                             std::tie(y.file, y.offset, y.length, y.replacement);
                    });
}

std::string markedNotApplied(FixIt &fix, const std::string &why) {
  std::string description = fix.description;
  size_t tail = description.find("; not applied by --fix: ");
  if (tail != std::string::npos)
    description.resize(tail);
  return description + "; not applied by --fix: " + why;
}

} // namespace

/// Each allocation of the loop is planned in every copy of the loop; the
/// first copy's plan is what its findings show, applicable only when it
/// applies, with the same edits, in every copy (a template's pattern does
/// not count when an instantiation exists: calls that depend on the
/// template's parameters are resolved only there; a template this TU never
/// instantiates gets suggestions only, for the same reason).
const AllocInLoopCheck::LoopPlan &AllocInLoopCheck::loopPlan(const clang::Stmt *loop) const {
  auto [found, inserted] = loopPlans_.try_emplace(
      {loop->getBeginLoc().getRawEncoding(), loop->getEndLoc().getRawEncoding()});
  LoopPlan &plan = found->second;
  if (!inserted)
    return plan;
  bool uninstantiated = false;
  std::vector<const clang::Stmt *> copies = loopCopies(loop, uninstantiated);
  struct Allocation {
    clang::SourceLocation at;
    unsigned applicable = 0; // copies where its fix applies with the first copy's edits
    std::string refused;     // why another copy refuses it
  };
  std::map<unsigned, Allocation> allocations;
  for (const clang::Stmt *copy : copies)
    for (const reach::CallSite *site : reach_->callsInLoop(copy)) {
      if (site->loops.front() != copy || !(kindsOf(*site) & reach::Allocates))
        continue;
      unsigned raw = site->expr->getBeginLoc().getRawEncoding();
      LoopAllocationFix planned;
      if (const reach::CallSite *free = matchingFree(*site, planned.refusal))
        planned = planLoopAllocationFix(context(), *reach_, *site, *free);
      auto [first, isFirst] = plan.byAllocation.try_emplace(raw, planned);
      Allocation &allocation = allocations[raw];
      allocation.at = site->expr->getBeginLoc();
      bool applies = planned.fix && planned.fix->applicable && first->second.fix &&
                     sameEdits(*first->second.fix, *planned.fix);
      allocation.applicable += applies;
      if (!applies && allocation.refused.empty() && copies.size() > 1 && site->caller) {
        std::string why = planned.refusal;
        if (planned.fix) {
          size_t tail = planned.fix->description.find("not applied by --fix: ");
          why = tail == std::string::npos ? "its edits differ"
                                          : planned.fix->description.substr(tail + 22);
        }
        allocation.refused = "in '" + nameWithArguments(*site->caller) + "': " + why;
      }
    }
  std::vector<std::pair<clang::SourceLocation, FixIt>> moved;
  for (auto &[raw, allocation] : allocations) {
    std::optional<FixIt> &fix = plan.byAllocation[raw].fix;
    if (!fix || !fix->applicable)
      continue;
    if (uninstantiated) {
      fix->applicable = false;
      fix->description = markedNotApplied(
          *fix, "the function is a template this file never instantiates, so its calls "
                "that depend on template parameters are not known");
    } else if (allocation.applicable != copies.size()) {
      fix->applicable = false;
      fix->description = markedNotApplied(*fix, allocation.refused);
    } else {
      moved.emplace_back(allocation.at, *fix);
    }
  }
  llvm::sort(moved, [&](const auto &a, const auto &b) {
    return context().sources().isBeforeInTranslationUnit(a.first, b.first);
  });
  std::vector<FixIt> fixes;
  for (auto &[at, fix] : moved)
    fixes.push_back(std::move(fix));
  FixIt combined = combinedLoopFix(fixes);
  for (auto &[raw, allocation] : allocations)
    if (std::optional<FixIt> &fix = plan.byAllocation[raw].fix; fix && fix->applicable)
      fix = combined;
  return plan;
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
