#include "ModuleMap.h"

#include <cstring>
#include <link.h>
#include <unistd.h>

namespace streamlint::probe {
namespace {

int addModule(struct dl_phdr_info *info, std::size_t, void *data) {
  auto *map = static_cast<ModuleMap *>(data);
  std::uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) &ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
      continue;
    std::uintptr_t s = info->dlpi_addr + ph.p_vaddr;
    lo = s < lo ? s : lo;
    hi = s + ph.p_memsz > hi ? s + ph.p_memsz : hi;
  }
  if (hi == 0)
    return 0;
  const char *name = info->dlpi_name;
  char exe[512];
  if (!name || !*name) { // the main program
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    exe[n > 0 ? n : 0] = '\0';
    name = exe;
  }
  map->add(lo, hi, info->dlpi_addr, name);
  return 0;
}

} // namespace

void ModuleMap::snapshot() {
  count_ = 0;
  dl_iterate_phdr(addModule, this);
}

void ModuleMap::add(std::uintptr_t start, std::uintptr_t end,
                    std::uintptr_t bias, const char *path) {
  if (count_ == kMaxModules)
    return;
  ModuleRange &m = modules_[count_++];
  m.start = start;
  m.end = end;
  m.bias = bias;
  std::strncpy(m.path, path, sizeof(m.path) - 1);
  m.path[sizeof(m.path) - 1] = '\0';
}

const ModuleRange *ModuleMap::find(std::uintptr_t pc) const {
  for (std::size_t i = 0; i < count_; ++i)
    if (pc >= modules_[i].start && pc < modules_[i].end)
      return &modules_[i];
  return nullptr;
}

bool ModuleMap::inModuleNamed(std::uintptr_t pc, const char *needle) const {
  const ModuleRange *m = find(pc);
  if (!m)
    return false;
  const char *base = std::strrchr(m->path, '/');
  return std::strstr(base ? base + 1 : m->path, needle) != nullptr;
}

} // namespace streamlint::probe
