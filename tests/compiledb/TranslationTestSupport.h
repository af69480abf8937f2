#pragma once
// Helpers shared by the compiledb translation tests.

#include "analyzer/compiledb/CompileDatabase.h"

#include <algorithm>
#include <string>
#include <vector>

namespace streamlint::testing {

/// A toolkit that needs no files: no CCCL dir, so no -isystem for it.
inline Toolchain fakeToolchain(int major = 13, int minor = 0) {
  Toolchain toolchain;
  toolchain.cudaPath = "/fake/cuda";
  toolchain.clangResourceDir = "/fake/resource";
  toolchain.cudaVersionMajor = major;
  toolchain.cudaVersionMinor = minor;
  toolchain.cudaVersionBuild = 88;
  toolchain.askHostCompiler = false;
  return toolchain;
}

inline ClangInvocation translate(std::vector<std::string> args,
                                 std::string file = "/src/kernel.cu",
                                 TranslateOptions options = {},
                                 Toolchain toolchain = fakeToolchain()) {
  CompileEntry entry{"/build", std::move(file), std::move(args)};
  return translateForClang(entry, toolchain, options);
}

/// Whether `needle` occurs in `args` as consecutive elements.
inline bool hasSequence(const std::vector<std::string> &args,
                        const std::vector<std::string> &needle) {
  return std::search(args.begin(), args.end(), needle.begin(), needle.end()) !=
         args.end();
}

/// How many arguments start with `prefix`.
inline size_t countPrefix(const std::vector<std::string> &args,
                          const std::string &prefix) {
  return std::count_if(args.begin(), args.end(), [&](const std::string &arg) {
    return arg.compare(0, prefix.size(), prefix) == 0;
  });
}

/// Whether any argument contains `text`.
inline bool mentions(const std::vector<std::string> &args,
                     const std::string &text) {
  return std::any_of(args.begin(), args.end(), [&](const std::string &arg) {
    return arg.find(text) != std::string::npos;
  });
}

} // namespace streamlint::testing
