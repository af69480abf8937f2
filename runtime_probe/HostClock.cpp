#include "HostClock.h"

#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace streamlint::probe {
namespace {

bool invariantTsc() {
#if defined(__x86_64__)
  int fd = ::open("/proc/cpuinfo", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return false;
  char buffer[8192]; // the first CPU's flags are within it
  ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
  ::close(fd);
  if (n <= 0)
    return false;
  buffer[n] = 0;
  return std::strstr(buffer, " constant_tsc") && std::strstr(buffer, " nonstop_tsc");
#else
  return false;
#endif
}

} // namespace

void HostClock::start() {
  useTsc_ = invariantTsc();
  startNs_ = monotonicNs();
  startTicks_ = now();
}

double HostClock::nanosecondsPerTick() const {
  if (!useTsc_)
    return 1.0;
  std::uint64_t ticks = now() - startTicks_;
  std::uint64_t ns = monotonicNs() - startNs_;
  return ticks ? double(ns) / double(ticks) : 0.0;
}

} // namespace streamlint::probe
