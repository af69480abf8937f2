#include "analyzer/reach/CudaApi.h"

#include "analyzer/analysis/StreamResolution.h"

#include "analyzer/reach/ReachSummary.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

namespace streamlint::reach {

static bool isComplexArithmetic(llvm::StringRef name) {
  // cuComplex.h: cuCrealf, cuCaddf, cuCabs, cuConj, ... (host math, no API).
  if (!name.consume_front("cuC"))
    return false;
  name.consume_back("f");
  return llvm::StringSwitch<bool>(name)
      .Cases({"real", "imag", "add", "sub", "mul", "div", "abs", "fma", "onj"}, true)
      .Default(false);
}

bool hasCudaApiName(llvm::StringRef name) {
  if (isComplexArithmetic(name))
    return false;
  // Error-string lookups are table reads that are safe anywhere; flagging
  // them would drown real findings in error-handling macros.
  if (name == "cudaGetErrorString" || name == "cudaGetErrorName" ||
      name == "cuGetErrorString" || name == "cuGetErrorName")
    return false;
  for (llvm::StringRef prefix : {"cuda", "cublas", "cufft", "curand", "cusparse",
                                 "cusolver", "cudnn", "nccl", "nvrtc"})
    if (name.starts_with(prefix))
      return true;
  return name.size() > 2 && name.starts_with("cu") &&
         llvm::isUpper(name[2]);
}

static bool isToolkitHeaderName(llvm::StringRef file) {
  llvm::StringRef name = llvm::sys::path::filename(file);
  if (name == "cuComplex.h")
    return false;
  return name.starts_with("cuda") || name == "cuda.h" ||
         name.starts_with("cublas") || name.starts_with("cufft") ||
         name.starts_with("curand") || name.starts_with("cusparse") ||
         name.starts_with("cusolver") || name.starts_with("cudnn") ||
         name.starts_with("nccl") || name.starts_with("driver_") ||
         name.starts_with("nvrtc");
}

bool isCudaApiFunction(const clang::FunctionDecl &function,
                       const clang::SourceManager &sources) {
  const clang::IdentifierInfo *identifier = function.getIdentifier();
  if (!identifier || !hasCudaApiName(identifier->getName()))
    return false;
  // Methods and functions in namespaces are user (or library C++) code.
  if (!function.getDeclContext()->getRedeclContext()->isTranslationUnit() &&
      !function.isExternC())
    return false;
  clang::SourceLocation location = sources.getExpansionLoc(function.getLocation());
  if (sources.isInSystemHeader(location))
    return true;
  return isToolkitHeaderName(sources.getFilename(location));
}

llvm::StringSet<> parseNameList(llvm::StringRef list) {
  llvm::StringSet<> names;
  llvm::SmallVector<llvm::StringRef, 8> parts;
  list.split(parts, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts)
    if (!part.trim().empty())
      names.insert(part.trim());
  return names;
}

unsigned allocationKinds(const api::ApiInfo *api) {
  if (!api)
    return NoApi;
  return (api::allocatesMemory(*api) ? Allocates : NoApi) |
         (api::freesMemory(*api) ? Frees : NoApi);
}

bool isDeviceWideSync(llvm::StringRef spelledName, const clang::CallExpr *call,
                      bool perThreadDefault, clang::ASTContext &ast) {
  api::ApiName name = api::parseApiName(spelledName);
  const api::ApiInfo *info = api::findApi(name.base);
  if (!info || !api::maySynchronizeDevice(*info))
    return false;
  if (info->sync == api::SyncKind::Device)
    return true;
  bool perThread = perThreadDefault || name.perThread;
  if (info->sync == api::SyncKind::Stream) {
    if (!call || info->streamIndex < 0 ||
        call->getNumArgs() <= static_cast<unsigned>(info->streamIndex))
      return false;
    return isLegacyStream(
        classifyStreamArgument(call->getArg(info->streamIndex), ast).kind, perThread);
  }
  return !perThread; // a synchronous copy on the default stream
}

} // namespace streamlint::reach
