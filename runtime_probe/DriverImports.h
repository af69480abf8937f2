#pragma once
// Whether the program calls driver API entry points itself. Turning on any
// driver-domain callback makes CUPTI intercept every driver call the runtime
// makes internally (measured on an H100: +1.3 us per cudaMalloc or cudaFree,
// +1.0 us per pinned copy), so the probe only observes the driver entry
// points the checks flag (cuMemAlloc, cuStreamSynchronize, ...) in programs
// that import them: a module's PLT/GOT relocations name the symbol.

#include <cstddef>

namespace streamlint::probe {

/// True when a loaded module whose path contains none of `skip` (CUDA's own
/// libraries, the probe) and that is not a prebuilt library
/// (api::prebuiltLibraryOf: cuBLAS, NCCL, PyTorch, libc, ...) has an
/// undefined-symbol relocation against one of `names`. Modules dlopen'ed later and entry points fetched through
/// cuGetProcAddress are not seen.
bool anyModuleImports(const char *const *names, std::size_t nameCount,
                      const char *const *skip, std::size_t skipCount);

/// Whether to turn on the driver entry-point callbacks: when a module other
/// than CUDA's imports one the checks flag (cuMemAlloc_v2, ...);
/// STREAMLINT_PROBE_DRIVER_SITES=1 or 0 forces them on or off (to measure
/// what they cost).
bool driverSitesWanted();

} // namespace streamlint::probe
