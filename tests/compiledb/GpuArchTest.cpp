// Picking clang's one --cuda-gpu-arch from nvcc's architecture values.
#include "analyzer/compiledb/TranslationParts.h"

#include <gtest/gtest.h>

namespace streamlint::compiledb {
namespace {

struct ArchCase {
  std::vector<std::string> values;
  std::string expected;
};

class PickGpuArch : public ::testing::TestWithParam<ArchCase> {};

TEST_P(PickGpuArch, Picks) {
  EXPECT_EQ(pickGpuArch(GetParam().values), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Values, PickGpuArch,
    ::testing::Values(
        ArchCase{{}, ""},
        ArchCase{{"native"}, ""},
        ArchCase{{"all"}, ""},
        ArchCase{{"all-major"}, ""},
        ArchCase{{"sm_80"}, "sm_80"},
        ArchCase{{"compute_70"}, "sm_70"},
        ArchCase{{"arch=compute_75,code=[compute_75,sm_75]"}, "sm_75"},
        ArchCase{{"arch=compute_90a,code=sm_90a"}, "sm_90a"},
        ArchCase{{"sm_90", "sm_90a"}, "sm_90a"},
        ArchCase{{"sm_100f"}, "sm_100"},
        ArchCase{{"sm_120", "compute_75"}, "sm_120"},
        ArchCase{{"lto_80"}, ""}));

} // namespace
} // namespace streamlint::compiledb
