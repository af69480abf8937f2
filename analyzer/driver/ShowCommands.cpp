// --show-commands: for each TU, a command a user can paste into a shell to
// see exactly what streamlint parses: the clang binary streamlint is built
// on (not whichever `clang++` is first on PATH), shell-quoted arguments, and
// the in-memory host shims written to files the command names.
#include "analyzer/driver/DriverSteps.h"
#include "analyzer/driver/ExitCode.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <map>

namespace streamlint {
namespace {

/// `text` as one shell word: as is when it has nothing the shell reads
/// specially, else in single quotes.
std::string shellQuote(llvm::StringRef text) {
  bool plain = !text.empty() && llvm::all_of(text, [](char c) {
    return llvm::isAlnum(c) || llvm::StringRef("-_./=:,+@%").contains(c);
  });
  if (plain)
    return text.str();
  std::string quoted = "'";
  for (char c : text)
    quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

bool writeFile(llvm::StringRef path, llvm::StringRef contents) {
  if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path)))
    return false;
  // Write aside, then rename: a concurrent run never sees half a header.
  llvm::SmallString<256> temporary;
  int fd = -1;
  if (llvm::sys::fs::createUniqueFile(path + ".tmp-%%%%%%", fd, temporary))
    return false;
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    out << contents;
    if (out.has_error()) {
      out.clear_error();
      llvm::sys::fs::remove(temporary);
      return false;
    }
  }
  return !llvm::sys::fs::rename(temporary, path);
}

/// Writes the virtual files of all invocations under one directory named
/// by their contents (so it is reused, and two versions never mix):
/// <cache>/streamlint/shims/<hash>. Returns the directory, "" on failure.
std::string writeVirtualFiles(const std::vector<ClangInvocation> &invocations,
                              std::string &problem) {
  std::map<std::string, std::string> files;
  for (const ClangInvocation &invocation : invocations)
    for (const auto &[path, contents] : invocation.virtualFiles)
      files[path] = contents;
  if (files.empty())
    return "";
  std::string all;
  for (const auto &[path, contents] : files)
    all += path + '\0' + contents + '\0';
  std::string hash = llvm::utohexstr(llvm::xxh3_64bits(llvm::arrayRefFromStringRef(all)),
                                     /*LowerCase=*/true);
  llvm::SmallString<256> directory;
  if (!llvm::sys::path::cache_directory(directory))
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, directory);
  llvm::sys::path::append(directory, "streamlint", "shims", hash);
  for (const auto &[path, contents] : files) {
    llvm::SmallString<256> real(directory);
    llvm::sys::path::append(
        real, llvm::StringRef(path).drop_front(llvm::StringRef(kVirtualShimDir).size()));
    if (llvm::sys::fs::exists(real))
      continue; // same hash, same contents
    if (!writeFile(real, contents)) {
      problem = "cannot write " + std::string(real);
      return "";
    }
  }
  return std::string(directory);
}

std::string replaceVirtualDir(std::string arg, const std::string &shimDir) {
  if (shimDir.empty())
    return arg;
  for (size_t at = arg.find(kVirtualShimDir); at != std::string::npos;
       at = arg.find(kVirtualShimDir, at + shimDir.size()))
    arg.replace(at, llvm::StringRef(kVirtualShimDir).size(), shimDir);
  return arg;
}

} // namespace

int showCommands(const AnalyzerOptions &options) {
  auto invocations = listInvocations(options);
  if (!invocations)
    return fail(llvm::toString(invocations.takeError()), ExitUsageError);
  std::string problem;
  std::string shimDir = writeVirtualFiles(*invocations, problem);
  if (!shimDir.empty())
    llvm::outs() << "# host shims (streamlint's in-memory headers) are in "
                 << shimDir << "\n";
  for (const ClangInvocation &invocation : *invocations) {
    llvm::outs() << "cd " << shellQuote(invocation.directory) << " &&";
    for (size_t i = 0; i < invocation.args.size(); ++i) {
      std::string arg = i == 0 ? std::string(STREAMLINT_CLANG_BINARY)
                               : replaceVirtualDir(invocation.args[i], shimDir);
      llvm::outs() << ' ' << shellQuote(arg);
    }
    llvm::outs() << "\n";
    // What the translation could not carry over, as shell comments.
    if (!invocation.droppedFlags.empty())
      llvm::outs() << "# dropped: " << llvm::join(invocation.droppedFlags, " ")
                   << "\n";
    for (const std::string &error : invocation.errors)
      llvm::outs() << "# error: " << error << "\n";
    for (const std::string &warning : invocation.warnings)
      llvm::outs() << "# warning: " << warning << "\n";
    // Where the files could not be written, their contents follow "#| ".
    if (shimDir.empty()) {
      for (const auto &[path, contents] : invocation.virtualFiles) {
        llvm::outs() << "# virtual file " << path << ":\n";
        llvm::SmallVector<llvm::StringRef, 64> lines;
        llvm::StringRef(contents).split(lines, '\n');
        for (llvm::StringRef line : lines)
          llvm::outs() << "#| " << line << "\n";
      }
    }
  }
  if (!problem.empty())
    llvm::errs() << "streamlint: warning: --show-commands: " << problem
                 << "; the host shims are printed inline instead\n";
  return ExitClean;
}

} // namespace streamlint
