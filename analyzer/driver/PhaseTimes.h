#pragma once
// Where one TU's analysis spends its CPU time and memory, for profiling the
// checks on heavy TUs (docs/measurements/heavy-tu-analysis-cost.md). With
// STREAMLINT_PHASE_TIMES=1 in the environment, each phase of each parsed TU
// prints one line on stderr:
//   streamlint: phase fused_ops.cu: call graph: 0.77 s CPU, peak RSS 1188 MiB
// the CPU time of the thread that ran it since the previous phase (each TU
// runs on a thread of its own) and the process's peak resident set so far.
// Without the variable nothing is measured or printed.

#include "llvm/ADT/StringRef.h"

#include <string>

namespace streamlint {

/// The phases of one TU's analysis, timed on the thread that runs them.
class PhaseTimes {
public:
  /// Enabled when STREAMLINT_PHASE_TIMES is set to a value other than "0";
  /// `file` names the TU in each line. Starts the first phase's clock.
  explicit PhaseTimes(std::string file);

  /// Ends the phase that began at the previous mark (or construction) and
  /// prints it; the next phase begins now.
  void mark(llvm::StringRef phase);

  bool enabled() const { return enabled_; }

private:
  std::string file_;
  bool enabled_ = false;
  double started_ = 0; // thread CPU seconds at the previous mark
};

} // namespace streamlint
