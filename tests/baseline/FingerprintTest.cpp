#include "analyzer/baseline/Fingerprint.h"
#include "analyzer/support/SourceTextCache.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {

TEST(FingerprintTest, NormalizeSnippet) {
  const std::pair<const char *, const char *> cases[] = {
      {"cudaMemcpy(a, b,\n    n, kind);", "cudaMemcpy(a,b,n,kind);"},
      {"  unsigned   int x = y ;", "unsigned int x=y;"},
      {"a\t+\tb", "a+b"},
      {"", ""},
  };
  for (const auto &[in, out] : cases)
    EXPECT_EQ(normalizeSnippet(in), out) << in;
}

Finding at(unsigned line, const char *snippet, const char *function = "f") {
  Finding f;
  f.checkId = "sync-memcpy";
  f.location = {"/p/src/a.cu", line, 3};
  f.snippet = snippet;
  f.function = function;
  return f;
}

std::string fingerprintOf(Finding f, const std::string &base = "/p") {
  std::vector<Finding> one{std::move(f)};
  SourceTextCache sources;
  assignFingerprints(one, base, sources);
  return one[0].fingerprint;
}

TEST(FingerprintTest, StableAcrossLineShiftsAndReformatting) {
  std::string original = fingerprintOf(at(10, "cudaMemcpy(d, h, n, k);"));
  EXPECT_EQ(original.size(), 32u);
  EXPECT_EQ(fingerprintOf(at(42, "cudaMemcpy(d, h, n, k);")), original);
  EXPECT_EQ(fingerprintOf(at(10, "cudaMemcpy(d,\n   h, n, k);")), original);
  // A different checkout location of the same repository.
  Finding moved = at(10, "cudaMemcpy(d, h, n, k);");
  moved.location.file = "/ci/build/src/a.cu";
  EXPECT_EQ(fingerprintOf(moved, "/ci/build"), original);
}

TEST(FingerprintTest, ChangesWithWhatIdentifiesTheFinding) {
  std::string original = fingerprintOf(at(10, "cudaMemcpy(d, h, n, k);"));
  EXPECT_NE(fingerprintOf(at(10, "cudaMemcpy(d, h, 2 * n, k);")), original);
  EXPECT_NE(fingerprintOf(at(10, "cudaMemcpy(d, h, n, k);", "g")), original);
  Finding otherCheck = at(10, "cudaMemcpy(d, h, n, k);");
  otherCheck.checkId = "default-stream";
  EXPECT_NE(fingerprintOf(otherCheck), original);
  Finding otherFile = at(10, "cudaMemcpy(d, h, n, k);");
  otherFile.location.file = "/p/src/b.cu";
  EXPECT_NE(fingerprintOf(otherFile), original);
}

TEST(FingerprintTest, IdenticalFindingsGetOccurrenceIndices) {
  std::vector<Finding> findings{at(20, "s();"), at(10, "s();"), at(15, "t();")};
  SourceTextCache sources;
  assignFingerprints(findings, "/p", sources);
  EXPECT_NE(findings[0].fingerprint, findings[1].fingerprint);
  // Source order decides the index, not list order: line 10 is occurrence 0.
  EXPECT_EQ(findings[1].fingerprint, fingerprintOf(at(10, "s();")));
  EXPECT_EQ(findings[1].fingerprint, fingerprintOf(at(99, "s();")));
}

TEST(FingerprintTest, FallsBackToTheSourceLine) {
  SourceTextCache before, after;
  before.setContents("/p/src/a.cu", "x;\n  sync(a, b); // old comment\n");
  after.setContents("/p/src/a.cu", "x;\n\n\n  sync(a,b); // new comment\n");
  std::vector<Finding> a{at(2, "")}, b{at(4, "")};
  assignFingerprints(a, "/p", before);
  assignFingerprints(b, "/p", after);
  EXPECT_EQ(a[0].fingerprint, b[0].fingerprint);
}

TEST(FingerprintTest, KeepsAnExistingFingerprint) {
  std::vector<Finding> findings{at(1, "s();")};
  findings[0].fingerprint = "given";
  SourceTextCache sources;
  assignFingerprints(findings, "/p", sources);
  EXPECT_EQ(findings[0].fingerprint, "given");
}

} // namespace
} // namespace streamlint
