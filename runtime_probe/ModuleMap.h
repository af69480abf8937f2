#pragma once
// A snapshot of the loaded modules (executable and shared libraries) with
// their address ranges, so raw PCs can be symbolized after the process ends.
// Fixed storage: taking a snapshot allocates nothing and reading it is
// async-signal-safe.

#include <cstddef>
#include <cstdint>

namespace streamlint::probe {

/// One loaded ELF object: its executable address range and load bias.
struct ModuleRange {
  std::uintptr_t start = 0;
  std::uintptr_t end = 0;
  std::uintptr_t bias = 0; // dlpi_addr: PC - bias = address in the file
  char path[512] = {};
};

/// The loaded modules (see file comment).
class ModuleMap {
public:
  static constexpr std::size_t kMaxModules = 256;

  /// Re-reads the modules with dl_iterate_phdr (not from a signal handler).
  void snapshot();
  /// Adds a module by hand (tests).
  void add(std::uintptr_t start, std::uintptr_t end, std::uintptr_t bias,
           const char *path);

  /// The module holding `pc`, or nullptr.
  const ModuleRange *find(std::uintptr_t pc) const;
  /// Whether `pc` lies in a module whose file name contains `needle`.
  bool inModuleNamed(std::uintptr_t pc, const char *needle) const;

  std::size_t size() const { return count_; }
  const ModuleRange &operator[](std::size_t i) const { return modules_[i]; }

private:
  ModuleRange modules_[kMaxModules];
  std::size_t count_ = 0;
};

} // namespace streamlint::probe
