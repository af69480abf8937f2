#include "bench/parse_rate/ClangSubprocess.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace streamlint::bench {

ClangRun runClang(const std::string &clang, const ClangInvocation &invocation) {
  ClangRun run;
  auto program = llvm::sys::findProgramByName(clang);
  if (!program) {
    run.failure = clang + ": not found on PATH";
    return run;
  }
  llvm::SmallString<128> scratch;
  if (auto ec = llvm::sys::fs::createUniqueDirectory("streamlint-run", scratch)) {
    run.failure = "cannot create a temporary directory: " + ec.message();
    return run;
  }
  // The driver maps virtual files into clang's VFS; a separate clang process
  // needs them on disk, under the scratch directory instead.
  std::vector<std::string> args(invocation.args);
  for (const auto &[virtualPath, contents] : invocation.virtualFiles) {
    llvm::SmallString<256> real(scratch);
    llvm::sys::path::append(real, llvm::sys::path::filename(virtualPath));
    std::error_code ec;
    llvm::raw_fd_ostream out(real, ec);
    out << contents;
    for (auto &arg : args)
      if (arg == virtualPath)
        arg = std::string(real);
  }
  args[0] = *program;
  llvm::SmallString<256> errFile(scratch);
  llvm::sys::path::append(errFile, "stderr.txt");
  std::vector<llvm::StringRef> argv(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(""),
                                                llvm::StringRef(errFile)};
  std::string message;
  run.exitCode = llvm::sys::ExecuteAndWait(*program, argv, std::nullopt,
                                           redirects, 0, 0, &message);
  if (run.exitCode < 0)
    run.failure = message;
  if (auto text = llvm::MemoryBuffer::getFile(errFile)) {
    llvm::SmallVector<llvm::StringRef, 64> lines;
    (*text)->getBuffer().split(lines, '\n');
    for (llvm::StringRef line : lines)
      if (line.contains(": error: ") || line.contains(": fatal error: ") ||
          line.starts_with("clang++: error:") || line.contains("clang++-22: error:"))
        run.errors.push_back(line.str());
  }
  llvm::sys::fs::remove_directories(scratch);
  return run;
}

} // namespace streamlint::bench
