#include "CallbackSelection.h"

#include "ApiCatalog.h"
#include "DriverImports.h"

#include <cstring>

namespace streamlint::probe {

std::uint16_t observedTraits() {
  return TraitLaunch | TraitStreamOrdered | TraitMemcpyAsync | TraitAllocation |
         TraitSynchronization;
}

bool registersHostFunction(std::string_view name) {
  std::string_view base = api::baseName(name);
  if (const api::ApiInfo *info = api::findApi(base); info && info->callbackIndex >= 0)
    return true; // cudaLaunchHostFunc, cudaStreamAddCallback
  // Host functions that do not go through the table's registrars: graph host
  // nodes (also through the generic node calls), user objects' destructors,
  // log callbacks.
  static constexpr std::string_view kOthers[] = {
      "cudaGraphAddHostNode",  "cudaGraphHostNodeSetParams",
      "cudaGraphExecHostNodeSetParams", "cudaGraphAddNode",
      "cudaGraphNodeSetParams", "cudaGraphExecNodeSetParams",
      "cudaUserObjectCreate",  "cudaLogsRegisterCallback"};
  for (std::string_view other : kOthers)
    if (base == other)
      return true;
  return false;
}

namespace {
// The driver's entry points that register a host function, as
// cuGetProcAddress and the dynamic symbol table spell them.
constexpr const char *kDriverRegistrars[] = {
    "cuLaunchHostFunc",     "cuLaunchHostFunc_ptsz",  "cuStreamAddCallback",
    "cuStreamAddCallback_ptsz", "cuGraphAddHostNode", "cuGraphHostNodeSetParams",
    "cuGraphExecHostNodeSetParams", "cuGraphAddNode", "cuGraphAddNode_v2",
    "cuGraphNodeSetParams", "cuGraphExecNodeSetParams", "cuUserObjectCreate"};
} // namespace

bool fetchesDriverEntryPoint(std::string_view name) {
  std::string_view base = api::baseName(name);
  return base == "cudaGetDriverEntryPoint" || base == "cudaGetDriverEntryPointByVersion";
}

bool driverSymbolRegistersHostFunction(std::string_view symbol) {
  std::string_view base = api::baseName(symbol);
  for (std::string_view registrar : kDriverRegistrars)
    if (base == api::baseName(registrar))
      return true;
  return false;
}

bool wantsRuntimeCallback(std::string_view name) {
  return (classifyApi(name) & observedTraits()) || registersHostFunction(name) ||
         fetchesDriverEntryPoint(name);
}

RuntimeCallbacks runtimeCallbacksWanted(const char *forced) {
  if (forced && *forced) {
    if (std::strcmp(forced, "all") == 0)
      return RuntimeCallbacks::All;
    if (std::strcmp(forced, "catalog") == 0)
      return RuntimeCallbacks::Catalog;
  }
  // cuGetProcAddress can return a registrar this scan cannot see.
  static const char *const kFetchers[] = {"cuGetProcAddress", "cuGetProcAddress_v2"};
  static const char *const kCudaOwn[] = {"libcuda.so", "libcupti.so", "libcudart.so",
                                         "libstreamlint_probe.so", "libnvidia-",
                                         "libcupti_floor.so"};
  constexpr std::size_t kOwn = sizeof kCudaOwn / sizeof *kCudaOwn;
  return anyModuleImports(kDriverRegistrars,
                          sizeof kDriverRegistrars / sizeof *kDriverRegistrars, kCudaOwn,
                          kOwn) ||
                 anyModuleImports(kFetchers, sizeof kFetchers / sizeof *kFetchers, kCudaOwn,
                                  kOwn)
             ? RuntimeCallbacks::All
             : RuntimeCallbacks::Catalog;
}

} // namespace streamlint::probe
