#include "DriverImports.h"

#include "api/LibraryApiTable.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
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

// ld.so relocates these d_ptr values in place on x86-64 and aarch64; where it
// does not (a read-only dynamic section, the vDSO), they are still offsets.
template <typename T> const T *pointer(ElfW(Addr) value, ElfW(Addr) base) {
  return reinterpret_cast<const T *>(value < base ? value + base : value);
}

bool scanRelocations(const Query &q, const ElfW(Rela) *rela, std::size_t bytes,
                     const ElfW(Sym) *symbols, const char *strings) {
  for (std::size_t i = 0; i < bytes / sizeof(ElfW(Rela)); ++i) {
    std::size_t index = ELF64_R_SYM(rela[i].r_info);
    if (index == 0)
      continue;
    const ElfW(Sym) &sym = symbols[index];
    if (sym.st_shndx == SHN_UNDEF && wanted(q, strings + sym.st_name))
      return true;
  }
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
  const ElfW(Dyn) *dynamic = nullptr;
  for (int i = 0; i < info->dlpi_phnum; ++i)
    if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
      dynamic = reinterpret_cast<const ElfW(Dyn) *>(info->dlpi_addr +
                                                    info->dlpi_phdr[i].p_vaddr);
  if (!dynamic)
    return 0;
  ElfW(Addr) base = info->dlpi_addr, strtab = 0, symtab = 0, jmprel = 0, rela = 0;
  std::size_t pltBytes = 0, relaBytes = 0;
  bool relaPlt = true;
  for (const ElfW(Dyn) *d = dynamic; d->d_tag != DT_NULL; ++d) {
    switch (d->d_tag) {
    case DT_STRTAB: strtab = d->d_un.d_ptr; break;
    case DT_SYMTAB: symtab = d->d_un.d_ptr; break;
    case DT_JMPREL: jmprel = d->d_un.d_ptr; break;
    case DT_PLTRELSZ: pltBytes = d->d_un.d_val; break;
    case DT_PLTREL: relaPlt = d->d_un.d_val == DT_RELA; break;
    case DT_RELA: rela = d->d_un.d_ptr; break;
    case DT_RELASZ: relaBytes = d->d_un.d_val; break;
    default: break;
    }
  }
  if (!strtab || !symtab)
    return 0;
  auto *symbols = pointer<ElfW(Sym)>(symtab, base);
  auto *strings = pointer<char>(strtab, base);
  if (jmprel && relaPlt &&
      scanRelocations(q, pointer<ElfW(Rela)>(jmprel, base), pltBytes, symbols, strings))
    q.found = true;
  else if (rela && // -fno-plt and data references: GLOB_DAT relocations
           scanRelocations(q, pointer<ElfW(Rela)>(rela, base), relaBytes, symbols, strings))
    q.found = true;
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
  static const char *const kImports[] = {
      "cuMemAlloc_v2", "cuMemAllocPitch_v2", "cuMemAllocManaged", "cuMemAllocHost_v2",
      "cuMemHostAlloc", "cuMemHostRegister_v2", "cuMemFree_v2", "cuMemFreeHost",
      "cuMemHostUnregister", "cuCtxSynchronize", "cuStreamSynchronize",
      "cuStreamSynchronize_ptsz", "cuMemcpyHtoDAsync_v2", "cuMemcpyHtoDAsync_v2_ptsz",
      "cuMemcpyDtoHAsync_v2", "cuMemcpyDtoHAsync_v2_ptsz"};
  static const char *const kCudaOwn[] = {"libcuda.so", "libcupti.so", "libcudart.so",
                                         "libstreamlint_probe.so", "libnvidia-"};
  return anyModuleImports(kImports, sizeof kImports / sizeof *kImports, kCudaOwn,
                          sizeof kCudaOwn / sizeof *kCudaOwn);
}

} // namespace streamlint::probe
