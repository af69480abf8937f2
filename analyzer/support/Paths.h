#pragma once
// The one place paths are normalized, compared and made relative: the
// compile database's entries, named files, config discovery, shards, fixes
// and every report's paths go through these, so a file is the same string
// wherever it is compared.

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace streamlint {

/// `path` made absolute (against the working directory) and without "." or
/// ".." components; symbolic links are kept, as findings name files.
std::string absolutePath(llvm::StringRef path);

/// `path` with every symbolic link resolved; `path` itself when it cannot be
/// (it does not exist). Made absolute first.
std::string realPathOf(llvm::StringRef path);

/// `path` relative to `directory` when it lies below it ("a/b.cu"; whole
/// components, a trailing '/' of `directory` ignored, "/" holds every
/// absolute path), else nullopt (also when `directory` is "").
std::optional<std::string> pathUnderBase(const std::string &path,
                                         const std::string &directory);

/// Relative when under `directory`, else `path` as given.
std::string displayPath(const std::string &path, const std::string &directory);

/// `file` relative to `directory` ('/'-separated, with ".." where it lies
/// outside), both absolute: the same on every machine that checks the
/// project out at any path.
std::string relativePath(const std::string &directory, const std::string &file);

} // namespace streamlint
