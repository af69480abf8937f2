#include "RawTrace.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <fcntl.h>
#include <unistd.h>

namespace streamlint::probe {
namespace {

/// Fixed-buffer line writer: no allocation, no stdio, no locale.
class SignalSafeWriter {
public:
  explicit SignalSafeWriter(int fd) : fd_(fd) {}
  ~SignalSafeWriter() { flush(); }

  void text(const char *s) {
    while (*s)
      put(*s++);
  }
  void dec(std::uint64_t v) {
    char digits[24];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v);
    while (n)
      put(digits[--n]);
  }
  void sdec(std::int64_t v) {
    if (v < 0) {
      put('-');
      dec(static_cast<std::uint64_t>(-(v + 1)) + 1);
    } else {
      dec(static_cast<std::uint64_t>(v));
    }
  }
  void hex(std::uint64_t v) {
    static const char kDigits[] = "0123456789abcdef";
    char digits[16];
    int n = 0;
    do {
      digits[n++] = kDigits[v & 0xf];
      v >>= 4;
    } while (v);
    while (n)
      put(digits[--n]);
  }
  void put(char c) {
    if (used_ == sizeof(buffer_))
      flush();
    buffer_[used_++] = c;
  }
  void flush() {
    std::size_t off = 0;
    while (off < used_) {
      ssize_t n = ::write(fd_, buffer_ + off, used_ - off);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0) {
        failed_ = true;
        break;
      }
      off += static_cast<std::size_t>(n);
    }
    used_ = 0;
  }
  bool failed() const { return failed_; }

private:
  int fd_;
  char buffer_[4096];
  std::size_t used_ = 0;
  bool failed_ = false;
};

} // namespace

bool formatRawTracePath(const char *dir, long pid, char *path, std::size_t size) {
  int length = std::snprintf(path, size, "%s/probe-%ld.raw",
                             dir && *dir ? dir : ".", pid);
  return length > 0 && static_cast<std::size_t>(length) < size;
}

int openRawTrace(const char *path) {
  // O_NOFOLLOW: a link planted at the predictable name must not redirect
  // the write (the directory may be shared, e.g. /tmp).
  return ::open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
}

bool writeRawTrace(int fd, const CallSiteTable &table, const ModuleMap &modules,
                   long pid, std::uint64_t droppedCalls) {
  SignalSafeWriter w(fd);
  w.text("streamlint-raw-trace 2\npid ");
  w.sdec(pid);
  w.text("\ndropped ");
  w.dec(droppedCalls);
  w.put('\n');
  for (std::size_t i = 0; i < modules.size(); ++i) {
    const ModuleRange &m = modules[i];
    w.text("module ");
    w.hex(m.start);
    w.put(' ');
    w.hex(m.end);
    w.put(' ');
    w.hex(m.bias);
    w.put(' ');
    w.text(m.path);
    w.put('\n');
  }
  table.forEach([&](const SiteRecord &s) {
    w.text("site ");
    w.text(s.apiName ? s.apiName : "?");
    w.put(' ');
    w.dec(s.traits);
    w.put(' ');
    w.dec(s.frameCount);
    for (unsigned i = 0; i < s.frameCount; ++i) {
      w.put(' ');
      w.hex(s.frames[i]);
    }
    for (std::size_t i = 0; i < kCounterCount; ++i) {
      Counter counter = static_cast<Counter>(i);
      std::uint64_t value = s.count(counter);
      if (value == 0 && counter != Counter::Calls)
        continue;
      w.put(' ');
      w.text(counterName(counter).data()); // names are literals: terminated
      w.put('=');
      w.dec(value);
    }
    if (std::int32_t error = s.lastCallbackThreadError.load(std::memory_order_relaxed)) {
      w.text(" last_callback_thread_error=");
      w.sdec(error);
    }
    w.put('\n');
  });
  w.text("end\n");
  w.flush();
  return !w.failed();
}

namespace {

bool readFrames(std::istringstream &fields, RawSite &site) {
  unsigned frames = 0;
  if (!(fields >> frames) || frames > kMaxFrames)
    return false;
  for (unsigned i = 0; i < frames; ++i) {
    std::uintptr_t pc = 0;
    fields >> std::hex >> pc >> std::dec;
    site.frames.push_back(pc);
  }
  return !fields.fail();
}

/// Version 1: `site <api> <traits> <calls> <host-ns> <bytes> <stream-calls>
/// <legacy> <pageable> <pinned> <cb-calls> <cb-errors> <cb-last-error> <n>
/// <pc-hex>... [churn <n>]`, the counters by position.
bool readSiteVersion1(std::istringstream &fields, RawSite &s) {
  SiteCounts &c = s.counts;
  fields >> c.api >> s.traits;
  for (Counter counter : {Counter::Calls, Counter::HostNs, Counter::Bytes, Counter::StreamCalls,
                          Counter::LegacyStream, Counter::Pageable, Counter::Pinned,
                          Counter::CallbackThreadCalls, Counter::CallbackThreadErrors})
    fields >> c[counter];
  fields >> c.lastCallbackThreadError;
  if (fields.fail() || !readFrames(fields, s))
    return false;
  std::string optional;
  if (fields >> optional)
    return optional == "churn" && fields >> c[Counter::Churn] && !(fields >> optional);
  return true;
}

/// Version 2: `site <api> <traits> <n> <pc-hex>... <counter>=<value>...`.
bool readSiteVersion2(std::istringstream &fields, RawSite &s, std::string &why) {
  fields >> s.counts.api >> s.traits;
  if (fields.fail() || !readFrames(fields, s))
    return false;
  std::string pair;
  while (fields >> pair) {
    std::size_t equals = pair.find('=');
    if (equals == std::string::npos || equals + 1 == pair.size())
      return false;
    std::string name = pair.substr(0, equals);
    std::istringstream value(pair.substr(equals + 1));
    Counter counter;
    if (name == "last_callback_thread_error")
      value >> s.counts.lastCallbackThreadError;
    else if (counterNamed(name, counter))
      value >> s.counts[counter];
    else {
      why = "unknown counter '" + name + "'";
      return false;
    }
    if (value.fail() || value.peek() != std::char_traits<char>::eof())
      return false;
  }
  return true;
}

} // namespace

bool readRawTrace(std::istream &in, RawTrace &trace, std::string &error) {
  std::string line;
  unsigned lineNo = 0;
  auto fail = [&](const std::string &what) {
    error = "line " + std::to_string(lineNo) + ": " + what;
    return false;
  };
  int version = 0;
  if (!std::getline(in, line) || (line != "streamlint-raw-trace 1" &&
                                  line != "streamlint-raw-trace 2")) {
    lineNo = 1;
    return fail("not a streamlint raw trace (version 1 or 2)");
  }
  version = line.back() - '0';
  ++lineNo;
  while (std::getline(in, line)) {
    ++lineNo;
    std::istringstream fields(line);
    std::string tag;
    fields >> tag;
    if (tag == "pid") {
      fields >> trace.pid;
    } else if (tag == "dropped") {
      fields >> trace.droppedCalls;
    } else if (tag == "module") {
      RawModule m;
      fields >> std::hex >> m.start >> m.end >> m.bias >> std::dec;
      fields.get();
      std::getline(fields, m.path);
      if (m.path.empty())
        return fail("module without a path");
      trace.modules.push_back(std::move(m));
      continue;
    } else if (tag == "site") {
      RawSite s;
      std::string why;
      bool read = version == 1 ? readSiteVersion1(fields, s) : readSiteVersion2(fields, s, why);
      if (!read)
        return fail(why.empty() ? "malformed site" : "malformed site: " + why);
      trace.sites.push_back(std::move(s));
      continue;
    } else if (tag == "end") {
      trace.complete = true;
      continue;
    } else {
      return fail("unknown record");
    }
    if (fields.fail())
      return fail("malformed header field");
  }
  return true;
}

} // namespace streamlint::probe
