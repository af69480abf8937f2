#include "DriverImports.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace streamlint::probe;

// This test binary calls strlen and dl_iterate_phdr through libc: its own
// relocations name them. It never imports a driver entry point.
TEST(DriverImports, FindsSymbolsTheProgramImports) {
  const char *libc[] = {"dl_iterate_phdr", "no_such_symbol"};
  const char *none[] = {"cuMemAlloc_v2", "cuStreamSynchronize"};
  EXPECT_TRUE(anyModuleImports(libc, 2, nullptr, 0));
  EXPECT_FALSE(anyModuleImports(none, 2, nullptr, 0));
  // Skipping every module (each path contains "/", the main program's is
  // empty: skipped by the empty pattern) finds nothing.
  const char *everything[] = {""};
  EXPECT_FALSE(anyModuleImports(libc, 2, everything, 1));
}
