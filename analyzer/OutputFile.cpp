#include "analyzer/OutputFile.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace streamlint {
namespace {

std::string directoryOf(const std::string &path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string baseNameOf(const std::string &path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

/// errno's text, after `what` failed ("" for a failed write: the reason is
/// all a caller that says "cannot write X" needs).
std::string failure(const std::string &what = "") {
  std::string reason = std::strerror(errno);
  return what.empty() ? reason : what + ": " + reason;
}

/// `path` with its symbolic links resolved; `path` when it does not exist
/// yet (its directory's links are resolved by the kernel on rename).
std::string targetOf(const std::string &path) {
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved))
    return resolved;
  return path;
}

bool writeInPlace(const std::string &path, std::string_view contents, std::string &error) {
  // O_NONBLOCK: a FIFO nobody reads is an error (ENXIO), not a hang.
  int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) {
    error = errno == ENXIO ? "a FIFO that nothing reads" : failure("cannot open");
    return false;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  bool ok = writeAll(fd, contents);
  if (!ok)
    error = failure();
  if (::close(fd) != 0 && ok) {
    error = failure();
    ok = false;
  }
  return ok;
}

} // namespace

bool writeAll(int fd, std::string_view contents) {
  size_t written = 0;
  while (written < contents.size()) {
    ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      return false;
    if (n == 0) {
      errno = EIO;
      return false;
    }
    written += size_t(n);
  }
  return true;
}

bool appendToFile(const std::string &path, std::string_view contents, std::string &error) {
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
  if (fd < 0) {
    error = failure("cannot open");
    return false;
  }
  bool ok = writeAll(fd, contents);
  if (!ok)
    error = failure();
  if (::close(fd) != 0 && ok) {
    error = failure();
    ok = false;
  }
  return ok;
}

bool writeFileAtomically(const std::string &path, std::string_view contents,
                         std::string &error, WriteTarget how) {
  std::string target = how == WriteTarget::UserPath ? targetOf(path) : path;
  struct stat existing {};
  bool exists = (how == WriteTarget::UserPath ? ::stat(target.c_str(), &existing)
                                              : ::lstat(target.c_str(), &existing)) == 0;
  if (how == WriteTarget::OwnFile && exists && !S_ISREG(existing.st_mode))
    exists = false; // replaced like a missing file: new mode bits, never opened
  if (exists && !S_ISREG(existing.st_mode)) {
    if (S_ISDIR(existing.st_mode)) {
      error = "is a directory";
      return false;
    }
    return writeInPlace(target, contents, error);
  }
  std::string directory = directoryOf(target);
  std::string temporary = directory + "/." + baseNameOf(target) + ".streamlint-XXXXXX";
  int fd = ::mkstemp(temporary.data());
  if (fd < 0) {
    error = failure("cannot create a temporary file in " + directory);
    return false;
  }
  mode_t mode = 0;
  if (exists) {
    mode = existing.st_mode & 07777;
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  bool ok = true;
  if (!writeAll(fd, contents)) {
    error = failure();
    ok = false;
  } else if (::fsync(fd) != 0) {
    error = failure();
    ok = false;
  } else if (::fchmod(fd, mode) != 0) {
    error = failure("cannot set the mode bits");
    ok = false;
  }
  if (::close(fd) != 0 && ok) {
    error = failure();
    ok = false;
  }
  if (ok && ::rename(temporary.c_str(), target.c_str()) != 0) {
    error = failure("cannot replace");
    ok = false;
  }
  if (!ok) {
    ::unlink(temporary.c_str());
    return false;
  }
  // Make the rename itself durable.
  int directoryFd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (directoryFd >= 0) {
    ::fsync(directoryFd);
    ::close(directoryFd);
  }
  return true;
}

} // namespace streamlint
