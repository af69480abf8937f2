// Bench-only: translates every entry of a compile_commands.json with
// streamlint's compiledb library and runs clang with the result, counting the
// TUs that parse with zero errors. Not part of the product.
//   streamlint-parse-rate <compile_commands.json|dir> [clang++-22] [--verbose]
#include "analyzer/compiledb/CompileDatabase.h"
#include "bench/parse_rate/ClangSubprocess.h"

#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace streamlint;

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: " << argv[0]
                 << " <compile_commands.json|build-dir> [clang] [--verbose]\n";
    return 2;
  }
  std::string clang = "clang++-22";
  bool verbose = false;
  for (int i = 2; i < argc; ++i) {
    if (llvm::StringRef(argv[i]) == "--verbose")
      verbose = true;
    else
      clang = argv[i];
  }
  auto entries = loadCompileDatabase(argv[1]);
  if (!entries) {
    llvm::errs() << llvm::toString(entries.takeError()) << "\n";
    return 2;
  }
  unsigned clean = 0, cuda = 0, cudaClean = 0;
  std::map<std::string, unsigned> dropped;
  for (const auto &entry : *entries) {
    Toolchain toolchain = locateToolchain(&entry);
    ClangInvocation invocation = translateForClang(entry, toolchain, {});
    for (const auto &flag : invocation.droppedFlags)
      ++dropped[flag];
    bench::ClangRun run = bench::runClang(clang, invocation);
    bool ok = run.exitCode == 0 && run.errors.empty();
    clean += ok;
    cuda += invocation.isCuda;
    cudaClean += ok && invocation.isCuda;
    if (!run.failure.empty()) {
      llvm::errs() << "cannot run " << clang << ": " << run.failure << "\n";
      return 2;
    }
    if (!ok || verbose) {
      llvm::outs() << (ok ? "CLEAN " : "FAIL  ") << entry.file << "\n";
      for (size_t i = 0; i < run.errors.size() && i < 3; ++i)
        llvm::outs() << "    " << run.errors[i] << "\n";
    }
  }
  for (const auto &[flag, count] : dropped)
    llvm::outs() << "dropped nvcc flag " << flag << " (" << count << " TUs)\n";
  size_t total = entries->size();
  llvm::outs() << "parsed cleanly: " << clean << " of " << total << " TUs ("
               << llvm::format("%.1f", 100.0 * clean / total) << "%); CUDA TUs "
               << cudaClean << " of " << cuda << "\n";
  return 0;
}
