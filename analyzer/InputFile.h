#pragma once
// The one way streamlint reads a file it did not write in this run and does
// not trust to be sane: index entries, shard parts, probe traces, baselines,
// configs, compile databases. Only regular files (a FIFO would block the
// run, /dev/zero would fill memory), never more than a stated size, and for
// JSON never nested deeper than the recursive code that walks it can take.

#include <cstdint>
#include <string>
#include <string_view>

namespace streamlint {

/// What a reader accepts.
struct InputLimits {
  std::uint64_t maxBytes;
  /// For JSON: the deepest `[`/`{` nesting accepted (kMaxJsonNesting); 0
  /// for other formats (their readers check what they need).
  unsigned maxJsonNesting = 0;
};

/// Limits of the readers that use this helper; a real file of each kind is
/// far smaller (docs/robustness.md).
inline constexpr std::uint64_t kMiB = 1u << 20;
inline constexpr InputLimits kIndexEntryLimits{64 * kMiB, 512};
inline constexpr InputLimits kShardPartLimits{2048 * kMiB, 512};
inline constexpr InputLimits kTraceLimits{256 * kMiB, 512};
inline constexpr InputLimits kBaselineLimits{1024 * kMiB, 512};
inline constexpr InputLimits kConfigLimits{16 * kMiB, 0};
// The compile database reader reports its own nesting error, with line and
// column; source files are only hashed.
inline constexpr InputLimits kCompileDatabaseLimits{4096 * kMiB, 0};
inline constexpr InputLimits kSourceFileLimits{4096 * kMiB, 0};

/// Reads the whole of `path` into `text`. False, with `error` saying why
/// without naming the file ("not a regular file (a FIFO)", "larger than 64
/// MiB", "nested more than 512 levels deep at byte 812", "No such file or
/// directory"), when it cannot be read, is not a regular file (after
/// following symbolic links), exceeds `limits`, or cannot be read whole.
/// `missing` is set when the file does not exist (callers that treat a
/// missing file as "not there yet" test it).
bool readInputFile(const std::string &path, const InputLimits &limits,
                   std::string &text, std::string &error, bool *missing = nullptr);

/// The size and nesting checks of readInputFile() on text already in
/// memory (the fuzz targets use them as the readers do).
bool checkInputText(std::string_view text, const InputLimits &limits,
                    std::string &error);

} // namespace streamlint
