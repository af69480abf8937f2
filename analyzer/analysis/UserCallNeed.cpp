// UserCallNeed.h: which calls an ordering walk may judge by their callee's
// summary, and the facts of the call the summary is read with.
#include "analyzer/analysis/UserCallNeed.h"
#include "analyzer/analysis/AnalysisScope.h"
#include "analyzer/analysis/DeviceLoop.h"
#include "analyzer/analysis/StreamResolution.h"
#include "analyzer/analysis/StreamSources.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"

namespace streamlint {

std::optional<ordering::CalleeNeed> userCallNeed(const StreamOperation &op,
                                                 const clang::FunctionDecl &function,
                                                 TranslationUnitContext &context) {
  const auto *call = llvm::dyn_cast_or_null<clang::CallExpr>(op.node);
  const clang::FunctionDecl *callee = call ? call->getDirectCallee() : nullptr;
  if (!callee || op.effect != OperationEffect::Opaque || llvm::isa<clang::CXXOperatorCallExpr>(call))
    return std::nullopt;
  if (const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(callee); method && method->isVirtual())
    return std::nullopt;
  const clang::SourceManager &sm = context.sources();
  if (isLibraryFunction(*callee, sm) || selectsDevices(function))
    return std::nullopt;
  ordering::CalleeNeed need;
  need.callee = orderingKey(*callee);
  if (need.callee.empty())
    return std::nullopt;
  need.calleeName = callee->getNameAsString();
  need.site = describeLine(*call, function, sm);
  bool perThreadBuild = context.info().perThreadDefaultStream;
  for (unsigned i = 0; i < callee->getNumParams() && i < call->getNumArgs(); ++i)
    if (isStreamType(callee->getParamDecl(i)->getType()) &&
        isLegacyStream(classifyStreamArgument(call->getArg(i), context.ast(), &function).kind,
                       perThreadBuild)) {
      need.legacyParameter = int(i);
      break;
    }
  return need;
}

} // namespace streamlint
