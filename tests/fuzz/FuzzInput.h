#pragma once
// Shared by the fuzz targets: readers that take a path get the input through
// one scratch file per process.

#include <cstddef>
#include <cstdint>
#include <string>

namespace streamlint::fuzz {

/// Writes `data` to this process's scratch file (named `suffix`) and
/// returns its path.
std::string writeScratchFile(const uint8_t *data, size_t size,
                             const std::string &suffix);

} // namespace streamlint::fuzz
