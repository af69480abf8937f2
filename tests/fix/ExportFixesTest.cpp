// --export-fixes YAML, applied by the real clang-apply-replacements-22: it
// must produce exactly the bytes applyFixes() writes. Exits 77 when the tool
// is not installed.
#include "analyzer/fix/FixApplier.h"
#include "tests/fix/FixTestSupport.h"

#include "llvm/Support/Program.h"

namespace streamlint {
namespace {
using namespace streamlint::testing;

std::string tool() {
  auto found = llvm::sys::findProgramByName("clang-apply-replacements-22");
  return found ? *found : "";
}

const std::string kA = "void f() {\n  cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);\n"
                       "  cudaDeviceSynchronize(); // \"quoted\" \\ text\n}\n";
const std::string kHeader = "inline void g() { cudaMalloc(&p, n); }\n";

/// Findings covering: multi-edit fix, text with quotes/newlines/backslashes,
/// a duplicate header fix from two TUs, a conflict, an advice-only fix.
std::vector<Finding> findingsFor(const std::string &a, const std::string &h) {
  return {
      findingWithFix("sync-memcpy", a, 2,
                     {edit(a, 13, 10, "cudaMemcpyAsync"),
                      edit(a, 55, 0, ", stream")}),
      findingWithFix("device-sync", a, 3,
                     {edit(a, 60, 24, "cudaStreamSynchronize(stream);\n  // was: \"sync\"\\")}),
      findingWithFix("conflicting", a, 3, {edit(a, 62, 5, "XX")}),
      findingWithFix("alloc", h, 1, {edit(h, 18, 10, "cudaMallocAsync")}),
      findingWithFix("alloc", h, 1, {edit(h, 18, 10, "cudaMallocAsync")}),
      findingWithFix("advice", a, 1, {edit(a, 0, 4, "int ")}, /*applicable=*/false),
  };
}

TEST(ExportFixes, ClangApplyReplacementsMatchesApplyFixes) {
  TempProject viaTool, viaApply, yamlDir;
  std::string toolA = viaTool.write("a.cu", kA), toolH = viaTool.write("inc/h.cuh", kHeader);
  std::string applyA = viaApply.write("a.cu", kA), applyH = viaApply.write("inc/h.cuh", kHeader);

  std::string yaml = yamlDir.path("fixes.yaml");
  ASSERT_FALSE(bool(exportFixes(findingsFor(toolA, toolH), {viaTool.root(), false}, yaml)));
  std::string program = tool();
  llvm::StringRef argv[] = {program, yamlDir.root()};
  std::string message;
  int rc = llvm::sys::ExecuteAndWait(program, argv, std::nullopt, {}, 0, 0, &message);
  ASSERT_EQ(rc, 0) << message << "\n" << yamlDir.read("fixes.yaml");

  FixReport report = applyFixes(findingsFor(applyA, applyH), {viaApply.root(), false});
  EXPECT_EQ(report.skipped.size(), 1u); // the conflicting fix, in both paths
  EXPECT_NE(viaApply.read("a.cu"), kA);
  EXPECT_EQ(viaTool.read("a.cu"), viaApply.read("a.cu")) << yamlDir.read("fixes.yaml");
  EXPECT_EQ(viaTool.read("inc/h.cuh"), viaApply.read("inc/h.cuh"));
  EXPECT_EQ(viaApply.read("inc/h.cuh"), "inline void g() { cudaMallocAsync(&p, n); }\n");
}

TEST(ExportFixes, YamlShape) {
  TempProject project;
  std::string a = project.write("a.cu", kA);
  std::string yaml = project.path("out.yaml");
  ASSERT_FALSE(bool(exportFixes({findingsFor(a, a)[0]}, {project.root(), false}, yaml)));
  std::string text = project.read("out.yaml");
  EXPECT_EQ(text, "---\nMainSourceFile:  \"" + a + "\"\nDiagnostics:\n"
                  "  - DiagnosticName:  \"sync-memcpy\"\n"
                  "    DiagnosticMessage:\n"
                  "      Message:         \"sync-memcpy message\"\n"
                  "      FilePath:        \"" + a + "\"\n"
                  "      FileOffset:      11\n"
                  "      Replacements:\n"
                  "        - FilePath:        \"" + a + "\"\n"
                  "          Offset:          13\n"
                  "          Length:          10\n"
                  "          ReplacementText: \"cudaMemcpyAsync\"\n"
                  "        - FilePath:        \"" + a + "\"\n"
                  "          Offset:          55\n"
                  "          Length:          0\n"
                  "          ReplacementText: \", stream\"\n"
                  "    Level:           Warning\n...\n");
}

TEST(ExportFixes, UnwritablePathIsAnError) {
  llvm::Error error = exportFixes({}, {"/", false}, "/nonexistent-dir/fixes.yaml");
  ASSERT_TRUE(bool(error));
  EXPECT_NE(llvm::toString(std::move(error)).find("/nonexistent-dir/fixes.yaml"),
            std::string::npos);
}

} // namespace
} // namespace streamlint

int main(int argc, char **argv) {
  if (streamlint::tool().empty()) {
    std::fprintf(stderr, "skipped: clang-apply-replacements-22 not installed\n");
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
