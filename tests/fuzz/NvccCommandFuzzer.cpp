// One compile command (the "command" string of an entry): nvcc's and gcc's
// flags, -Xcompiler lists, response files named in it, translated for clang.
#include "analyzer/compiledb/CompileDatabase.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/StringSaver.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  // The first byte picks the compiler, so both translations are reached.
  bool nvcc = size == 0 || data[0] % 2 == 0;
  llvm::BumpPtrAllocator alloc;
  llvm::StringSaver saver(alloc);
  llvm::SmallVector<const char *, 64> tokens;
  llvm::cl::TokenizeGNUCommandLine(text.drop_front(size ? 1 : 0), saver, tokens);
  streamlint::CompileEntry entry;
  entry.directory = "/fuzz/build";
  entry.file = "/fuzz/src/kernel.cu";
  entry.arguments.push_back(nvcc ? "/usr/local/cuda/bin/nvcc" : "g++");
  entry.arguments.insert(entry.arguments.end(), tokens.begin(), tokens.end());
  streamlint::Toolchain toolchain;
  toolchain.cudaPath = "/fuzz/cuda";
  toolchain.clangResourceDir = "/fuzz/resource";
  toolchain.cudaVersionMajor = 13;
  streamlint::translateForClang(entry, toolchain, {});
  return 0;
}
