#include "ApiCatalog.h"
#include "SelfTime.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <regex>
#include <string>

using namespace streamlint::probe;

TEST(SelfTime, KindsFollowTheCatalog) {
  EXPECT_EQ(selfTimeKindOf(classifyApi("cudaLaunchKernel")), SelfTimeKind::Launch);
  EXPECT_EQ(selfTimeKindOf(classifyApi("cudaMemcpyAsync")), SelfTimeKind::AsyncCopy);
  EXPECT_EQ(selfTimeKindOf(classifyApi("cudaDeviceSynchronize")), SelfTimeKind::Synchronization);
  EXPECT_EQ(selfTimeKindOf(classifyApi("cudaStreamSynchronize")), SelfTimeKind::Synchronization);
  EXPECT_EQ(selfTimeKindOf(classifyApi("cudaMalloc")), SelfTimeKind::Allocation);
  EXPECT_EQ(selfTimeKindOf(classifyApi("cudaFree")), SelfTimeKind::Allocation);
  EXPECT_EQ(selfTimeKindOf(classifyApi("cudaMemsetAsync")), SelfTimeKind::StreamOrdered);
  EXPECT_EQ(selfTimeKindOf(classifyApi("cudaGetLastError")), SelfTimeKind::Other);
}

// Per kind: callbacks and the mean converted to ns; kinds that never ran are
// left out.
TEST(SelfTime, ReportsMeanNanosecondsPerKindThatRan) {
  SelfTime t;
  t.add(SelfTimeKind::AsyncCopy, 100);
  t.add(SelfTimeKind::AsyncCopy, 300);
  t.add(SelfTimeKind::Launch, 50);
  char *text = nullptr;
  std::size_t size = 0;
  std::FILE *out = open_memstream(&text, &size);
  t.report(out, 0.5, 12);
  std::fclose(out);
  std::string report(text, size);
  free(text);
  EXPECT_NE(report.find("clock-read pair, 12 ns"), std::string::npos) << report;
  EXPECT_TRUE(std::regex_search(report, std::regex("async copy +2 callbacks +100\\.0 ns")))
      << report;
  EXPECT_TRUE(std::regex_search(report, std::regex("launch +1 callbacks +25\\.0 ns"))) << report;
  EXPECT_EQ(report.find("allocation"), std::string::npos) << report;
}
