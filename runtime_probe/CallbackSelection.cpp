#include "CallbackSelection.h"

#include "ApiCatalog.h"
#include "DriverImports.h"

#include <cstring>
#include <string>
#include <vector>

namespace streamlint::probe {

std::uint16_t observedTraits() {
  return TraitLaunch | TraitStreamOrdered | TraitMemcpyAsync | TraitAllocation |
         TraitSynchronization;
}

namespace {
/// The table's row for `name` when it is of `family`.
const api::ApiInfo *rowOf(std::string_view name, api::Family family) {
  const api::ApiInfo *info = api::findApi(name);
  return info && info->family == family ? info : nullptr;
}

/// The driver entry points that register a host function or fetch entry
/// points, in every spelling a module can import (cuLaunchHostFunc_ptsz,
/// cuGraphAddNode_v2, cuGetProcAddress_v2, ...), from the table.
std::vector<std::string> driverSymbols(bool (*select)(const api::ApiInfo &)) {
  std::vector<std::string> names;
  for (const api::ApiInfo &info : api::allApis())
    if (info.family == api::Family::Driver && select(info))
      for (std::string &name : api::spellingsOf(info))
        names.push_back(std::move(name));
  return names;
}

bool anyModuleImportsOneOf(const std::vector<std::string> &names, const char *const *skip,
                           std::size_t skipCount) {
  std::vector<const char *> pointers;
  for (const std::string &name : names)
    pointers.push_back(name.c_str());
  return anyModuleImports(pointers.data(), pointers.size(), skip, skipCount);
}
} // namespace

bool registersHostFunction(std::string_view name) {
  const api::ApiInfo *info = rowOf(name, api::Family::Runtime);
  return info && api::registersHostFunction(*info);
}

bool fetchesDriverEntryPoint(std::string_view name) {
  const api::ApiInfo *info = rowOf(name, api::Family::Runtime);
  return info && info->fetchesEntryPoint;
}

bool driverSymbolRegistersHostFunction(std::string_view symbol) {
  const api::ApiInfo *info = rowOf(symbol, api::Family::Driver);
  return info && api::registersHostFunction(*info);
}

bool wantsDriverCallback(std::string_view name) {
  const api::ApiInfo *info = rowOf(name, api::Family::Driver);
  if (!info || !(traitsOf(info, false) & observedTraits()))
    return false;
  // The spelling the header maps the name to: cuMemAlloc_v2, not the
  // unversioned cuMemAlloc of old binaries (other parameters); cuCtxSynchronize,
  // not CUDA 13's cuCtxSynchronize_v2 (a context argument).
  std::string_view asWritten = api::parseApiName(name).asWritten;
  std::string expected = std::string(info->name) + std::string(info->version);
  return asWritten == expected;
}

std::vector<std::string> driverSiteSymbols() {
  std::vector<std::string> symbols;
  for (std::string &name : driverSymbols([](const api::ApiInfo &) { return true; }))
    if (wantsDriverCallback(name))
      symbols.push_back(std::move(name));
  return symbols;
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
  static const std::vector<std::string> kRegistrars = driverSymbols(api::registersHostFunction);
  static const std::vector<std::string> kFetchers =
      driverSymbols([](const api::ApiInfo &info) { return info.fetchesEntryPoint; });
  static const char *const kCudaOwn[] = {"libcuda.so", "libcupti.so", "libcudart.so",
                                         "libstreamlint_probe.so", "libnvidia-",
                                         "libcupti_floor.so"};
  constexpr std::size_t kOwn = sizeof kCudaOwn / sizeof *kCudaOwn;
  return anyModuleImportsOneOf(kRegistrars, kCudaOwn, kOwn) ||
                 anyModuleImportsOneOf(kFetchers, kCudaOwn, kOwn)
             ? RuntimeCallbacks::All
             : RuntimeCallbacks::Catalog;
}

} // namespace streamlint::probe
