// library-default-stream, per-call part: stream arguments of cuBLASLt, NCCL,
// the handle binders and CUB; Thrust execution policies; PyTorch extensions.
#include "checks/LibraryDefaultStreamCheck.h"

#include "analyzer/analysis/SourceFacts.h"

#include "analyzer/analysis/PyTorchExtension.h"
#include "api/LibraryApiTable.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <functional>

namespace streamlint {
namespace {

const char *CostText =
    "the legacy default stream serializes with every blocking stream and is "
    "unordered with non-blocking ones";

std::string whyDefault(const StreamClassification &stream, const clang::Expr *argument) {
  std::string name = stream.variable ? stream.variable->getNameAsString() : "";
  switch (stream.kind) {
  case StreamKind::Omitted:
    return "no stream given";
  case StreamKind::Legacy:
    return name.empty() ? "cudaStreamLegacy" : "'" + name + "' is cudaStreamLegacy";
  default:
    break;
  }
  if (!name.empty())
    return "'" + name + "' is only ever 0";
  const clang::Expr *bare = argument->IgnoreParenCasts();
  if (llvm::isa<clang::CXXNullPtrLiteralExpr>(bare))
    return "stream is nullptr";
  if (llvm::isa<clang::GNUNullExpr>(bare))
    return "stream is NULL";
  return "stream is 0";
}

/// Visits every statement under `root`; stops when `visit` returns true.
bool anyStatement(const clang::Stmt *root,
                  const std::function<bool(const clang::Stmt &)> &visit) {
  if (!root)
    return false;
  if (visit(*root))
    return true;
  for (const clang::Stmt *child : root->children())
    if (anyStatement(child, visit))
      return true;
  return false;
}

/// A Thrust execution policy, from the type of an algorithm's first argument.
enum class ThrustPolicy { None, DefaultStream, OnStream, Other };

ThrustPolicy thrustPolicyOf(const clang::CallExpr &call) {
  if (call.getNumArgs() == 0)
    return ThrustPolicy::None;
  // The algorithms take `execution_policy_base<Policy> const &`: look
  // through the derived-to-base conversion at the policy as written.
  const clang::CXXRecordDecl *record =
      call.getArg(0)->IgnoreImplicit()->getType().getNonReferenceType()->getAsCXXRecordDecl();
  if (!record)
    return ThrustPolicy::None;
  std::string name = record->getQualifiedNameAsString();
  if (name.find("execute_on_stream") != std::string::npos)
    return ThrustPolicy::OnStream;
  // thrust::device is thrust::cuda_cub::par_t; thrust::cuda::par too.
  if (name == "thrust::cuda_cub::par_t" || name == "thrust::cuda_cub::par_nosync_t")
    return ThrustPolicy::DefaultStream;
  return name.find("iterator") != std::string::npos ||
                 name.find("device_ptr") != std::string::npos
             ? ThrustPolicy::None
             : ThrustPolicy::Other;
}

/// Iterators of device memory: with no policy, Thrust dispatches to the device.
bool hasDeviceIterator(const clang::CallExpr &call, const clang::ASTContext &ast) {
  for (const clang::Expr *argument : call.arguments()) {
    std::string type = argument->getType().getCanonicalType().getAsString(
        ast.getPrintingPolicy());
    if (type.find("thrust::device_ptr<") != std::string::npos ||
        type.find("thrust::device_vector<") != std::string::npos)
      return true;
  }
  return false;
}

} // namespace

bool LibraryDefaultStreamCheck::defaultIsLegacy(api::Library library,
                                                StreamKind kind) const {
  if (kind == StreamKind::Legacy)
    return true;
  if (kind != StreamKind::Omitted && kind != StreamKind::Null)
    return false;
  // Shared libraries were built without per-thread default stream: a NULL
  // stream reaching them is the legacy one whatever this TU's build says.
  return !api::compiledIntoCaller(library) || !perThreadBuild_;
}

std::optional<TextEdit>
LibraryDefaultStreamCheck::replaceOrInsertArgument(const clang::CallExpr &call,
                                                   unsigned index,
                                                   const std::string &text) const {
  const clang::ASTContext &ast = context().ast();
  const clang::SourceManager &sm = ast.getSourceManager();
  if (index >= call.getNumArgs())
    return std::nullopt;
  auto fileRange = [&](const clang::Expr *expr) -> std::optional<clang::CharSourceRange> {
    if (!writtenInFile(expr->getBeginLoc(), sm) || !writtenInFile(expr->getEndLoc(), sm))
      return std::nullopt;
    clang::CharSourceRange range = clang::Lexer::makeFileCharRange(
        clang::CharSourceRange::getTokenRange(expr->getSourceRange()), sm,
        ast.getLangOpts());
    if (range.isInvalid())
      return std::nullopt;
    return range;
  };
  const clang::Expr *argument = call.getArg(index);
  if (!llvm::isa<clang::CXXDefaultArgExpr>(argument)) {
    std::optional<clang::CharSourceRange> range = fileRange(argument);
    return range ? context().edit(*range, text) : std::nullopt;
  }
  // Omitted: insert after the last written argument, if no other default
  // stands between (spelling it would be a guess).
  if (index == 0 || llvm::isa<clang::CXXDefaultArgExpr>(call.getArg(index - 1)))
    return std::nullopt;
  std::optional<clang::CharSourceRange> range = fileRange(call.getArg(index - 1));
  if (!range)
    return std::nullopt;
  return context().edit(
      clang::CharSourceRange::getCharRange(range->getEnd(), range->getEnd()), ", " + text);
}

/// Inside a group (ncclGroupStart ... ncclGroupEnd) the library queues the
/// collective's work at the group's end: the probe sees its stream there.
void LibraryDefaultStreamCheck::relateGroupEnd(Finding &finding, const clang::CallExpr &call,
                                               api::Library library) {
  std::string_view groupEnd = api::groupEndOf(library);
  const clang::FunctionDecl *function = context().enclosingFunction(call);
  if (groupEnd.empty() || !function)
    return;
  const clang::SourceManager &sm = context().sources();
  const clang::CallExpr *end = nullptr;
  anyStatement(function->getBody(), [&](const clang::Stmt &s) {
    const auto *other = llvm::dyn_cast<clang::CallExpr>(&s);
    const clang::FunctionDecl *callee = other ? other->getDirectCallee() : nullptr;
    if (!callee || !callee->getIdentifier() ||
        callee->getName() != llvm::StringRef(groupEnd.data(), groupEnd.size()) ||
        !sm.isBeforeInTranslationUnit(call.getBeginLoc(), other->getBeginLoc()))
      return false;
    if (!end || sm.isBeforeInTranslationUnit(other->getBeginLoc(), end->getBeginLoc()))
      end = other;
    return false;
  });
  if (end)
    context().addRelated(finding, end->getBeginLoc(),
                         std::string(groupEnd) +
                             " queues the group's work here (its run-time calls are "
                             "counted at this line)");
}

void LibraryDefaultStreamCheck::checkStreamArgument(const clang::CallExpr &call,
                                                    api::Library library,
                                                    const std::string &what,
                                                    unsigned streamIndex) {
  if (streamIndex >= call.getNumArgs())
    return;
  const clang::Expr *argument = call.getArg(streamIndex);
  StreamClassification stream = classifyStreamArgument(
      argument, context().ast(), context().enclosingFunction(call));
  if (!defaultIsLegacy(library, stream.kind) || !firstReport(call))
    return;
  std::string shared = api::compiledIntoCaller(library)
                           ? ""
                           : " (" + std::string(api::libraryName(library)) +
                                 " is built without per-thread default stream, "
                                 "so this holds in every build)";
  Finding &finding = report(
      Severity::Warning, call.getSourceRange(),
      what + " runs on the legacy default stream (" + whyDefault(stream, argument) +
          ")" + shared + ": " + CostText +
          "; pass the stream this work belongs on",
      &call);
  if (stream.variable)
    context().addRelated(finding, stream.variable->getLocation(),
                         "'" + stream.variable->getNameAsString() +
                             "' is declared here and never holds a created stream");
  relateGroupEnd(finding, call, library);
  std::string pass = streamToPass(call);
  if (pass.empty() || stream.kind == StreamKind::Legacy)
    return;
  std::string description =
      "pass '" + pass + "'" +
      (pyTorchExtension_ ? ", PyTorch's current stream" : ", the stream this function uses");
  std::optional<TextEdit> edit = replaceOrInsertArgument(call, streamIndex, pass);
  // A binder's new stream moves the handle's later work, not this call:
  // that stays a suggestion; a per-call stream moves exactly this call.
  const clang::FunctionDecl *callee = call.getDirectCallee();
  bool binder = callee && callee->getIdentifier() &&
                api::handleBoundBy(std::string_view(callee->getName().data(),
                                                    callee->getName().size()));
  if (binder)
    addSuggestion(finding, std::move(edit), description);
  else
    addMoveFix(finding, call, std::move(edit), description);
}

bool LibraryDefaultStreamCheck::isCubAlgorithm(const clang::FunctionDecl &callee) {
  const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(&callee);
  if (!method || !method->isStatic() || !method->getParent()->getIdentifier())
    return false;
  const clang::DeclContext *space = method->getParent()->getDeclContext();
  while (space && space->isInlineNamespace())
    space = space->getParent();
  const auto *named = llvm::dyn_cast_or_null<clang::NamespaceDecl>(space);
  if (!named || !named->getIdentifier() ||
      !named->getParent()->getRedeclContext()->isTranslationUnit())
    return false;
  llvm::StringRef ns = named->getName(), name = method->getParent()->getName();
  return api::isCubDeviceAlgorithm(std::string_view(ns.data(), ns.size()),
                                   std::string_view(name.data(), name.size()));
}

bool LibraryDefaultStreamCheck::nullOnEveryPath(const clang::Expr &storage,
                                                const clang::CallExpr &call) {
  // (void*)NULL, static_cast<void*>(0), nullptr: C++ calls only the last a
  // null pointer constant, but each is null.
  const clang::Expr *bare = storage.IgnoreParenCasts();
  if (bare->isNullPointerConstant(context().ast(), clang::Expr::NPC_ValueDependentIsNotNull))
    return true;
  if (!llvm::isa<clang::DeclRefExpr>(bare) && !llvm::isa<clang::MemberExpr>(bare))
    return false;
  Provenance value = provenance_.of(&storage, &call, context().enclosingFunction(call));
  return value.kind == MemoryKind::Null;
}

void LibraryDefaultStreamCheck::checkCubCall(const clang::CallExpr &call,
                                             const clang::FunctionDecl &callee) {
  std::optional<StreamArgumentSite> site = streamArgumentOf(call);
  if (!site)
    return;
  // The two-phase overloads take (void *d_temp_storage, size_t &bytes, ...):
  // with the storage null the call is the size query and launches nothing.
  unsigned storageIndex = api::CubTempStorageIndex;
  bool twoPhase = callee.getNumParams() > storageIndex + 1 &&
                  callee.getParamDecl(storageIndex)->getType()->isVoidPointerType() &&
                  call.getNumArgs() > storageIndex;
  if (twoPhase) {
    const clang::Expr *storage = call.getArg(storageIndex);
    if (nullOnEveryPath(*storage, call))
      return;
    // The first of several calls of the algorithm with the same variable,
    // when the variable's value is not visible (a member, a parameter).
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(storage->IgnoreParenImpCasts())) {
      const clang::FunctionDecl *function = context().enclosingFunction(call);
      const clang::SourceManager &sm = context().sources();
      std::string name = callee.getQualifiedNameAsString();
      auto sameStorage = [&](bool after) {
        return function && anyStatement(function->getBody(), [&](const clang::Stmt &s) {
          const auto *other = llvm::dyn_cast<clang::CallExpr>(&s);
          if (!other || other == &call || other->getNumArgs() <= storageIndex ||
              !other->getDirectCallee() ||
              other->getDirectCallee()->getQualifiedNameAsString() != name ||
              sm.isBeforeInTranslationUnit(call.getBeginLoc(), other->getBeginLoc()) != after)
            return false;
          const auto *same = llvm::dyn_cast<clang::DeclRefExpr>(
              other->getArg(storageIndex)->IgnoreParenImpCasts());
          return same && same->getDecl() == ref->getDecl();
        });
      };
      if (sameStorage(/*after=*/true) && !sameStorage(/*after=*/false))
        return;
    }
  }
  checkStreamArgument(call, api::Library::Cub, callee.getQualifiedNameAsString(),
                      site->index);
}

void LibraryDefaultStreamCheck::checkThrustCall(const clang::CallExpr &call) {
  ThrustPolicy policy = thrustPolicyOf(call);
  if (policy == ThrustPolicy::OnStream || policy == ThrustPolicy::Other)
    return;
  if (policy == ThrustPolicy::None && !hasDeviceIterator(call, context().ast()))
    return; // host iterators: runs on the host
  // Under per-thread default stream Thrust's default is cudaStreamPerThread.
  if (perThreadBuild_ && !pyTorchExtension_)
    return;
  const clang::FunctionDecl *function = context().enclosingFunction(call);
  if (!function)
    return;
  const clang::ASTContext &ast = context().ast();
  const clang::Expr *namedStream = nullptr;
  anyStatement(function->getBody(), [&](const clang::Stmt &s) {
    const auto *other = llvm::dyn_cast<clang::CallExpr>(&s);
    std::optional<StreamArgumentSite> site =
        other ? streamArgumentOf(*other) : std::nullopt;
    if (site && classifyStreamArgument(site->argument, ast, function).kind ==
                    StreamKind::Named)
      namedStream = site->argument;
    return namedStream != nullptr;
  });
  if (!namedStream && !pyTorchExtension_)
    return;
  if (!firstReport(call))
    return;
  std::string name = "thrust::" + call.getDirectCallee()->getNameAsString();
  std::string how = policy == ThrustPolicy::None ? " without an execution policy"
                                                 : " with a policy without a stream";
  std::string context_ = pyTorchExtension_
                             ? "in a PyTorch extension, whose work belongs on "
                               "at::cuda::getCurrentCUDAStream()"
                             : "while this function orders its other work on a "
                               "created stream";
  Finding &finding = report(
      Severity::Warning, call.getSourceRange(),
      name + how + " runs on the legacy default stream " + context_ + ": " +
          CostText + "; pass thrust::cuda::par.on(stream) or "
          "thrust::cuda::par_nosync.on(stream)",
      &call);
  if (namedStream)
    context().addRelated(finding, namedStream->getBeginLoc(),
                         "a created stream is used here");
  std::string pass = streamToPass(call);
  if (pass.empty())
    return;
  const clang::SourceManager &sm = context().sources();
  std::optional<TextEdit> edit;
  const clang::Expr *first = call.getNumArgs() ? call.getArg(0) : nullptr;
  if (first && writtenInFile(first->getBeginLoc(), sm) &&
      writtenInFile(first->getEndLoc(), sm)) {
    clang::CharSourceRange range = clang::Lexer::makeFileCharRange(
        clang::CharSourceRange::getTokenRange(first->getSourceRange()), sm,
        ast.getLangOpts());
    const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(first->IgnoreImplicit()->IgnoreParens());
    if (range.isInvalid()) {
    } else if (policy == ThrustPolicy::None) {
      edit = context().edit(clang::CharSourceRange::getCharRange(range.getBegin(),
                                                                 range.getBegin()),
                            "thrust::cuda::par.on(" + pass + "), ");
    } else if (ref && ref->getDecl()->getName() == "device") {
      edit = context().edit(range, "thrust::cuda::par.on(" + pass + ")");
    } else if (ref) {
      edit = context().edit(
          clang::CharSourceRange::getCharRange(range.getEnd(), range.getEnd()),
          ".on(" + pass + ")");
    }
  }
  addSuggestion(finding, std::move(edit),
                "run it on '" + pass + "'" +
                    (pyTorchExtension_ ? ", PyTorch's current stream"
                                       : ", the stream this function uses"));
}

void LibraryDefaultStreamCheck::checkPyTorchSite(const clang::CallExpr &call) {
  std::optional<StreamArgumentSite> site = streamArgumentOf(call);
  if (!site)
    return;
  const clang::FunctionDecl *callee = call.getDirectCallee();
  bool launch = llvm::isa<clang::CUDAKernelCallExpr>(call);
  if (!launch) {
    const api::ApiInfo *row =
        callee && callee->getIdentifier()
            ? api::findApi(std::string_view(callee->getName().data(),
                                            callee->getName().size()))
            : nullptr;
    if (!row || !api::isStreamOrderedWork(*row))
      return;
  }
  StreamClassification stream = classifyStreamArgument(
      site->argument, context().ast(), context().enclosingFunction(call));
  if (stream.kind != StreamKind::Omitted && stream.kind != StreamKind::Null &&
      stream.kind != StreamKind::Legacy)
    return;
  if (!firstReport(call))
    return;
  std::string what = launch ? "kernel launch" : libraryCallName(*callee);
  Finding &finding = report(
      Severity::Warning, call.getSourceRange(),
      what + " in a PyTorch extension ignores the stream PyTorch runs it on (" +
          whyDefault(stream, site->argument) +
          "): it runs on the default stream, unordered with PyTorch's work on "
          "its current stream, and breaks CUDA graph capture; pass "
          "at::cuda::getCurrentCUDAStream()",
      &call);
  const clang::CallExpr *target =
      launch ? llvm::cast<clang::CUDAKernelCallExpr>(call).getConfig() : &call;
  std::optional<TextEdit> edit;
  if (launch && llvm::isa<clang::CXXDefaultArgExpr>(target->getArg(3)) &&
      llvm::isa<clang::CXXDefaultArgExpr>(target->getArg(2))) {
    // kernel<<<g, b>>>: the shared-memory size comes before the stream.
    edit = replaceOrInsertArgument(*target, 2, std::string("0, ") + PyTorchCurrentStream);
  } else {
    edit = replaceOrInsertArgument(*target, site->index, PyTorchCurrentStream);
  }
  addSuggestion(finding, std::move(edit),
                std::string("pass ") + PyTorchCurrentStream + ", PyTorch's current stream");
}

} // namespace streamlint
