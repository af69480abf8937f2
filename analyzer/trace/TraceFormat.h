#pragma once
// The symbolized probe trace that `streamlint-probe` writes and
// `streamlint --trace` reads: per call site and check, what happened at run
// time. JSON, so that other tools can read it too. No LLVM here: the
// launcher links LLVM statically and the analyzer dynamically.

#include "analyzer/Finding.h"

#include <cstdint>
#include <string>
#include <vector>

namespace streamlint {

/// A frame of the program further out than an observation's line: where
/// the merge moves the observation when its line lies outside the program.
struct TraceCaller {
  std::string file;
  unsigned line = 0;
  std::string function; // demangled
  bool operator==(const TraceCaller &o) const {
    return file == o.file && line == o.line && function == o.function;
  }
};

/// What the probe saw for one check at one source line: its counts
/// (calls, misuses, host time, bytes) and where.
struct TraceObservation : EvidenceCounts {
  std::string check;      // "default-stream", "pageable-memcpy-async", ...
  std::string file;       // absolute path of the call's source file
  unsigned line = 0;      // line of the call
  bool fileGuessed = false; // mapped back from a *.cudafe1.cpp name
  std::string function;   // enclosing function, demangled
  std::string api;        // e.g. "cudaMemcpyAsync"
  std::string detail;        // e.g. "last error 800 (cudaErrorNotPermitted)"
  /// The call the program made into a prebuilt library (cuBLAS, NCCL,
  /// PyTorch, ...) that made `api`'s calls inside it: "cublasCreate",
  /// "ncclGroupEnd"; "" when the program called `api` itself.
  std::string libraryCall;
  std::string library; // its file name: "libcublas.so.13"
  /// Further frames of the program, innermost first (at most 4).
  std::vector<TraceCaller> callers;
};

/// A whole trace: one run of a program under the probe.
struct ProbeTrace {
  int version = 1;
  std::string program;
  int exitStatus = 0;
  std::uint64_t droppedCalls = 0; // calls not recorded (site table full)
  unsigned processes = 0;         // processes that wrote a raw trace
  /// Calls made inside prebuilt libraries with no frame of the program on
  /// the stack (a library's own threads, Python calling PyTorch): counted,
  /// never reported at a library's path.
  std::uint64_t libraryOnlyCalls = 0;
  std::vector<TraceObservation> observations;
};

/// The ids of the checks the probe observes (checks/CheckEvidence.cpp).
const std::vector<std::string> &probeCheckIds();

/// Several traces of one program (MPI ranks run by separate launchers, the
/// traces of a CI matrix) as one: their processes, dropped calls and
/// observations added up; observations of one check at one line summed.
ProbeTrace combineTraces(const std::vector<ProbeTrace> &traces);

/// Adds `o`'s counts to `into` (the same check at the same line): calls,
/// misuses, time, bytes; APIs and library calls joined.
void addObservationCounts(TraceObservation &into, const TraceObservation &o);

std::string writeTraceJson(const ProbeTrace &trace);
/// Parses a trace; false with `error` set when it is not a valid trace.
bool readTraceJson(const std::string &text, ProbeTrace &trace,
                   std::string &error);

} // namespace streamlint
