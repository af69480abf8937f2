// Minimal first version: reads the JSON and passes clang entries through.
// The nvcc translation lands with the compile-database work.
#include "analyzer/compiledb/CompileDatabase.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

namespace streamlint {

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<std::vector<CompileEntry>>
loadCompileDatabase(const std::string &buildPath) {
  llvm::SmallString<256> path(buildPath);
  if (llvm::sys::fs::is_directory(path))
    llvm::sys::path::append(path, "compile_commands.json");
  auto buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    return error(path + ": cannot read: " + buffer.getError().message());
  auto json = llvm::json::parse((*buffer)->getBuffer());
  if (!json)
    return error(path + ": malformed JSON: " + llvm::toString(json.takeError()));
  std::vector<CompileEntry> entries;
  auto *array = json->getAsArray();
  if (!array)
    return error(path + ": expected a JSON array of compile commands");
  for (auto &value : *array) {
    auto *object = value.getAsObject();
    if (!object)
      continue;
    CompileEntry entry;
    entry.directory = object->getString("directory").value_or("").str();
    llvm::StringRef name = object->getString("file").value_or("");
    llvm::SmallString<256> file(name);
    if (llvm::sys::path::is_relative(name)) {
      file = entry.directory;
      llvm::sys::path::append(file, name);
    }
    entry.file = std::string(file);
    if (auto *args = object->getArray("arguments")) {
      for (auto &arg : *args)
        entry.arguments.push_back(arg.getAsString().value_or("").str());
    } else if (auto command = object->getString("command")) {
      llvm::BumpPtrAllocator alloc;
      llvm::StringSaver saver(alloc);
      llvm::SmallVector<const char *, 64> argv;
      llvm::cl::TokenizeGNUCommandLine(*command, saver, argv);
      for (const char *arg : argv)
        entry.arguments.push_back(arg);
    }
    entries.push_back(std::move(entry));
  }
  return entries;
}

Toolchain locateToolchain(const CompileEntry *) {
  Toolchain toolchain;
  toolchain.clangResourceDir = STREAMLINT_CLANG_RESOURCE_DIR;
  if (llvm::sys::fs::exists("/usr/local/cuda/include/cuda.h"))
    toolchain.cudaPath = "/usr/local/cuda";
  return toolchain;
}

ClangInvocation translateForClang(const CompileEntry &entry,
                                  const Toolchain &toolchain,
                                  const TranslateOptions &options) {
  ClangInvocation inv;
  inv.file = entry.file;
  inv.directory = entry.directory;
  inv.args.push_back("clang++");
  for (auto &arg : options.extraArgsBefore)
    inv.args.push_back(arg);
  bool skipNext = false;
  for (size_t i = 1; i < entry.arguments.size(); ++i) {
    const std::string &arg = entry.arguments[i];
    if (skipNext) {
      skipNext = false;
      continue;
    }
    if (arg == "-o") {
      skipNext = true;
      continue;
    }
    if (arg == "-c" || arg == entry.file ||
        llvm::StringRef(arg).ends_with(llvm::sys::path::filename(entry.file)))
      continue;
    inv.args.push_back(arg);
  }
  inv.isCuda = llvm::StringRef(entry.file).ends_with(".cu") ||
               llvm::StringRef(entry.file).ends_with(".cuh");
  if (inv.isCuda) {
    inv.args.insert(inv.args.begin() + 1, {"-x", "cuda"});
    if (options.hostOnly)
      inv.args.push_back("--cuda-host-only");
    if (!toolchain.cudaPath.empty())
      inv.args.push_back("--cuda-path=" + toolchain.cudaPath);
    inv.args.push_back("-Wno-unknown-cuda-version");
  }
  inv.args.push_back("-resource-dir=" + toolchain.clangResourceDir);
  for (auto &arg : options.extraArgs)
    inv.args.push_back(arg);
  inv.args.push_back("-fsyntax-only");
  inv.args.push_back(entry.file);
  return inv;
}

} // namespace streamlint
