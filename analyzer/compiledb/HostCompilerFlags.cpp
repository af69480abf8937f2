// gcc/clang entries (and nvcc's -Xcompiler flags): clang understands them, so
// they pass through, minus what would make a syntax-only parse write files,
// stop on warnings, or see a second input.
#include "analyzer/compiledb/TranslationParts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace streamlint::compiledb {
namespace {

// Flags whose value is a path, made absolute. Both `-I dir` and `-Idir`.
constexpr llvm::StringRef kPathFlags[] = {"-I", "-isystem", "-iquote",
                                          "-idirafter", "-include", "-imacros"};

// A path flag's value as clang, run in the entry's directory, must see it.
std::string pathFlagValue(llvm::StringRef flag, const std::string &value,
                          const std::string &directory) {
  if (flag == "-include" || flag == "-imacros")
    return forcedIncludePath(value, directory);
  return absolutePath(value, directory);
}
// Dropped with their separate value.
constexpr llvm::StringRef kDropWithValue[] = {"-o", "-MF", "-MT", "-MQ",
                                              "-Xlinker", "-Xassembler",
                                              "-L", "-l", "--serialize-diagnostics"};
// Kept with their separate value.
constexpr llvm::StringRef kKeepWithValue[] = {"-Xclang", "-mllvm", "-target",
                                              "-isysroot", "--sysroot",
                                              "-Xpreprocessor", "-D", "-U"};
// Dropped: output, dependency files, warnings as errors, and CUDA settings
// that translateForClang() sets itself from the located toolchain.
constexpr llvm::StringRef kDropExact[] = {
    "-c", "-MD", "-MMD", "-M", "-MM", "-MP", "-Werror", "-pedantic-errors",
    "-fsyntax-only", "--cuda-host-only", "--cuda-device-only", "-S", "-E"};
constexpr llvm::StringRef kDropPrefixes[] = {"-Werror=", "--cuda-path=",
                                             "-resource-dir=", "-o"};

void appendFlags(const std::vector<std::string> &args, size_t first,
                 const std::string &directory, const std::string &mainFile,
                 TranslatedFlags &out) {
  for (size_t i = first; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    bool hasNext = i + 1 < args.size();
    if (!arg.starts_with("-")) {
      if (mainFile.empty() || absolutePath(arg.str(), directory) != mainFile)
        out.droppedFlags.push_back(arg.str()); // another input or a stray value
      continue;
    }
    if (arg == "-x" && hasNext) {
      out.language = args[++i];
      continue;
    }
    if (arg.starts_with("-x") && arg.size() > 2) {
      out.language = arg.drop_front(2).str();
      continue;
    }
    if (llvm::is_contained(kPathFlags, arg) && hasNext) {
      out.flags.push_back(arg.str());
      out.flags.push_back(pathFlagValue(arg, args[++i], directory));
      continue;
    }
    auto pathFlag = llvm::find_if(kPathFlags, [&](llvm::StringRef flag) {
      return arg.starts_with(flag) && arg.size() > flag.size();
    });
    if (pathFlag != std::end(kPathFlags)) {
      llvm::StringRef value = arg.drop_front(pathFlag->size());
      out.flags.push_back(pathFlag->str() +
                          pathFlagValue(*pathFlag, value.str(), directory));
      continue;
    }
    if (llvm::is_contained(kDropWithValue, arg)) {
      i += hasNext;
      continue;
    }
    if (llvm::is_contained(kKeepWithValue, arg) && hasNext) {
      if (arg == "-D" || arg == "-U") { // attached form: one spelling to scan
        out.flags.push_back(arg.str() + args[++i]);
        continue;
      }
      out.flags.push_back(arg.str());
      out.flags.push_back(args[++i]);
      continue;
    }
    if (llvm::is_contained(kDropExact, arg) ||
        llvm::any_of(kDropPrefixes,
                     [&](llvm::StringRef p) { return arg.starts_with(p); }))
      continue;
    if (arg == "--cuda-path" || arg == "-resource-dir") {
      i += hasNext;
      continue;
    }
    out.flags.push_back(arg.str());
  }
}

} // namespace

std::string absolutePath(const std::string &path, const std::string &directory) {
  llvm::SmallString<256> result(path);
  if (!llvm::sys::path::is_absolute(result)) {
    result = directory;
    llvm::sys::path::append(result, path);
  }
  llvm::sys::path::remove_dots(result, /*remove_dot_dot=*/true);
  return std::string(result);
}

std::string forcedIncludePath(const std::string &path,
                              const std::string &directory) {
  std::string inWorkingDirectory = absolutePath(path, directory);
  if (llvm::sys::path::is_absolute(path) ||
      llvm::sys::fs::exists(inWorkingDirectory))
    return inWorkingDirectory;
  return path;
}

CompilerCommand identifyCompiler(const std::vector<std::string> &args) {
  // Build-system launchers run the real compiler given as their argument.
  static constexpr llvm::StringRef kLaunchers[] = {"ccache", "sccache",
                                                   "distcc", "icecc",
                                                   "buildcache"};
  CompilerCommand command;
  if (args.empty())
    return command;
  size_t index = 0;
  if (args.size() > 1 &&
      llvm::is_contained(kLaunchers, llvm::sys::path::stem(args[0])))
    index = 1;
  command.executable = args[index];
  command.firstFlag = index + 1;
  command.isNvcc = llvm::sys::path::stem(args[index]) == "nvcc";
  return command;
}

TranslatedFlags translateHostCompilerFlags(const std::vector<std::string> &args,
                                           size_t first,
                                           const std::string &directory,
                                           const std::string &mainFile) {
  TranslatedFlags out;
  appendFlags(args, first, directory, mainFile, out);
  if (out.language == "cu")
    out.language = "cuda";
  return out;
}

void appendHostFlags(const std::vector<std::string> &hostFlags,
                     const std::string &directory, TranslatedFlags &out) {
  TranslatedFlags host;
  appendFlags(hostFlags, 0, directory, /*mainFile=*/"", host);
  // -Xcompiler never changes the source language nvcc chose.
  llvm::append_range(out.flags, host.flags);
  llvm::append_range(out.droppedFlags, host.droppedFlags);
}

} // namespace streamlint::compiledb
