#pragma once
// The one way streamlint writes a whole file (a report, a shard part, an
// index entry, a fixed source): all of it or nothing, and a failure (a full
// disk, an I/O error) is said, never an empty or truncated file.

#include <string>
#include <string_view>

namespace streamlint {

/// What writeFileAtomically() does with what is already at the path.
enum class WriteTarget {
  /// A path the user named (-o, --write-baseline, a file --fix edits): a
  /// symbolic link is followed (the file it names is replaced, the link
  /// kept), and a device or FIFO is written in place, as the shell's `>`
  /// would.
  UserPath,
  /// A file of streamlint's own (an index entry): whatever is there, a
  /// link, a FIFO or a device planted in the cache included, is replaced by
  /// a regular file and never opened or followed.
  OwnFile,
};

/// Writes `contents` to `path`: a temporary file beside the target, flushed
/// to disk, given the mode bits of the file it replaces (new files get
/// 0666 less the umask), then renamed over it, so a reader (or a crash)
/// sees the old file or the new one; what is already at `path` is treated
/// as `target` says. False, with `error` saying why (without the path),
/// when anything fails; a regular target is then as it was.
bool writeFileAtomically(const std::string &path, std::string_view contents,
                         std::string &error, WriteTarget target = WriteTarget::UserPath);

/// Appends `contents` to `path` (created if missing), as the shell's `>>`
/// would; false, with `error` saying why, when any of it cannot be written.
bool appendToFile(const std::string &path, std::string_view contents, std::string &error);

/// Writes all of `contents` to `fd`; false (errno set) on a failed write.
bool writeAll(int fd, std::string_view contents);

} // namespace streamlint
