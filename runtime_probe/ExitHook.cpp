#include "ExitHook.h"

#include <cstdint>
#include <cstring>
#include <elf.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace streamlint::probe {
namespace {

#if defined(__aarch64__)
constexpr unsigned kJumpSlot = R_AARCH64_JUMP_SLOT, kGlobDat = R_AARCH64_GLOB_DAT;
#else
constexpr unsigned kJumpSlot = R_X86_64_JUMP_SLOT, kGlobDat = R_X86_64_GLOB_DAT;
#endif

void (*gBeforeExit)() = nullptr;
long gOwner = 0; // the process that hooked: a vfork child shares its memory

[[noreturn]] void exitAfterFlush(int status) {
  // Only the process that hooked writes: a vfork child (posix_spawn,
  // Python's subprocess failing to exec) runs in its parent's memory.
  if (gBeforeExit && syscall(SYS_getpid) == gOwner)
    gBeforeExit();
  for (;;)
    syscall(SYS_exit_group, status); // what _exit does
}

template <typename T> T *at(ElfW(Addr) value, ElfW(Addr) base) {
  return reinterpret_cast<T *>(value < base ? value + base : value);
}

bool isExitSymbol(const char *name) {
  return std::strcmp(name, "_exit") == 0 || std::strcmp(name, "_Exit") == 0;
}

/// Writes `value` into the GOT slot at `slot`, making its page writable
/// for the time of the write where RELRO made it read-only.
bool rewriteSlot(ElfW(Addr) *slot, ElfW(Addr) value, bool relro) {
  long page = sysconf(_SC_PAGESIZE);
  auto start = reinterpret_cast<std::uintptr_t>(slot) & ~std::uintptr_t(page - 1);
  if (relro && mprotect(reinterpret_cast<void *>(start), page, PROT_READ | PROT_WRITE) != 0)
    return false;
  __atomic_store_n(slot, value, __ATOMIC_RELEASE);
  if (relro)
    mprotect(reinterpret_cast<void *>(start), page, PROT_READ);
  return true;
}

int visitModule(dl_phdr_info *info, std::size_t, void *data) {
  unsigned &rewritten = *static_cast<unsigned *>(data);
  const char *path = info->dlpi_name ? info->dlpi_name : "";
  const char *base = std::strrchr(path, '/');
  base = base ? base + 1 : path;
  bool executable = *path == '\0';
  if (!executable && std::strncmp(base, "libpython", 9) != 0)
    return 0;
  const ElfW(Dyn) *dynamic = nullptr;
  ElfW(Addr) relroStart = 0, relroEnd = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_DYNAMIC)
      dynamic = reinterpret_cast<const ElfW(Dyn) *>(info->dlpi_addr + ph.p_vaddr);
    if (ph.p_type == PT_GNU_RELRO) {
      relroStart = info->dlpi_addr + ph.p_vaddr;
      relroEnd = relroStart + ph.p_memsz;
    }
  }
  if (!dynamic)
    return 0;
  ElfW(Addr) strtab = 0, symtab = 0, jmprel = 0, rela = 0;
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
  if (!strtab || !symtab || !relaPlt)
    return 0;
  ElfW(Addr) loadBase = info->dlpi_addr;
  const auto *symbols = at<const ElfW(Sym)>(symtab, loadBase);
  const auto *strings = at<const char>(strtab, loadBase);
  auto scan = [&](ElfW(Addr) table, std::size_t bytes) {
    if (!table)
      return;
    const auto *relocations = at<const ElfW(Rela)>(table, loadBase);
    for (std::size_t i = 0; i < bytes / sizeof(ElfW(Rela)); ++i) {
      const ElfW(Rela) &r = relocations[i];
      auto type = ELF64_R_TYPE(r.r_info);
      std::size_t index = ELF64_R_SYM(r.r_info);
      if (index == 0 || (type != kJumpSlot && type != kGlobDat))
        continue;
      if (!isExitSymbol(strings + symbols[index].st_name))
        continue;
      auto *slot = reinterpret_cast<ElfW(Addr) *>(loadBase + r.r_offset);
      auto address = reinterpret_cast<ElfW(Addr)>(slot);
      bool relro = address >= relroStart && address < relroEnd;
      if (rewriteSlot(slot, reinterpret_cast<ElfW(Addr)>(&exitAfterFlush), relro))
        ++rewritten;
    }
  };
  scan(jmprel, pltBytes);
  scan(rela, relaBytes);
  return 0;
}

} // namespace

unsigned hookExitImports(void (*beforeExit)()) {
  gBeforeExit = beforeExit;
  gOwner = syscall(SYS_getpid);
  unsigned rewritten = 0;
  dl_iterate_phdr(visitModule, &rewritten);
  return rewritten;
}

} // namespace streamlint::probe
