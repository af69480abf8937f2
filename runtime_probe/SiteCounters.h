#pragma once
// The probe's per-call-site counters, named once: the site table keeps one
// atomic per counter (CallSiteTable.h), the raw trace writes and reads them
// as name=value pairs (RawTrace.cpp), and the evidence declarations read
// them by name (checks/CheckEvidence.cpp). A new counter is a line in the
// enum and its name below, plus the handler that counts it
// (ProbeHandlers.cpp); nothing in between names it. Plain C++, no CUPTI:
// the injected probe, the launcher and the analyzer's merge include it.

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace streamlint {

/// Every count the probe keeps per call site. The first eight are the ones
/// most calls add to: they fill the site record's first cache line.
enum class Counter : std::uint8_t {
  Calls,               ///< times the site ran
  HostNs,              ///< host time in those calls (timed calls only)
  Bytes,               ///< bytes an async copy moved
  StreamCalls,         ///< calls whose stream the probe could read
  LegacyStream,        ///< ... and it was the legacy default stream
  Pageable,            ///< async copies of pageable host memory
  Pinned,              ///< async copies of pinned host memory
  Churn,               ///< allocations/frees judged churn (AllocationChurn)
  CallbackThreadCalls, ///< calls made on the driver's host-callback thread
  CallbackThreadErrors,///< ... that returned an error
  Count
};
inline constexpr std::size_t kCounterCount = static_cast<std::size_t>(Counter::Count);
/// The counters in the site record's first cache line.
inline constexpr std::size_t kHotCounters = 8;

/// Each counter's name in the raw trace (`calls=5`), in enum order.
inline constexpr std::array<std::string_view, kCounterCount> kCounterNames = {
    "calls",   "host_ns", "bytes", "stream_calls", "legacy_stream",
    "pageable", "pinned", "churn", "callback_thread_calls", "callback_thread_errors"};

inline constexpr std::string_view counterName(Counter counter) {
  return kCounterNames[static_cast<std::size_t>(counter)];
}

/// The counter called `name`; false when no counter is.
inline bool counterNamed(std::string_view name, Counter &counter) {
  for (std::size_t i = 0; i < kCounterCount; ++i)
    if (kCounterNames[i] == name) {
      counter = static_cast<Counter>(i);
      return true;
    }
  return false;
}

/// One site's counters as plain numbers, indexed by Counter.
struct CounterValues {
  std::array<std::uint64_t, kCounterCount> values{};
  std::uint64_t operator[](Counter c) const { return values[static_cast<std::size_t>(c)]; }
  std::uint64_t &operator[](Counter c) { return values[static_cast<std::size_t>(c)]; }
};

/// What the probe counted at one call site, as the raw trace holds it and
/// the evidence declarations read it.
struct SiteCounts {
  std::string api; ///< CUPTI's name, e.g. cudaMemcpyAsync_v3020
  CounterValues counters;
  /// The last error a call on the host-callback thread returned: a value,
  /// not a count (written as `last_callback_thread_error=`).
  std::int32_t lastCallbackThreadError = 0;
  std::uint64_t operator[](Counter c) const { return counters[c]; }
  std::uint64_t &operator[](Counter c) { return counters[c]; }
};

} // namespace streamlint
