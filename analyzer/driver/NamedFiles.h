#pragma once
// Files named on the command line that have no entry of their own in the
// compile database: headers (analyzed through the TUs that include them) and
// new sources, analyzed with a command interpolated from a neighbour, as
// clang-tidy and clangd do.

#include "analyzer/compiledb/CompileDatabase.h"

#include <string>
#include <vector>

namespace streamlint {

/// .h, .hh, .hpp, .hxx, .cuh, .inl, .ipp, .tcc, .inc (any case).
bool isHeaderFile(const std::string &path);

/// The index of the entry whose file is nearest to `file`: the longest
/// shared directory prefix, then a CUDA source for a .cuh (C/C++ for
/// others), then database order. `entries` must not be empty.
size_t nearestEntry(const std::vector<CompileEntry> &entries,
                    const std::string &file);

} // namespace streamlint
