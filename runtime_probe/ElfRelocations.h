#pragma once
// A loaded module's symbol relocations, read from its dynamic section: the
// one walk behind the probe's import scans (DriverImports: does the program
// import a driver entry point the checks flag; ExitHook: which GOT slots
// hold `_exit`). Async-signal-safe enough for start-up: no allocation.

#include <cstddef>
#include <elf.h>
#include <link.h>

namespace streamlint::probe {

/// One relocation that names a symbol.
struct SymbolRelocation {
  const char *name;
  const ElfW(Sym) *symbol;
  const ElfW(Rela) *relocation;
  ElfW(Addr) loadBase;
};

// ld.so relocates these d_ptr values in place on x86-64 and aarch64; where it
// does not (a read-only dynamic section, the vDSO), they are still offsets.
template <typename T> T *dynamicPointer(ElfW(Addr) value, ElfW(Addr) base) {
  return reinterpret_cast<T *>(value < base ? value + base : value);
}

/// Calls `visit` for every relocation naming a symbol in the module's PLT
/// (DT_JMPREL) and data (DT_RELA: -fno-plt, GLOB_DAT) tables, PLT first,
/// until it returns true; returns whether it did.
template <typename Visit> bool forEachSymbolRelocation(const dl_phdr_info &info, Visit visit) {
  const ElfW(Dyn) *dynamic = nullptr;
  for (int i = 0; i < info.dlpi_phnum; ++i)
    if (info.dlpi_phdr[i].p_type == PT_DYNAMIC)
      dynamic = reinterpret_cast<const ElfW(Dyn) *>(info.dlpi_addr + info.dlpi_phdr[i].p_vaddr);
  if (!dynamic)
    return false;
  ElfW(Addr) base = info.dlpi_addr, strtab = 0, symtab = 0, jmprel = 0, rela = 0;
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
    return false;
  const auto *symbols = dynamicPointer<const ElfW(Sym)>(symtab, base);
  const auto *strings = dynamicPointer<const char>(strtab, base);
  auto scan = [&](ElfW(Addr) table, std::size_t bytes) {
    if (!table)
      return false;
    const auto *relocations = dynamicPointer<const ElfW(Rela)>(table, base);
    for (std::size_t i = 0; i < bytes / sizeof(ElfW(Rela)); ++i) {
      std::size_t index = ELF64_R_SYM(relocations[i].r_info);
      if (index == 0)
        continue;
      const ElfW(Sym) &symbol = symbols[index];
      if (visit(SymbolRelocation{strings + symbol.st_name, &symbol, &relocations[i], base}))
        return true;
    }
    return false;
  };
  return (relaPlt && scan(jmprel, pltBytes)) || scan(rela, relaBytes);
}

} // namespace streamlint::probe
