#pragma once
// Reading compile_commands.json (CMake with nvcc or clang, Bear, Bazel) and
// turning each entry into the clang command line the analyzer parses.

#include "llvm/Support/Error.h"

#include <string>
#include <utility>
#include <vector>

namespace streamlint {

/// One entry of compile_commands.json, as written ("command" is split).
struct CompileEntry {
  std::string directory;
  std::string file;                // absolute
  std::vector<std::string> arguments;
};

/// Loads `<buildPath>/compile_commands.json` (or `buildPath` itself if it is a
/// file). Errors name the file and, for malformed JSON, line and column.
llvm::Expected<std::vector<CompileEntry>>
loadCompileDatabase(const std::string &buildPath);

/// Where the CUDA toolkit and clang's resource directory are.
struct Toolchain {
  std::string cudaPath;            // "" if none found
  std::string clangResourceDir;
  int cudaVersionMajor = 0;        // from cuda.h CUDA_VERSION
  int cudaVersionMinor = 0;
  int cudaVersionBuild = 0;        // nvcc's build number where the toolkit says it
  /// Ask each entry's host compiler (gcc, nvcc's -ccbin) for its include
  /// directories; off for toolchains made up in memory (tests).
  bool askHostCompiler = true;
  /// Why something was not found or not usable (shown once by the driver).
  std::vector<std::string> problems;
};

/// Finds the toolkit from `--cuda-path`/nvcc path in the command, CUDA_PATH,
/// then /usr/local/cuda; the resource dir from the build configuration.
Toolchain locateToolchain(const CompileEntry *hint = nullptr);

struct TranslateOptions {
  std::vector<std::string> extraArgs;        // appended (clang-tidy --extra-arg)
  std::vector<std::string> extraArgsBefore;  // prepended (--extra-arg-before)
  bool hostOnly = true;                      // --cuda-host-only
  bool parseLibraryBodies = false;           // --parse-library-bodies (ClangInvocation)
};

/// The clang invocation for one entry.
struct ClangInvocation {
  std::string file;                          // absolute main file
  std::string directory;
  std::vector<std::string> args;             // argv, argv[0] is the driver name
  bool isCuda = false;
  bool perThreadDefaultStream = false;       // --default-stream per-thread or the macro
  std::vector<std::string> droppedFlags;     // nvcc flags with no clang meaning
  /// Problems with the entry that did not stop translation; the driver
  /// reports them with the TU if it fails.
  std::vector<std::string> warnings;
  /// Problems that make nvcc or the host compiler fail this entry (a missing,
  /// unreadable or recursive options file): the TU is reported as failed
  /// (exit 3) whatever clang makes of the rest.
  std::vector<std::string> errors;
  /// Directories whose headers are known by version, not by content (the
  /// toolkit, clang's resource directory): the index key names their
  /// versions, so the index need not hash each of their files.
  std::vector<std::string> versionedDirectories;
  /// In-memory files the invocation refers to (host shims); path -> contents.
  std::vector<std::pair<std::string, std::string>> virtualFiles;
  /// The project's directories when findings outside them are not reported:
  /// the checks walk the code in them (and the main file), and of the rest
  /// only what that code calls (analyzer/analysis/AnalysisScope.h). Empty:
  /// all code outside system headers. Not set by translation.
  std::vector<std::string> walkedDirectories;
  /// Parse the bodies of functions declared in system headers, as a
  /// compiler does; off, the parse skips them (AnalysisScope.h, skipsBodyOf).
  /// Part of the parse key. Not set by translation.
  bool parseLibraryBodies = false;
};

/// Where the host shims live in the invocation's virtual file system.
inline constexpr const char *kVirtualShimDir = "/streamlint-virtual";

/// Translates an nvcc or clang/gcc entry into a clang invocation.
ClangInvocation translateForClang(const CompileEntry &entry,
                                  const Toolchain &toolchain,
                                  const TranslateOptions &options);

} // namespace streamlint
