#include "analyzer/driver/PhaseTimes.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <sys/resource.h>
#include <time.h>

namespace streamlint {
namespace {

double threadCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

long peakResidentMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss / 1024; // KiB on Linux
}

} // namespace

PhaseTimes::PhaseTimes(std::string file) : file_(std::move(file)) {
  const char *setting = std::getenv("STREAMLINT_PHASE_TIMES");
  enabled_ = setting && *setting && llvm::StringRef(setting) != "0";
  if (enabled_)
    started_ = threadCpuSeconds();
}

void PhaseTimes::mark(llvm::StringRef phase) {
  if (!enabled_)
    return;
  double now = threadCpuSeconds();
  std::string line;
  llvm::raw_string_ostream out(line);
  out << "streamlint: phase " << llvm::sys::path::filename(file_) << ": " << phase << ": "
      << llvm::format("%.2f", now - started_) << " s CPU, peak RSS " << peakResidentMiB()
      << " MiB\n";
  llvm::errs() << line; // one write per line: TUs on other threads do not interleave
  started_ = now;
}

} // namespace streamlint
