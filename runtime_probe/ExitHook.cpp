#include "ExitHook.h"
#include "ElfRelocations.h"

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
  ElfW(Addr) relroStart = 0, relroEnd = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type == PT_GNU_RELRO) {
      relroStart = info->dlpi_addr + ph.p_vaddr;
      relroEnd = relroStart + ph.p_memsz;
    }
  }
  forEachSymbolRelocation(*info, [&](const SymbolRelocation &r) {
    auto type = ELF64_R_TYPE(r.relocation->r_info);
    if ((type != kJumpSlot && type != kGlobDat) || !isExitSymbol(r.name))
      return false;
    auto *slot = reinterpret_cast<ElfW(Addr) *>(r.loadBase + r.relocation->r_offset);
    auto address = reinterpret_cast<ElfW(Addr)>(slot);
    bool relro = address >= relroStart && address < relroEnd;
    if (rewriteSlot(slot, reinterpret_cast<ElfW(Addr)>(&exitAfterFlush), relro))
      ++rewritten;
    return false; // every slot: _exit may be imported through PLT and GOT
  });
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
