#pragma once
// The probe's view of a CUDA runtime API function: a few trait bits per
// CUPTI callback id, derived once per id from the one API table
// (api/CudaApiTable.h) with the same predicates the checks use, so a call a
// check flags is one the probe classifies the same way.

#include "api/CudaApiTable.h"

#include <cstdint>
#include <string_view>

namespace streamlint::probe {

/// Bit flags describing what a runtime API call does.
enum ApiTrait : std::uint16_t {
  TraitNone = 0,
  TraitLaunch = 1 << 0,        // kernel launch
  TraitStreamOrdered = 1 << 1, // takes a stream: default-stream applies
  TraitMemcpyAsync = 1 << 2,   // async copy with a host side
  TraitAllocation = 1 << 3,    // allocates or frees memory
  TraitSynchronization = 1 << 4, // blocks the host until work finishes
  TraitPerThread = 1 << 5,     // _ptsz/_ptds variant: 0 means per-thread
  TraitDeviceWide = 1 << 6,    // waits for the whole device, whatever its args
  TraitImplicitStream = 1 << 7, // synchronous copy/memset: no stream argument,
                                // runs on the default stream (legacy unless _ptds)
  TraitFrees = 1 << 8,         // releases what an allocation returned
  TraitPinsHost = 1 << 9,      // the range it returns (or registers) is pinned host memory
  TraitManaged = 1 << 10,      // the range it returns is managed memory
  TraitDriverApi = 1 << 11,    // a driver API entry point (cu*), not the runtime's
  TraitRegistersHostFunction = 1 << 12, // set by the probe, not classifyApi:
                                        // see CallbackSelection.h
  TraitFetchesDriverEntryPoint = 1 << 13, // the same (cudaGetDriverEntryPoint)
  TraitKnown = 1 << 15,        // classified (even if no other bit is set)
};

/// Traits of a table row (null: an API the table does not list).
std::uint16_t traitsOf(const api::ApiInfo *info, bool perThread);

/// Traits of a runtime API function given its CUPTI name (any suffix).
std::uint16_t classifyApi(std::string_view name);

} // namespace streamlint::probe
