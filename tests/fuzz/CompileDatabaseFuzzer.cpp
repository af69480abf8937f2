// compile_commands.json as any build system (or a corrupted file) may write
// it: read, then every entry translated for clang. Errors are fine; crashes,
// hangs and sanitizer reports are not.
#include "analyzer/compiledb/CompileDatabase.h"
#include "tests/fuzz/FuzzInput.h"

#include "llvm/Support/Error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string path = streamlint::fuzz::writeScratchFile(data, size,
                                                        "compile_commands.json");
  auto entries = streamlint::loadCompileDatabase(path);
  if (!entries) {
    llvm::consumeError(entries.takeError());
    return 0;
  }
  streamlint::Toolchain toolchain;
  toolchain.cudaPath = "/fuzz/cuda";
  toolchain.clangResourceDir = "/fuzz/resource";
  toolchain.cudaVersionMajor = 13;
  for (const streamlint::CompileEntry &entry : *entries)
    streamlint::translateForClang(entry, toolchain, {});
  return 0;
}
