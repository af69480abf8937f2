#include "analyzer/InputFile.h"
#include "analyzer/JsonNesting.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace streamlint {
namespace {

const char *kindOf(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a plain file";
}

std::string sizeText(std::uint64_t bytes) {
  if (bytes % kMiB == 0)
    return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " bytes";
}

/// Closes the descriptor on every path out.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0)
      ::close(fd);
  }
};

} // namespace

bool readInputFile(const std::string &path, const InputLimits &limits,
                   std::string &text, std::string &error, bool *missing) {
  if (missing)
    *missing = false;
  // O_NONBLOCK: opening a FIFO for reading would wait for a writer.
  Descriptor file{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)};
  if (file.fd < 0) {
    if (missing)
      *missing = errno == ENOENT || errno == ENOTDIR;
    error = std::strerror(errno);
    return false;
  }
  struct stat status {};
  if (::fstat(file.fd, &status) != 0) {
    error = std::strerror(errno);
    return false;
  }
  if (!S_ISREG(status.st_mode)) {
    error = std::string("not a regular file (") + kindOf(status.st_mode) + ")";
    return false;
  }
  if (static_cast<std::uint64_t>(status.st_size) > limits.maxBytes) {
    error = "larger than " + sizeText(limits.maxBytes);
    return false;
  }
  std::string bytes;
  bytes.resize(static_cast<size_t>(status.st_size));
  size_t used = 0;
  // Read to the end even if the file grew since fstat, up to the limit.
  for (;;) {
    if (used == bytes.size()) {
      if (bytes.size() > limits.maxBytes) {
        error = "larger than " + sizeText(limits.maxBytes);
        return false;
      }
      bytes.resize(bytes.size() + 4096);
    }
    ssize_t n = ::read(file.fd, bytes.data() + used, bytes.size() - used);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      error = std::strerror(errno);
      return false;
    }
    if (n == 0)
      break;
    used += static_cast<size_t>(n);
  }
  bytes.resize(used);
  if (!checkInputText(bytes, limits, error))
    return false;
  text = std::move(bytes);
  return true;
}

bool checkInputText(std::string_view text, const InputLimits &limits,
                    std::string &error) {
  if (text.size() > limits.maxBytes) {
    error = "larger than " + sizeText(limits.maxBytes);
    return false;
  }
  if (limits.maxJsonNesting)
    if (auto deep = jsonNestingTooDeepAt(text, limits.maxJsonNesting)) {
      error = "nested more than " + std::to_string(limits.maxJsonNesting) +
              " levels deep (at byte " + std::to_string(*deep) + ")";
      return false;
    }
  return true;
}

} // namespace streamlint
