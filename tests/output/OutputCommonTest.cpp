#include "analyzer/output/OutputCommon.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {

TEST(OutputCommonTest, UriEncoding) {
  EXPECT_EQ(encodeUriPath("src/a b/c#d%.cu"), "src/a%20b/c%23d%25.cu");
  EXPECT_EQ(encodeUriPath("é.cu"), "%C3%A9.cu");
  EXPECT_EQ(fileUri("/opt/x y/"), "file:///opt/x%20y/");
}

TEST(OutputCommonTest, DynamicSummary) {
  auto evidence = [](DynamicStatus status, std::uint64_t calls, std::uint64_t misuses,
                     double hostTimeUs, std::uint64_t bytes) {
    DynamicEvidence e;
    e.status = status;
    e.calls = calls;
    e.misuses = misuses;
    e.hostTimeUs = hostTimeUs;
    e.bytes = bytes;
    return e;
  };
  struct Case {
    DynamicEvidence e;
    const char *expected;
  } cases[] = {
      {evidence(DynamicStatus::Confirmed, 1200, 1200, 3100, 0),
       "confirmed: 1200 calls, 3.1 ms"},
      {evidence(DynamicStatus::Confirmed, 10, 4, 12, 2048),
       "confirmed: 10 calls (4 misused), 12 us, 2.0 KiB"},
      {evidence(DynamicStatus::Refuted, 1, 0, 0, 0), "refuted: 1 call"},
      {evidence(DynamicStatus::NotReached, 0, 0, 0, 0), "not-reached"},
      {evidence(DynamicStatus::RuntimeOnly, 3, 3, 2.5e6, 0),
       "runtime-only: 3 calls, 2.50 s"},
  };
  for (const Case &c : cases)
    EXPECT_EQ(dynamicSummary(c.e), c.expected);
}

} // namespace
} // namespace streamlint
