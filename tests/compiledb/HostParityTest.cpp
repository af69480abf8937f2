// What nvcc gives host code, derived from the toolkit and host compiler in
// use: the host compiler's include directories, the standard headers the
// toolkit's CRT includes, and the intrinsics clang's wrapper leaves out.
// Fake toolkits and compilers here; the real ones in RealToolkitParseTest.
#include "analyzer/compiledb/TranslationParts.h"
#include "tests/compiledb/TempDir.h"
#include "tests/compiledb/TranslationTestSupport.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace streamlint {
namespace {
using namespace streamlint::compiledb;
using namespace streamlint::testing;

TEST(HostIncludeDirs, ParsesGccVerboseSearchList) {
  const char *output = R"(Using built-in specs.
#include "..." search starts here:
#include <...> search starts here:
 /usr/lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12
 /usr/lib/gcc/x86_64-linux-gnu/12/include
 /usr/local/include
 /usr/include
End of search list.
 /not/a/dir/after/the/end
)";
  std::vector<std::string> expected = {"/usr/include/c++/12",
                                       "/usr/lib/gcc/x86_64-linux-gnu/12/include",
                                       "/usr/local/include", "/usr/include"};
  EXPECT_EQ(parseHostIncludeDirs(output), expected);
  EXPECT_TRUE(parseHostIncludeDirs("no list here\n").empty());
}

TEST(HostIncludeDirs, AsksTheCompilerItselfOnce) {
  TempDir dir;
  // A "compiler" that answers like gcc -v and counts how often it is asked.
  std::string compiler = dir.write(
      "bin/fake-g++",
      "#!/bin/sh\necho x >> " + dir.path() + "/calls\n"
      "echo '#include <...> search starts here:' >&2\n"
      "echo ' " + dir.path() + "/gcc/include' >&2\n"
      "echo 'End of search list.' >&2\n");
  llvm::sys::fs::setPermissions(compiler, llvm::sys::fs::all_exe |
                                              llvm::sys::fs::owner_all);
  std::vector<std::string> expected = {dir.path() + "/gcc/include"};
  EXPECT_EQ(hostCompilerIncludeDirs(compiler), expected);
  EXPECT_EQ(hostCompilerIncludeDirs(compiler), expected);
  auto calls = llvm::MemoryBuffer::getFile(dir.path() + "/calls");
  ASSERT_TRUE(bool(calls));
  EXPECT_EQ((*calls)->getBuffer(), "x\n");
  EXPECT_TRUE(hostCompilerIncludeDirs(dir.path() + "/bin/missing").empty());
  EXPECT_TRUE(hostCompilerIncludeDirs("").empty());
}

TEST(HostIncludeDirs, NvccHostCompilerFromCcbin) {
  TempDir dir;
  std::string gxx = dir.write("gcc12/g++", "#!/bin/sh\n");
  llvm::sys::fs::setPermissions(gxx, llvm::sys::fs::all_exe | llvm::sys::fs::owner_all);
  auto hostOf = [&](std::vector<std::string> args) {
    return hostCompilerOf(args, identifyCompiler(args), dir.path());
  };
  ::unsetenv("NVCC_CCBIN");
  EXPECT_EQ(hostOf({"nvcc", "-ccbin", "/opt/bin/g++-12", "-c", "a.cu"}), "/opt/bin/g++-12");
  EXPECT_EQ(hostOf({"nvcc", "-ccbin=g++-13", "-c", "a.cu"}), "g++-13");
  EXPECT_EQ(hostOf({"nvcc", "--compiler-bindir", "gcc12", "-c", "a.cu"}), gxx);
  EXPECT_EQ(hostOf({"nvcc", "-c", "a.cu"}), "g++");
  ::setenv("NVCC_CCBIN", "/opt/env/g++", 1);
  EXPECT_EQ(hostOf({"nvcc", "-c", "a.cu"}), "/opt/env/g++");
  ::unsetenv("NVCC_CCBIN");
  EXPECT_EQ(hostOf({"ccache", "/usr/bin/g++-12", "-c", "a.cpp"}), "/usr/bin/g++-12");
  EXPECT_EQ(hostOf({"clang++-22", "-c", "a.cpp"}), "");
}

TEST(HostIncludeDirs, GoLastWithIdirafter) {
  TempDir dir;
  std::string compiler = dir.write(
      "bin/g++", "#!/bin/sh\necho '#include <...> search starts here:' >&2\n"
                 "echo ' /opt/gcc/include' >&2\necho 'End of search list.' >&2\n");
  llvm::sys::fs::setPermissions(compiler, llvm::sys::fs::all_exe |
                                              llvm::sys::fs::owner_all);
  Toolchain toolchain = fakeToolchain();
  toolchain.askHostCompiler = true;
  auto inv = translate({"nvcc", "-ccbin", compiler, "-c", "/src/k.cu"},
                       "/src/k.cu", {}, toolchain);
  EXPECT_TRUE(hasSequence(inv.args, {"-idirafter", "/opt/gcc/include"}))
      << llvm::join(inv.args, " ");
  toolchain.askHostCompiler = false;
  inv = translate({"nvcc", "-ccbin", compiler, "-c", "/src/k.cu"}, "/src/k.cu",
                  {}, toolchain);
  EXPECT_FALSE(mentions(inv.args, "-idirafter"));
}

TEST(ToolkitShims, CrtStandardHeadersComeFromTheToolkit) {
  TempDir cuda;
  cuda.write("include/crt/common_functions.h",
             "#include <string.h>\n#include <time.h>\n#include <crt/host_defines.h>\n"
             "#if defined(_LIBCPP_VERSION)\n#include <__config>\n#endif\n");
  cuda.write("include/crt/math_functions.h",
             "  #  include <math.h>\n#include <time.h>\n#include <cmath>\n"
             "#include <crtdefs.h>\n");
  std::vector<std::string> expected = {"string.h", "time.h", "math.h", "cmath"};
  EXPECT_EQ(crtSystemHeaders(cuda.path()), expected);
  EXPECT_TRUE(crtSystemHeaders(cuda.path() + "/nowhere").empty());
}

TEST(ToolkitShims, DeclaresOnlyIntrinsicsClangLacks) {
  TempDir cuda, clang;
  cuda.write("include/sm_32_intrinsics.h",
             "#define __DEF_IF_HOST ;\n"
             "__SM_32_INTRINSICS_DECL__ void __stwt(float *ptr, float value) __DEF_IF_HOST\n"
             "__SM_32_INTRINSICS_DECL__ void __stcs(float *ptr, float value) __DEF_IF_HOST\n"
             "__SM_32_INTRINSICS_DECL__ float4 __ldlu(const float4 *ptr) __DEF_IF_HOST\n");
  // Included by the wrapper: clang has all of it already.
  cuda.write("include/sm_61_intrinsics.h",
             "__SM_61_INTRINSICS_DECL__ int __dp4a(int a, int b, int c) __DEF_IF_HOST\n");
  clang.write("include/__clang_cuda_runtime_wrapper.h",
              "#include \"sm_61_intrinsics.hpp\"\n");
  clang.write("include/__clang_cuda_intrinsics.h",
              "__INTRINSIC_STORE(__stwt, \"st.global.wt.f32\", float, float, \"f\");\n"
              "// __stcs_not_this_one\n");
  std::string text = missingIntrinsicDeclarations(cuda.path(), clang.path());
  EXPECT_EQ(text,
            "__attribute__((device)) void __stcs(float *ptr, float value);\n"
            "__attribute__((device)) float4 __ldlu(const float4 *ptr);\n");
  EXPECT_EQ(missingIntrinsicDeclarations(cuda.path(), clang.path() + "/none"), "");
}

TEST(ToolkitShims, ShimHeaderCarriesAllThree) {
  TempDir cuda, clang;
  cuda.write("include/crt/common_functions.h", "#include <time.h>\n");
  cuda.write("include/sm_32_intrinsics.h",
             "__SM_32_INTRINSICS_DECL__ void __stcg(int *ptr, int value) __DEF_IF_HOST\n");
  clang.write("include/__clang_cuda_intrinsics.h", "\n");
  Toolchain toolchain = fakeToolchain();
  toolchain.cudaPath = cuda.path();
  toolchain.clangResourceDir = clang.path();
  std::string text = hostShimHeaderText(toolchain);
  EXPECT_NE(text.find("#include <time.h>\n"), std::string::npos) << text;
  EXPECT_NE(text.find("#undef __CUDACC__\n#define __CUDACC__ 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("host)) int min(const int a, const int b)"), std::string::npos) << text;
  EXPECT_NE(text.find("__attribute__((device)) void __stcg(int *ptr, int value);"),
            std::string::npos) << text;
}

} // namespace
} // namespace streamlint
