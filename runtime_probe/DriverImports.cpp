#include "DriverImports.h"

#include "CallbackSelection.h"
#include "ElfRelocations.h"
#include "api/LibraryApiTable.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <elf.h>
#include <link.h>

namespace streamlint::probe {
namespace {

struct Query {
  const char *const *names;
  std::size_t nameCount;
  const char *const *skip;
  std::size_t skipCount;
  bool found = false;
};

bool wanted(const Query &q, const char *symbol) {
  for (std::size_t i = 0; i < q.nameCount; ++i)
    if (std::strcmp(symbol, q.names[i]) == 0)
      return true;
  return false;
}

int visitModule(dl_phdr_info *info, std::size_t, void *data) {
  auto &q = *static_cast<Query *>(data);
  const char *path = info->dlpi_name ? info->dlpi_name : "";
  if (std::strstr(path, "linux-vdso") || std::strstr(path, "linux-gate"))
    return 0;
  for (std::size_t i = 0; i < q.skipCount; ++i)
    if (std::strstr(path, q.skip[i]))
      return 0;
  // A prebuilt library's own driver calls are made inside it (and most of a
  // PyTorch process's relocations are there): not the program's imports.
  if (!api::prebuiltLibraryOf(path).empty())
    return 0;
  q.found = forEachSymbolRelocation(*info, [&](const SymbolRelocation &r) {
    return r.symbol->st_shndx == SHN_UNDEF && wanted(q, r.name);
  });
  return q.found ? 1 : 0; // non-zero stops the walk
}

} // namespace

bool anyModuleImports(const char *const *names, std::size_t nameCount,
                      const char *const *skip, std::size_t skipCount) {
  Query q{names, nameCount, skip, skipCount};
  dl_iterate_phdr(visitModule, &q);
  return q.found;
}

bool driverSitesWanted() {
  const char *forced = std::getenv("STREAMLINT_PROBE_DRIVER_SITES");
  if (forced && *forced)
    return std::strcmp(forced, "0") != 0;
  // The driver entry points the checks flag, from the API table
  // (CallbackSelection.h): the same rows the subscription enables.
  static const std::vector<std::string> symbols = driverSiteSymbols();
  std::vector<const char *> imports;
  for (const std::string &symbol : symbols)
    imports.push_back(symbol.c_str());
  static const char *const kCudaOwn[] = {"libcuda.so", "libcupti.so", "libcudart.so",
                                         "libstreamlint_probe.so", "libnvidia-"};
  return anyModuleImports(imports.data(), imports.size(), kCudaOwn,
                          sizeof kCudaOwn / sizeof *kCudaOwn);
}

} // namespace streamlint::probe
