#include <cuda_runtime.h>
void a() { cudaDeviceSynchronize(); } // NOLINT
// NOLINTNEXTLINE(device-sync)
void b() { cudaDeviceSynchronize(); }
// NOLINTBEGIN(streamlint-default-*,-device-sync)
void c() { cudaDeviceSynchronize(); } // NOLINT(device-sync, *)
// NOLINTEND(streamlint-default-*,-device-sync)
// NOLINTEND
/* NOLINTBEGIN */ int d; // NOLINT(
