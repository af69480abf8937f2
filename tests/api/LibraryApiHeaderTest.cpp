// The library rows of the API table against the installed toolkit's headers:
// each handle's creators take `handle_t *` first, its binder takes
// `(handle_t, cudaStream_t)`, and each per-call row's stream sits at its
// index. Text-level (no clang); a library whose header is not installed
// (cuDNN and NCCL ship apart from the toolkit) is skipped by name.
#include "api/LibraryApiTable.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace streamlint::api {
namespace {

std::string toolkit() {
  const char *root = std::getenv("CUDA_HOME");
  return root && *root ? root : "/usr/local/cuda";
}

/// The library's headers, concatenated; empty when none is installed.
std::string headersOf(Library library) {
  std::vector<const char *> names;
  switch (library) {
  case Library::Cublas: names = {"cublas_api.h"}; break;
  case Library::CublasLt: names = {"cublasLt.h"}; break;
  case Library::Cusparse: names = {"cusparse.h"}; break;
  case Library::CusolverDn: names = {"cusolverDn.h"}; break;
  case Library::CusolverSp: names = {"cusolverSp.h"}; break;
  case Library::Cufft: names = {"cufft.h"}; break;
  case Library::Curand: names = {"curand.h"}; break;
  case Library::Cudnn: names = {"cudnn_graph.h", "cudnn_ops.h"}; break;
  case Library::Nccl: names = {"nccl.h"}; break;
  default: break;
  }
  std::string text;
  for (const char *name : names) {
    std::ifstream in(toolkit() + "/include/" + name);
    std::stringstream read;
    read << in.rdbuf();
    text += read.str();
  }
  return text;
}

/// The parameters of the first declaration `name(` or `name_v2(` followed
/// by a parameter list, split at top-level commas.
std::vector<std::string> parametersOf(const std::string &header, const std::string &name) {
  std::regex declaration("\\b" + name + "(_v2)?\\s*\\(");
  for (auto match = std::sregex_iterator(header.begin(), header.end(), declaration);
       match != std::sregex_iterator(); ++match) {
    std::vector<std::string> parameters(1);
    int depth = 0;
    for (std::size_t at = match->position(0) + match->length(0); at < header.size(); ++at) {
      char c = header[at];
      if (c == '(')
        ++depth;
      if (c == ')' && depth-- == 0)
        break;
      if (c == ',' && depth == 0)
        parameters.emplace_back();
      else
        parameters.back() += c;
    }
    // A mention in a comment ("see ncclSend()") has no typed parameter.
    if (parameters[0].find_first_of(" *") != std::string::npos &&
        parameters[0].find_first_not_of(" \t\n") != std::string::npos)
      return parameters;
  }
  return {};
}

bool contains(const std::string &text, const std::string &part) {
  return text.find(part) != std::string::npos;
}

TEST(LibraryApiHeaders, HandlesAreCreatedAndBoundAsTheRowsSay) {
  for (const LibraryHandleInfo &handle : allLibraryHandles()) {
    std::string header = headersOf(handle.library);
    if (header.empty()) {
      std::cout << "[ SKIPPED  ] " << libraryName(handle.library)
                << ": headers not installed under " << toolkit() << "/include\n";
      continue;
    }
    SCOPED_TRACE(std::string(handle.handleType));
    EXPECT_TRUE(contains(header, std::string(handle.handleType)));
    std::vector<std::string> bind = parametersOf(header, std::string(handle.bindStream));
    ASSERT_EQ(bind.size(), 2u) << handle.bindStream;
    EXPECT_TRUE(contains(bind[0], std::string(handle.handleType))) << bind[0];
    EXPECT_TRUE(contains(bind[1], "cudaStream_t")) << bind[1];
    for (std::string_view create : handle.create) {
      if (create.empty())
        continue;
      std::vector<std::string> parameters = parametersOf(header, std::string(create));
      ASSERT_FALSE(parameters.empty()) << create;
      EXPECT_TRUE(contains(parameters[0], std::string(handle.handleType)) &&
                  contains(parameters[0], "*"))
          << create << ": " << parameters[0];
    }
  }
}

TEST(LibraryApiHeaders, PerCallStreamsSitAtTheirIndex) {
  for (const LibraryStreamCall &call : allLibraryStreamCalls()) {
    std::string header = headersOf(call.library);
    if (header.empty()) {
      std::cout << "[ SKIPPED  ] " << call.name << ": " << libraryName(call.library)
                << " headers not installed\n";
      continue;
    }
    std::vector<std::string> parameters = parametersOf(header, std::string(call.name));
    ASSERT_GT(parameters.size(), static_cast<std::size_t>(call.streamIndex)) << call.name;
    EXPECT_TRUE(contains(parameters[call.streamIndex], "cudaStream_t"))
        << call.name << ": " << parameters[call.streamIndex];
    EXPECT_EQ(parameters.size(), static_cast<std::size_t>(call.streamIndex) + 1)
        << call.name << ": the stream is the last parameter";
  }
}

// Each CUB class of the table is declared by CCCL's cub/device/ headers
// (DeviceSpmv only by CUDA 11 and 12's CUB), and its two-phase overloads
// take the temporary storage first.
TEST(LibraryApiTable, CubAlgorithmsAreCcclsDeviceClasses) {
  std::string directory = toolkit() + "/include/cccl/cub/device";
  std::string text;
  for (const char *name :
       {"device_adjacent_difference", "device_copy", "device_for", "device_histogram",
        "device_memcpy", "device_merge", "device_merge_sort", "device_partition",
        "device_radix_sort", "device_reduce", "device_run_length_encode", "device_scan",
        "device_segmented_radix_sort", "device_segmented_reduce", "device_segmented_sort",
        "device_select", "device_transform"}) {
    std::ifstream in(directory + "/" + name + ".cuh");
    std::stringstream read;
    read << in.rdbuf();
    text += read.str();
  }
  if (text.empty())
    GTEST_SKIP() << "no CCCL headers under " << directory;
  std::size_t rows = 0;
  for (std::string_view name : allCubDeviceAlgorithms()) {
    ++rows;
    EXPECT_TRUE(isCubDeviceAlgorithm("cub", name));
    EXPECT_TRUE(isCubDeviceAlgorithm("hipcub", name));
    if (name == "DeviceSpmv")
      continue;
    EXPECT_NE(text.find("struct " + std::string(name) + "\n"), std::string::npos)
        << name << " is not declared in " << directory;
  }
  EXPECT_EQ(rows, 18u);
  EXPECT_NE(text.find("void* d_temp_storage,"), std::string::npos);
  EXPECT_FALSE(isCubDeviceAlgorithm("cub", "BlockReduce"));
  EXPECT_FALSE(isCubDeviceAlgorithm("thrust", "DeviceReduce"));
}

TEST(LibraryApiTable, WorkIsToldFromSetUp) {
  const LibraryHandleInfo *cublas = handleOfType("cublasHandle_t");
  ASSERT_TRUE(cublas);
  EXPECT_TRUE(isHandleWork(*cublas, "cublasSgemm_v2"));
  EXPECT_TRUE(isHandleWork(*cublas, "cublasGemmEx"));
  EXPECT_FALSE(isHandleWork(*cublas, "cublasSetMathMode"));
  EXPECT_FALSE(isHandleWork(*cublas, "cublasDestroy_v2"));
  EXPECT_FALSE(isHandleWork(*cublas, "cusparseSpMV"));
  const LibraryHandleInfo *solver = handleOfType("cusolverDnHandle_t");
  ASSERT_TRUE(solver);
  EXPECT_FALSE(isHandleWork(*solver, "cusolverDnSgetrf_bufferSize"));
  EXPECT_TRUE(isHandleWork(*solver, "cusolverDnSgetrf"));
  const LibraryHandleInfo *fft = handleOfType("cufftHandle");
  ASSERT_TRUE(fft);
  EXPECT_TRUE(isHandleWork(*fft, "cufftExecR2C"));
  EXPECT_FALSE(isHandleWork(*fft, "cufftMakePlan1d"));
  EXPECT_FALSE(isHandleWork(*fft, "cufftGetSize"));
  const LibraryHandleInfo *rand = handleOfType("curandGenerator_t");
  ASSERT_TRUE(rand);
  EXPECT_TRUE(isHandleWork(*rand, "curandGenerateUniform"));
  EXPECT_FALSE(isHandleWork(*rand, "curandSetPseudoRandomGeneratorSeed"));
  EXPECT_EQ(handleCreatedBy("cublasCreate_v2"), cublas);
  EXPECT_EQ(handleBoundBy("cublasSetStream_v2"), cublas);
  EXPECT_EQ(handleCreatedBy("curandCreateGeneratorHost"), nullptr);
  EXPECT_TRUE(isThrustAlgorithm("for_each"));
  EXPECT_FALSE(isThrustAlgorithm("make_zip_iterator"));
  EXPECT_FALSE(compiledIntoCaller(Library::Nccl));
  EXPECT_TRUE(compiledIntoCaller(Library::Cub));
}

// NCCL's source shows ncclCommInitRank initializing on the calling thread
// outside a group and synchronizing its own stream before it returns; the
// calls that open a group of their own may return with NCCL's thread still
// at work (non-blocking configurations), and ncclGroupEnd runs queued work.
TEST(LibraryApiTable, NcclInitRankLeavesNothingPending) {
  EXPECT_TRUE(leavesNoWorkPending("ncclCommInitRank"));
  for (const char *name : {"ncclCommInitRankConfig", "ncclCommInitRankScalable", "ncclCommInitAll",
                           "ncclCommSplit", "ncclGroupEnd", "ncclAllReduce", "cublasSgemm",
                           ""})
    EXPECT_FALSE(leavesNoWorkPending(name)) << name;
  // The row names a call that takes no stream (nothing to pass it).
  std::string header = headersOf(Library::Nccl);
  if (header.empty()) {
    std::cout << "[ SKIPPED  ] ncclCommInitRank: NCCL headers not installed\n";
    return;
  }
  std::vector<std::string> parameters = parametersOf(header, "ncclCommInitRank");
  ASSERT_EQ(parameters.size(), 4u);
  for (const std::string &parameter : parameters)
    EXPECT_FALSE(contains(parameter, "cudaStream_t")) << parameter;
}

} // namespace
} // namespace streamlint::api

// The probe never places a call site in a prebuilt library's code, and
// names the call into it (runtime_probe/launcher/SiteResolver).
TEST(LibraryApiTable, TellsPrebuiltLibrariesFromTheProgram) {
  using streamlint::api::prebuiltLibraryOf;
  EXPECT_EQ(prebuiltLibraryOf("/usr/local/cuda/lib64/libcublas.so.13"), "cuBLAS");
  EXPECT_EQ(prebuiltLibraryOf("/usr/local/cuda/lib64/libcublasLt.so.13"), "cuBLASLt");
  EXPECT_EQ(prebuiltLibraryOf("/venv/lib/python3.12/site-packages/nvidia/nccl/lib/libnccl.so.2"),
            "NCCL");
  EXPECT_EQ(prebuiltLibraryOf("/venv/lib/python3.12/site-packages/nvidia/cu13/lib/libfoo.so.1"),
            "CUDA libraries");
  EXPECT_EQ(prebuiltLibraryOf("/opt/nccl/lib/libnccl.so.2"), "NCCL");
  EXPECT_EQ(prebuiltLibraryOf("/venv/lib/python3.12/site-packages/torch/lib/libtorch_cuda.so"),
            "PyTorch");
  EXPECT_EQ(prebuiltLibraryOf("/venv/lib/python3.12/site-packages/torch/_C.cpython-312-x86_64-linux-gnu.so"),
            "PyTorch");
  EXPECT_EQ(prebuiltLibraryOf("/usr/lib/libc10_cuda.so"), "PyTorch");
  EXPECT_EQ(prebuiltLibraryOf("/usr/bin/python3.12"), "Python");
  EXPECT_EQ(prebuiltLibraryOf("/usr/lib/x86_64-linux-gnu/libc.so.6"), "C/C++ runtime");
  EXPECT_EQ(prebuiltLibraryOf("/usr/lib/x86_64-linux-gnu/libcudnn_ops.so.9"), "cuDNN");
  // The program's own objects.
  EXPECT_EQ(prebuiltLibraryOf("/home/me/app/build/app"), "");
  EXPECT_EQ(prebuiltLibraryOf("/home/me/app/build/python_bindings.so"), "");
  EXPECT_EQ(prebuiltLibraryOf(
                "/root/.cache/torch_extensions/py312_cu130/my_ext/my_ext.so"),
            "");
  EXPECT_EQ(prebuiltLibraryOf(""), "");
}

TEST(LibraryApiTable, NcclQueuesAGroupAtItsEnd) {
  EXPECT_EQ(streamlint::api::groupEndOf(streamlint::api::Library::Nccl), "ncclGroupEnd");
  EXPECT_EQ(streamlint::api::groupEndOf(streamlint::api::Library::Cublas), "");
}

