// Replacing a source file so that a crash or a full disk never leaves it half
// written: write a sibling temporary, fsync, copy the mode, rename over.
#include "analyzer/fix/FixPlan.h"
#include "analyzer/OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace streamlint::fix {
namespace {

llvm::Error failure(const std::string &path, const llvm::Twine &why) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 path + ": " + why + "; file left unchanged");
}

} // namespace

llvm::Error writeFileAtomically(const std::string &path,
                                const std::string &contents) {
  if (!llvm::sys::fs::exists(path))
    return failure(path, "cannot stat: no such file");
  std::string why;
  if (!streamlint::writeFileAtomically(path, contents, why))
    return failure(path, why);
  return llvm::Error::success();
}

std::string readOnlyReason(const std::string &realPath) {
  struct stat info;
  if (::stat(realPath.c_str(), &info) != 0)
    return "";
  if ((info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", unsigned(info.st_mode & 07777));
    return std::string("read-only (mode ") + mode + ")";
  }
  if (::geteuid() != 0 && ::access(realPath.c_str(), W_OK) != 0)
    return "not writable by this user";
  return "";
}

std::string hardLinkReason(const std::string &realPath) {
  struct stat info;
  if (::stat(realPath.c_str(), &info) != 0 || info.st_nlink <= 1)
    return "";
  return "has " + std::to_string(info.st_nlink) +
         " hard links: replacing it would leave the other names with the old "
         "text; left alone (fix it through a copy of its own)";
}

namespace {

/// An exclusive flock(2) on a directory, released when destroyed. Every
/// streamlint process takes it before re-checking and replacing a file there.
class DirectoryLock {
public:
  explicit DirectoryLock(const std::string &directory)
      : fd_(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (fd_ >= 0)
      while (::flock(fd_, LOCK_EX) != 0 && errno == EINTR) {
      }
  }
  ~DirectoryLock() {
    if (fd_ >= 0)
      ::close(fd_); // releases the lock
  }
  DirectoryLock(const DirectoryLock &) = delete;
  DirectoryLock &operator=(const DirectoryLock &) = delete;

private:
  int fd_;
};

} // namespace

llvm::Expected<ReplaceOutcome> replaceIfUnchanged(const std::string &realPath,
                                                  const std::string &expected,
                                                  const std::string &contents) {
  DirectoryLock lock(llvm::sys::path::parent_path(realPath).str());
  auto buffer = llvm::MemoryBuffer::getFile(realPath, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return failure(realPath, "cannot read: " + buffer.getError().message());
  if ((*buffer)->getBuffer() != expected)
    return ReplaceOutcome::Changed;
  if (!readOnlyReason(realPath).empty())
    return ReplaceOutcome::ReadOnly;
  if (!hardLinkReason(realPath).empty())
    return ReplaceOutcome::HardLinked;
  if (llvm::Error error = writeFileAtomically(realPath, contents))
    return std::move(error);
  return ReplaceOutcome::Replaced;
}

} // namespace streamlint::fix
