#include "analyzer/support/SourceTextCache.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {

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
