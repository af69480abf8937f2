// The host compiler's own include directories. nvcc hands host code to gcc
// (or whatever -ccbin names), which finds headers clang does not have, such
// as gcc's <omp.h>. They are asked of the compiler itself, as gcc reports
// them for `-E -v`, once per compiler, and given to clang with -idirafter:
// clang's own headers of the same name (stddef.h, the intrinsics) still win.
#include "analyzer/compiledb/TranslationParts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"

#include <map>
#include <mutex>
#include <optional>

namespace streamlint::compiledb {
namespace {

bool isClang(llvm::StringRef program) {
  return llvm::sys::path::filename(program).contains("clang");
}

/// nvcc's -ccbin value: a compiler, or a directory holding gcc/g++.
std::string compilerFromCcbin(llvm::StringRef value, const std::string &directory) {
  std::string path = absolutePath(value.str(), directory);
  if (!llvm::sys::fs::is_directory(path))
    return value.contains('/') ? path : value.str(); // a name is found on PATH
  for (const char *name : {"g++", "gcc", "clang++", "c++"}) {
    llvm::SmallString<256> candidate(path);
    llvm::sys::path::append(candidate, name);
    if (llvm::sys::fs::can_execute(candidate))
      return std::string(candidate);
  }
  return "";
}

std::vector<std::string> askCompiler(const std::string &compiler) {
  auto program = compiler.find('/') != std::string::npos
                     ? llvm::ErrorOr<std::string>(compiler)
                     : llvm::sys::findProgramByName(compiler);
  if (!program || !llvm::sys::fs::can_execute(*program))
    return {};
  llvm::SmallString<128> errFile;
  if (llvm::sys::fs::createTemporaryFile("streamlint-host-cc", "txt", errFile))
    return {};
  std::vector<llvm::StringRef> argv = {*program, "-E", "-x", "c++", "-", "-v"};
  std::optional<llvm::StringRef> redirects[] = {
      llvm::StringRef(""), llvm::StringRef(""), llvm::StringRef(errFile)};
  int code = llvm::sys::ExecuteAndWait(*program, argv, std::nullopt, redirects,
                                       /*SecondsToWait=*/30);
  std::vector<std::string> dirs;
  if (auto text = llvm::MemoryBuffer::getFile(errFile); text && code == 0)
    dirs = parseHostIncludeDirs((*text)->getBuffer());
  llvm::sys::fs::remove(errFile);
  return dirs;
}

} // namespace

std::vector<std::string> parseHostIncludeDirs(llvm::StringRef verboseOutput) {
  std::vector<std::string> dirs;
  bool inList = false;
  llvm::SmallVector<llvm::StringRef, 0> lines;
  verboseOutput.split(lines, '\n');
  for (llvm::StringRef line : lines) {
    line = line.rtrim("\r");
    if (line.starts_with("#include <...> search starts here:")) {
      inList = true;
      continue;
    }
    if (!inList)
      continue;
    if (line.starts_with("End of search list."))
      break;
    llvm::StringRef dir = line.trim();
    dir.consume_back(" (framework directory)");
    if (!dir.empty()) {
      llvm::SmallString<256> clean(dir);
      llvm::sys::path::remove_dots(clean, /*remove_dot_dot=*/true);
      dirs.push_back(std::string(clean));
    }
  }
  return dirs;
}

std::string hostCompilerOf(const std::vector<std::string> &args,
                           const CompilerCommand &compiler,
                           const std::string &directory) {
  if (!compiler.isNvcc)
    return isClang(compiler.executable) ? "" : compiler.executable;
  for (size_t i = compiler.firstFlag; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    for (llvm::StringRef flag : {"-ccbin", "--compiler-bindir", "-compiler-bindir"}) {
      if (arg == flag && i + 1 < args.size())
        return compilerFromCcbin(args[i + 1], directory);
      if (arg.consume_front(flag) && arg.consume_front("="))
        return compilerFromCcbin(arg, directory);
    }
  }
  if (auto fromEnvironment = llvm::sys::Process::GetEnv("NVCC_CCBIN"))
    return compilerFromCcbin(*fromEnvironment, directory);
  return "g++"; // nvcc's default host compiler on Linux, found on PATH
}

std::vector<std::string> hostCompilerIncludeDirs(const std::string &compiler) {
  if (compiler.empty() || isClang(compiler))
    return {};
  static std::mutex mutex;
  static std::map<std::string, std::vector<std::string>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto found = cache.find(compiler);
  if (found == cache.end())
    found = cache.emplace(compiler, askCompiler(compiler)).first;
  return found->second;
}

} // namespace streamlint::compiledb
