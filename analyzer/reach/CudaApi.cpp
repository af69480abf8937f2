#include "analyzer/reach/CudaApi.h"

#include "analyzer/analysis/StreamResolution.h"

#include "analyzer/reach/ReachSummary.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

namespace streamlint::reach {

llvm::StringRef baseApiName(llvm::StringRef name) {
  for (llvm::StringRef suffix : {"_ptsz", "_ptds", "_v2", "_v3"})
    if (name.ends_with(suffix))
      return baseApiName(name.drop_back(suffix.size()));
  return name;
}

bool hasPerThreadSuffix(llvm::StringRef name) {
  return name.contains("_ptsz") || name.contains("_ptds");
}

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

bool isRemovedCudaApi(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"cudaThreadSynchronize", "cudaThreadExit", "cudaThreadGetLimit",
              "cudaThreadSetLimit", "cudaThreadGetCacheConfig",
              "cudaThreadSetCacheConfig"},
             true)
      .Default(false);
}

int hostCallbackArgument(llvm::StringRef baseName) {
  return llvm::StringSwitch<int>(baseName)
      .Cases({"cudaLaunchHostFunc", "cudaStreamAddCallback", "cuLaunchHostFunc",
              "cuStreamAddCallback"},
             1)
      .Default(-1);
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

unsigned allocationKinds(llvm::StringRef name, const llvm::StringSet<> &extraAlloc) {
  if (extraAlloc.contains(name))
    return Allocates;
  return llvm::StringSwitch<unsigned>(name)
      .Cases({"cudaMalloc", "cudaMallocHost", "cudaHostAlloc", "cudaHostRegister",
              "cudaMallocManaged", "cudaMallocPitch", "cudaMalloc3D",
              "cudaMallocArray", "cudaMalloc3DArray", "cudaMallocMipmappedArray"},
             Allocates)
      .Cases({"cuMemAlloc", "cuMemAllocHost", "cuMemAllocManaged", "cuMemAllocPitch",
              "cuMemHostAlloc", "cuMemHostRegister"},
             Allocates)
      .Cases({"cudaFree", "cudaFreeHost", "cudaHostUnregister", "cudaFreeArray",
              "cudaFreeMipmappedArray", "cuMemFree", "cuMemFreeHost",
              "cuMemHostUnregister"},
             Frees)
      .Default(NoApi);
}

bool isSynchronousCopy(llvm::StringRef name) {
  return llvm::StringSwitch<bool>(name)
      .Cases({"cudaMemcpy", "cudaMemcpy2D", "cudaMemcpy3D", "cudaMemcpyToSymbol",
              "cudaMemcpyFromSymbol", "cudaMemset", "cudaMemset2D", "cudaMemset3D"},
             true)
      .Default(false);
}

bool isDeviceWideSync(llvm::StringRef spelledName, const clang::CallExpr *call,
                      bool perThreadDefault, clang::ASTContext &ast,
                      const llvm::StringSet<> &extraSync) {
  llvm::StringRef name = baseApiName(spelledName);
  if (extraSync.contains(spelledName) || extraSync.contains(name))
    return true;
  if (name == "cudaDeviceSynchronize" || name == "cudaThreadSynchronize" ||
      name == "cuCtxSynchronize")
    return true;
  bool perThread = perThreadDefault || hasPerThreadSuffix(spelledName);
  if (name == "cudaStreamSynchronize" || name == "cuStreamSynchronize") {
    if (!call || call->getNumArgs() < 1)
      return false;
    return isLegacyStream(classifyStreamArgument(call->getArg(0), ast).kind,
                          perThread);
  }
  return isSynchronousCopy(name) && !perThread;
}

} // namespace streamlint::reach
