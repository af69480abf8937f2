#pragma once
// The names of a prebuilt library's exported functions (its dynamic symbol
// table, or its symbol table where there is one), to name the call a
// program made into the library: `cublasCreate_v2`, `ncclAllReduce`,
// `at::empty`. Reads no debug info: a library's line tables never decide a
// call site (SiteResolver), and reading them for a PyTorch process would cost
// most of the launcher's time.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace streamlint::probe {

/// "cublasCreate_v2" -> "cublasCreate" (the name the program wrote; the
/// header's macro adds the version), "pncclAllReduce" -> "ncclAllReduce"
/// (NCCL's profiling alias of the same code), a C++ symbol demangled without
/// its parameters: "_ZN2at5emptyEN3c108ArrayRefIlEE..." -> "at::empty".
std::string libraryCallName(const std::string &symbol);

/// Exported function symbols of the objects asked about. A PyTorch process
/// has libraries with hundreds of thousands of symbols, and a program asks
/// for the names of a few calls: each query scans the object's dynamic
/// symbols once (no sorting, no copies of names), and its answer is kept.
class LibrarySymbols {
public:
  LibrarySymbols();
  ~LibrarySymbols();
  /// The function of `object` containing file address `address`; "" when
  /// none is known (a stripped local function, a file that cannot be read).
  const std::string &functionAt(const std::string &object, std::uintptr_t address);

private:
  struct Opened;
  Opened *open(const std::string &object);
  std::map<std::string, std::unique_ptr<Opened>> objects_;
  std::map<std::pair<std::string, std::uintptr_t>, std::string> answers_;
};

} // namespace streamlint::probe
