#pragma once
// Internal pieces of translateForClang(), split so each can be tested alone.
// Not part of the compiledb library's public interface.

#include "analyzer/compiledb/CompileDatabase.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace streamlint::compiledb {

/// Replaces `@file` (gcc/clang) and nvcc's `--options-file F`/`-optf F`
/// arguments by the file's tokens, recursively. Relative response-file paths
/// resolve against `directory`. Files that are missing, unreadable or refer
/// to themselves (directly or in a cycle) are kept out of the result and
/// described in `errors`, each naming the flag and the file.
std::vector<std::string> expandResponseFiles(const std::vector<std::string> &args,
                                             const std::string &directory,
                                             bool isNvcc,
                                             std::vector<std::string> &errors);

/// The compiler an entry runs, with launchers (ccache, sccache) skipped.
struct CompilerCommand {
  bool isNvcc = false;
  size_t firstFlag = 1;            // index of the first argument after argv0
  std::string executable;          // as written, e.g. /usr/local/cuda/bin/nvcc
};
CompilerCommand identifyCompiler(const std::vector<std::string> &args);

/// The flags of one entry in clang's terms, before the toolchain is added.
struct TranslatedFlags {
  std::vector<std::string> flags;  // in command order
  std::string language;            // "cuda", "c++", "c" from -x; "" if none
  std::string gpuArch;             // "sm_XX" if the command named one
  bool perThreadDefaultStream = false;
  std::vector<std::string> droppedFlags;
};

/// Translates nvcc's flags (args[first..], response files expanded).
TranslatedFlags translateNvccFlags(const std::vector<std::string> &args,
                                   size_t first, const std::string &directory,
                                   const std::string &mainFile);

/// Filters a gcc/clang entry's flags (args[first..]): drops output and
/// dependency-file flags, -Werror and the main file; makes paths absolute.
TranslatedFlags translateHostCompilerFlags(const std::vector<std::string> &args,
                                           size_t first,
                                           const std::string &directory,
                                           const std::string &mainFile);

/// The host-compiler arguments one `-Xcompiler VALUE` gives, split as nvcc
/// and the shell it runs the host compiler through split them.
std::vector<std::string> splitHostCompilerOptions(llvm::StringRef value);

/// Host-compiler flags that reach clang from nvcc's -Xcompiler: the same
/// filtering as translateHostCompilerFlags, appended to `out`.
void appendHostFlags(const std::vector<std::string> &hostFlags,
                     const std::string &directory, TranslatedFlags &out);

/// `path` made absolute against `directory`, dots removed.
std::string absolutePath(const std::string &path, const std::string &directory);

/// The file of `-include`/`-imacros` as gcc and nvcc find it: in the working
/// directory (the entry's) first, made absolute there; otherwise left as
/// written, so that clang, run in the entry's directory, searches the
/// `#include "..."` chain (-iquote, -I, -isystem) for it as gcc does.
std::string forcedIncludePath(const std::string &path,
                              const std::string &directory);

/// Picks the single clang GPU architecture for a list of nvcc -arch/-code/
/// -gencode values; "" when none names a concrete sm_XX/compute_XX.
std::string pickGpuArch(const std::vector<std::string> &archValues);

/// The forced-include header giving host code what nvcc's CRT gives it: the
/// host min/max overloads, the standard headers the CRT includes and the
/// toolkit intrinsics clang's wrapper leaves out (ToolkitShims.cpp).
std::string hostShimHeaderPath();
std::string hostShimHeaderText(const Toolchain &toolchain);

/// The standard headers `<cuda>/include/crt/{common,math}_functions.h`
/// include, which nvcc's host code therefore sees without including them.
std::vector<std::string> crtSystemHeaders(llvm::StringRef cudaPath);

/// Device declarations of the toolkit's sm_XX intrinsics in headers clang's
/// CUDA wrapper does not include and that clang's headers do not define.
std::string missingIntrinsicDeclarations(llvm::StringRef cudaPath,
                                         llvm::StringRef clangResourceDir);

/// nvcc's memory-order and scope enums (crt/device_functions.h, outside what
/// clang's wrapper includes) and declarations of its `__nv_atomic_*`
/// builtins, when the toolkit has the enums and clang's headers do not.
std::string atomicBuiltinDeclarations(llvm::StringRef cudaPath,
                                      llvm::StringRef clangResourceDir);

/// The host compiler an entry's host code goes to: gcc/g++ entries' own
/// compiler, nvcc's -ccbin (a compiler or a directory), NVCC_CCBIN, else g++.
/// "" for clang entries (clang's directories are ours already).
std::string hostCompilerOf(const std::vector<std::string> &args,
                           const CompilerCommand &compiler,
                           const std::string &directory);

/// The include directories `<compiler> -E -x c++ - -v` reports, asked once
/// per compiler; empty if it cannot be run.
std::vector<std::string> hostCompilerIncludeDirs(const std::string &compiler);

/// The "#include <...> search starts here:" list of gcc/clang `-v` output.
std::vector<std::string> parseHostIncludeDirs(llvm::StringRef verboseOutput);

/// Flags that give CUDA host code what nvcc gives it implicitly: the CCCL
/// include directory (CUDA >= 13), __CUDACC_VER_*__ and the shim header.
std::vector<std::string> implicitNvccFlags(const Toolchain &toolchain,
                                           bool cudaLanguage);

} // namespace streamlint::compiledb
