#include "analyzer/output/OutputCommon.h"
#include "analyzer/output/SourceTextCache.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {

struct BaseCase {
  const char *path, *base, *expected; // expected nullptr: outside
};

TEST(OutputCommonTest, PathUnderBase) {
  const BaseCase cases[] = {
      {"/a/b/c.cu", "/a/b", "c.cu"},
      {"/a/b/c.cu", "/a/b/", "c.cu"},
      {"/a/b/d/c.cu", "/a/b", "d/c.cu"},
      {"/a/bc/c.cu", "/a/b", nullptr}, // prefix of a name, not a directory
      {"/a/b", "/a/b", nullptr},
      {"/x/c.cu", "/a/b", nullptr},
      {"/x/c.cu", "", nullptr},
      {"/x/c.cu", "/", "x/c.cu"},
  };
  for (const BaseCase &c : cases) {
    std::optional<std::string> got = pathUnderBase(c.path, c.base);
    if (c.expected)
      EXPECT_EQ(got, std::optional<std::string>(c.expected)) << c.path << " " << c.base;
    else
      EXPECT_EQ(got, std::nullopt) << c.path << " " << c.base;
  }
}

TEST(OutputCommonTest, UriEncoding) {
  EXPECT_EQ(encodeUriPath("src/a b/c#d%.cu"), "src/a%20b/c%23d%25.cu");
  EXPECT_EQ(encodeUriPath("é.cu"), "%C3%A9.cu");
  EXPECT_EQ(fileUri("/opt/x y/"), "file:///opt/x%20y/");
}

TEST(OutputCommonTest, DynamicSummary) {
  struct Case {
    DynamicEvidence e;
    const char *expected;
  } cases[] = {
      {{DynamicStatus::Confirmed, 1200, 1200, 3100, 0, ""},
       "confirmed: 1200 calls, 3.1 ms"},
      {{DynamicStatus::Confirmed, 10, 4, 12, 2048, ""},
       "confirmed: 10 calls (4 misused), 12 us, 2.0 KiB"},
      {{DynamicStatus::Refuted, 1, 0, 0, 0, ""}, "refuted: 1 call"},
      {{DynamicStatus::NotReached, 0, 0, 0, 0, ""}, "not-reached"},
      {{DynamicStatus::RuntimeOnly, 3, 3, 2.5e6, 0, ""},
       "runtime-only: 3 calls, 2.50 s"},
  };
  for (const Case &c : cases)
    EXPECT_EQ(dynamicSummary(c.e), c.expected);
}

TEST(SourceTextCacheTest, CodePointColumnsAndOffsets) {
  SourceTextCache sources;
  sources.setContents("/f", "aé→b\r\nxy");
  EXPECT_EQ(sources.lineCount("/f"), 2u);
  EXPECT_EQ(*sources.line("/f", 1), "aé→b");
  EXPECT_EQ(*sources.line("/f", 2), "xy");
  EXPECT_FALSE(sources.line("/f", 3));
  EXPECT_EQ(sources.codePointColumn("/f", 1, 1), 1u); // 'a'
  EXPECT_EQ(sources.codePointColumn("/f", 1, 2), 2u); // 'é'
  EXPECT_EQ(sources.codePointColumn("/f", 1, 4), 3u); // '→'
  EXPECT_EQ(sources.codePointColumn("/f", 1, 7), 4u); // 'b'
  EXPECT_EQ(sources.codePointColumn("/f", 1, 8), 5u); // end of line
  EXPECT_EQ(sources.codePointColumn("/f", 1, 12), 9u); // past the end
  EXPECT_EQ(sources.codePointColumn("/missing", 4, 9), 9u);
  EXPECT_EQ(sources.lineAndColumn("/f", 0), std::make_pair(1u, 1u));
  EXPECT_EQ(sources.lineAndColumn("/f", 9), std::make_pair(2u, 1u));
  EXPECT_EQ(sources.lineAndColumn("/f", 11), std::make_pair(2u, 3u));
  EXPECT_FALSE(sources.lineAndColumn("/f", 12));
  EXPECT_FALSE(sources.readable("/definitely/not/here.cu"));
}

} // namespace
} // namespace streamlint
