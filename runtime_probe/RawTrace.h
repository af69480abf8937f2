#pragma once
// The probe's raw trace: what the injected library writes at exit (raw PCs,
// module ranges, per-site counters) and the launcher reads back to symbolize.
// Line-based text so that writing it is async-signal-safe (fatal signals).
//
//   streamlint-raw-trace 1
//   pid <pid>
//   dropped <calls dropped because the site table was full>
//   module <start-hex> <end-hex> <bias-hex> <path>
//   site <api> <traits> <calls> <host-ns> <bytes> <stream-calls> <legacy>
//        <pageable> <pinned> <cb-calls> <cb-errors> <cb-last-error> <n> <pc-hex>...
//        [churn <allocation/free calls judged churn>]
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

/// One site as read back from a raw trace.
struct RawSite {
  std::string api;
  std::uint16_t traits = 0;
  std::uint64_t calls = 0, hostNs = 0, bytes = 0, streamCalls = 0,
                legacyStream = 0, pageable = 0, pinned = 0,
                callbackThreadCalls = 0, callbackThreadErrors = 0, churn = 0;
  std::int32_t lastCallbackThreadError = 0;
  std::vector<std::uintptr_t> frames; // innermost first
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
