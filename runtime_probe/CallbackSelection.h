#pragma once
// Which runtime API callbacks the probe turns on. CUPTI adds its dispatch to
// every call whose callback is enabled, whatever the subscriber then does
// with it, so the probe enables only the calls some check looks at (the
// catalog: ApiCatalog.h) instead of the whole runtime domain, plus the calls
// that register host functions. api-in-host-callback flags *every* CUDA call
// made on the driver's callback thread, so the first registration of a host
// function (cudaLaunchHostFunc, cudaStreamAddCallback, a graph host node, a
// user object's destructor) turns the whole runtime domain on: a host
// function runs only after it was registered, and CUPTI honours the change
// at its next dispatch. Programs that register host functions through the
// driver API they import (or import cuGetProcAddress) get the whole domain
// from the start; fetching a registrar through cudaGetDriverEntryPoint turns
// it on at the fetch. Plain C++: the
// CUPTI calls are in CuptiProbe.cpp, Switchboard.cpp and
// bench/probe/cupti_floor.cpp.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace streamlint::probe {

/// The traits (ApiCatalog.h) of the calls whose records a check reads.
std::uint16_t observedTraits();

/// Registers a host function that later runs on the driver's callback
/// thread; `name` is CUPTI's (any suffix).
bool registersHostFunction(std::string_view name);

/// Fetches a driver entry point by name (cudaGetDriverEntryPoint,
/// cudaGetDriverEntryPointByVersion; `name` is CUPTI's): a host function can
/// be registered through the pointer it returns, without an import.
bool fetchesDriverEntryPoint(std::string_view name);

/// The driver entry point `symbol` (as cuGetProcAddress spells it:
/// "cuLaunchHostFunc", "cuStreamAddCallback", ...) registers a host function.
bool driverSymbolRegistersHostFunction(std::string_view symbol);

/// Whether the probe turns on the callback of driver entry point `name`
/// (CUPTI's spelling, as the header maps it: cuMemAlloc_v2, cuMemcpy_ptds):
/// a table row of the driver whose traits a check reads, derived as the
/// runtime's are. Only in programs that import one (driverSitesWanted).
bool wantsDriverCallback(std::string_view name);

/// The symbols of those entry points a module may import (every spelling
/// wantsDriverCallback accepts).
std::vector<std::string> driverSiteSymbols();

/// Whether the probe needs the callback of runtime API `name` (CUPTI's
/// spelling) while it observes only the catalog.
bool wantsRuntimeCallback(std::string_view name);

enum class RuntimeCallbacks : std::uint8_t {
  Catalog, ///< the catalog's calls and registrations; the rest on demand
  All      ///< the whole runtime domain from the start
};

/// Catalog, unless a loaded module other than CUDA's imports a driver entry
/// point that registers a host function (cuLaunchHostFunc, ...) or
/// cuGetProcAddress (which can fetch one unseen);
/// STREAMLINT_PROBE_RUNTIME_CALLBACKS=all or =catalog forces either (to
/// measure what the whole domain costs). `forced` is the variable's value.
RuntimeCallbacks runtimeCallbacksWanted(const char *forced);

} // namespace streamlint::probe
