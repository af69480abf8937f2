// Assembles the clang command line for one compile_commands.json entry:
// response files expanded, the compiler's flags translated, then what the
// located toolchain and the analysis need, with the main file last.
#include "analyzer/compiledb/CompileDatabase.h"
#include "analyzer/compiledb/TranslationParts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"

#include <map>
#include <mutex>

namespace streamlint {
namespace {

// nvcc, like gcc, hands every file but .cu to the host C/C++ compiler.
std::string languageFromExtension(llvm::StringRef file) {
  llvm::StringRef ext = llvm::sys::path::extension(file);
  if (ext == ".cu" || ext == ".cuh")
    return "cuda";
  if (ext == ".c")
    return "c";
  return "c++";
}

/// Whether the command line, read left to right, leaves
/// CUDA_API_PER_THREAD_DEFAULT_STREAM defined. cuda_runtime_api.h tests
/// `defined(...)`, so any value (even 0) selects the per-thread stream.
bool definesPerThreadDefaultStream(const std::vector<std::string> &args) {
  bool defined = false;
  for (llvm::StringRef arg : args) {
    if (arg.consume_front("-D"))
      defined |= arg.split('=').first == "CUDA_API_PER_THREAD_DEFAULT_STREAM";
    else if (arg.consume_front("-U") &&
             arg == "CUDA_API_PER_THREAD_DEFAULT_STREAM")
      defined = false;
  }
  return defined;
}

bool namesGpuArch(const std::vector<std::string> &flags) {
  return llvm::any_of(flags, [](llvm::StringRef flag) {
    return flag.starts_with("--cuda-gpu-arch") ||
           flag.starts_with("--offload-arch");
  });
}

/// The shim for a toolkit, built once (it reads the toolkit's headers).
std::string hostShimText(const Toolchain &toolchain) {
  static std::mutex mutex;
  static std::map<std::string, std::string> texts;
  std::lock_guard<std::mutex> lock(mutex);
  std::string key = toolchain.cudaPath + "\n" + toolchain.clangResourceDir;
  auto found = texts.find(key);
  if (found == texts.end())
    found = texts.emplace(key, compiledb::hostShimHeaderText(toolchain)).first;
  return found->second;
}

} // namespace

ClangInvocation translateForClang(const CompileEntry &entry,
                                  const Toolchain &toolchain,
                                  const TranslateOptions &options) {
  ClangInvocation inv;
  inv.file = entry.file;
  inv.directory = entry.directory;
  auto compiler = compiledb::identifyCompiler(entry.arguments);
  auto args = compiledb::expandResponseFiles(entry.arguments, entry.directory,
                                             compiler.isNvcc, inv.errors);
  compiledb::TranslatedFlags flags =
      compiler.isNvcc
          ? compiledb::translateNvccFlags(args, compiler.firstFlag,
                                          entry.directory, entry.file)
          : compiledb::translateHostCompilerFlags(args, compiler.firstFlag,
                                                  entry.directory, entry.file);
  std::string language = flags.language.empty()
                             ? languageFromExtension(entry.file)
                             : flags.language;
  if (llvm::sys::path::extension(entry.file) == ".cuh")
    language = "cuda";
  inv.isCuda = language == "cuda";
  inv.droppedFlags = std::move(flags.droppedFlags);

  inv.args.push_back("clang++");
  llvm::append_range(inv.args, options.extraArgsBefore);
  llvm::append_range(inv.args, flags.flags);
  if (compiler.isNvcc) {
    llvm::append_range(inv.args,
                       compiledb::implicitNvccFlags(toolchain, inv.isCuda));
    if (inv.isCuda && !toolchain.cudaPath.empty())
      inv.virtualFiles.emplace_back(compiledb::hostShimHeaderPath(),
                                    hostShimText(toolchain));
  }
  // Last in the search order: the host compiler's own headers (gcc's omp.h)
  // that clang lacks; nvcc's host compiler finds them.
  std::string hostCompiler =
      toolchain.askHostCompiler
          ? compiledb::hostCompilerOf(args, compiler, entry.directory)
          : "";
  for (const std::string &dir : compiledb::hostCompilerIncludeDirs(hostCompiler)) {
    inv.args.push_back("-idirafter");
    inv.args.push_back(dir);
  }
  if (inv.isCuda) {
    if (!namesGpuArch(flags.flags)) {
      // nvcc's own default when the command names none (or native/all).
      std::string arch = flags.gpuArch;
      if (arch.empty())
        arch = toolchain.cudaVersionMajor >= 13 ? "sm_75" : "sm_52";
      inv.args.push_back("--cuda-gpu-arch=" + arch);
    }
    if (options.hostOnly)
      inv.args.push_back("--cuda-host-only");
    if (!toolchain.cudaPath.empty())
      inv.args.push_back("--cuda-path=" + toolchain.cudaPath);
    inv.args.push_back("-Wno-unknown-cuda-version");
  }
  inv.args.push_back("-resource-dir=" + toolchain.clangResourceDir);
  inv.args.push_back("-fsyntax-only");
  if (!toolchain.cudaPath.empty())
    inv.versionedDirectories.push_back(toolchain.cudaPath);
  inv.versionedDirectories.push_back(toolchain.clangResourceDir);
  llvm::append_range(inv.args, options.extraArgs);
  inv.perThreadDefaultStream = definesPerThreadDefaultStream(inv.args);
  inv.args.push_back("-x");
  inv.args.push_back(language);
  inv.args.push_back(entry.file);
  return inv;
}

} // namespace streamlint
