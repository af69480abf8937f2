#pragma once
// The probe's raw trace: what the injected library writes at exit (raw PCs,
// module ranges, per-site counters) and the launcher reads back to symbolize.
// Line-based text so that writing it is async-signal-safe (fatal signals).
// Version 1 traces (positional counters, written before the counters had
// names) still read.
//
//   streamlint-raw-trace 2
//   pid <pid>
//   dropped <calls dropped because the site table was full>
//   module <start-hex> <end-hex> <bias-hex> <path>
//   site <api> <traits> <n> <pc-hex>... <counter>=<value>...
//        (counters named in SiteCounters.h; those at 0 left out;
//         last_callback_thread_error=<int> when one was seen)
//   end

#include "CallSiteTable.h"
#include "ModuleMap.h"

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

namespace streamlint::probe {

/// The raw trace's path for process `pid` in `dir` ("." when null or empty),
/// written into `path`; false when it does not fit in `size` bytes (then no
/// trace is written: a truncated name could land anywhere).
bool formatRawTracePath(const char *dir, long pid, char *path, std::size_t size);

/// Opens `path` for writing the raw trace (created or truncated), never
/// through a symbolic link; -1 with errno set on failure.
int openRawTrace(const char *path);

/// Writes the trace to `fd` without allocating; false on a write error.
bool writeRawTrace(int fd, const CallSiteTable &table, const ModuleMap &modules,
                   long pid, std::uint64_t droppedCalls);

/// One site as read back from a raw trace: its counts as the evidence
/// declarations read them, and where it was called from.
struct RawSite {
  SiteCounts counts;
  std::uint16_t traits = 0;
  std::vector<std::uintptr_t> frames; // innermost first
  std::uint64_t operator[](Counter c) const { return counts[c]; }
};

struct RawModule {
  std::uintptr_t start = 0, end = 0, bias = 0;
  std::string path;
};

/// A whole raw trace as read back.
struct RawTrace {
  long pid = 0;
  std::uint64_t droppedCalls = 0;
  std::vector<RawModule> modules;
  std::vector<RawSite> sites;
  bool complete = false; // the `end` line was there (no crash mid-write)
};

/// Parses a raw trace; on malformed input returns false and sets `error`.
bool readRawTrace(std::istream &in, RawTrace &trace, std::string &error);

} // namespace streamlint::probe
