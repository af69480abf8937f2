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
  w.text("streamlint-raw-trace 1\npid ");
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
  constexpr auto acq = std::memory_order_relaxed;
  table.forEach([&](const SiteRecord &s) {
    w.text("site ");
    w.text(s.apiName ? s.apiName : "?");
    for (std::uint64_t v :
         {std::uint64_t(s.traits), s.calls.load(acq), s.hostNs.load(acq),
          s.bytes.load(acq), s.streamCalls.load(acq), s.legacyStream.load(acq),
          s.pageable.load(acq), s.pinned.load(acq),
          s.callbackThreadCalls.load(acq), s.callbackThreadErrors.load(acq)}) {
      w.put(' ');
      w.dec(v);
    }
    w.put(' ');
    w.sdec(s.lastCallbackThreadError.load(acq));
    w.put(' ');
    w.dec(s.frameCount);
    for (unsigned i = 0; i < s.frameCount; ++i) {
      w.put(' ');
      w.hex(s.frames[i]);
    }
    if (std::uint64_t churn = s.churn.load(acq)) { // optional trailing field
      w.text(" churn ");
      w.dec(churn);
    }
    w.put('\n');
  });
  w.text("end\n");
  w.flush();
  return !w.failed();
}

bool readRawTrace(std::istream &in, RawTrace &trace, std::string &error) {
  std::string line;
  unsigned lineNo = 0;
  auto fail = [&](const char *what) {
    error = "line " + std::to_string(lineNo) + ": " + what;
    return false;
  };
  if (!std::getline(in, line) || line != "streamlint-raw-trace 1") {
    lineNo = 1;
    return fail("not a streamlint raw trace (version 1)");
  }
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
      unsigned frames = 0;
      fields >> s.api >> s.traits >> s.calls >> s.hostNs >> s.bytes >>
          s.streamCalls >> s.legacyStream >> s.pageable >> s.pinned >>
          s.callbackThreadCalls >> s.callbackThreadErrors >>
          s.lastCallbackThreadError >> frames;
      if (frames > kMaxFrames)
        return fail("too many frames");
      for (unsigned i = 0; i < frames; ++i) {
        std::uintptr_t pc = 0;
        fields >> std::hex >> pc >> std::dec;
        s.frames.push_back(pc);
      }
      bool framesRead = !fields.fail();
      std::string optional;
      if (framesRead && fields >> optional) {
        if (optional != "churn" || !(fields >> s.churn))
          return fail("malformed site");
      } else if (framesRead) {
        fields.clear(); // the line ended after the frames
      }
      if (!framesRead)
        return fail("malformed site");
      if (fields.fail())
        return fail("malformed site");
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
