// Replacing a source file so that a crash or a full disk never leaves it half
// written: write a sibling temporary, fsync, copy the mode, rename over.
#include "analyzer/fix/FixPlan.h"

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

bool writeAll(int fd, const std::string &contents) {
  size_t written = 0;
  while (written < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    written += size_t(n);
  }
  return true;
}

} // namespace

llvm::Error writeFileAtomically(const std::string &path,
                                const std::string &contents) {
  llvm::sys::fs::file_status status;
  if (std::error_code ec = llvm::sys::fs::status(path, status))
    return failure(path, "cannot stat: " + ec.message());
  llvm::StringRef directory = llvm::sys::path::parent_path(path);
  llvm::SmallString<256> model(directory);
  llvm::sys::path::append(model, "." + llvm::sys::path::filename(path).str() +
                                     ".streamlint-%%%%%%");
  int fd = -1;
  llvm::SmallString<256> temporary;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(model, fd, temporary))
    return failure(path, "cannot create a temporary file in " + directory +
                             ": " + ec.message());
  bool ok = writeAll(fd, contents);
  std::string why = ok ? "" : std::string("cannot write: ") + std::strerror(errno);
  if (ok && ::fsync(fd) != 0) {
    ok = false;
    why = std::string("cannot sync: ") + std::strerror(errno);
  }
  ::close(fd);
  if (ok) {
    if (std::error_code ec =
            llvm::sys::fs::setPermissions(temporary, status.permissions())) {
      ok = false;
      why = "cannot set permissions: " + ec.message();
    }
  }
  if (ok) {
    if (std::error_code ec = llvm::sys::fs::rename(temporary, path)) {
      ok = false;
      why = "cannot replace: " + ec.message();
    }
  }
  if (!ok) {
    llvm::sys::fs::remove(temporary);
    return failure(path, why);
  }
  // Make the rename itself durable.
  int dirFd = ::open(directory.str().c_str(), O_RDONLY | O_DIRECTORY);
  if (dirFd >= 0) {
    ::fsync(dirFd);
    ::close(dirFd);
  }
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
  if (llvm::Error error = writeFileAtomically(realPath, contents))
    return std::move(error);
  return ReplaceOutcome::Replaced;
}

} // namespace streamlint::fix
