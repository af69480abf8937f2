#include "api/LibraryApiTable.h"

#include <algorithm>

namespace streamlint::api {
namespace {

using L = Library;

constexpr std::array Handles = {
    LibraryHandleInfo{L::Cublas, "cublasHandle_t", "cublas", "cublasSetStream",
                      {"cublasCreate"}, {}},
    LibraryHandleInfo{L::Cusparse, "cusparseHandle_t", "cusparse", "cusparseSetStream",
                      {"cusparseCreate"}, {}},
    LibraryHandleInfo{L::CusolverDn, "cusolverDnHandle_t", "cusolverDn",
                      "cusolverDnSetStream", {"cusolverDnCreate"}, {}},
    LibraryHandleInfo{L::CusolverSp, "cusolverSpHandle_t", "cusolverSp",
                      "cusolverSpSetStream", {"cusolverSpCreate"}, {}},
    // Plans: cufftCreate + cufftMakePlan*, or one of cufftPlan*.
    LibraryHandleInfo{L::Cufft, "cufftHandle", "cufft", "cufftSetStream",
                      {"cufftCreate", "cufftPlan1d", "cufftPlan2d", "cufftPlan3d",
                       "cufftPlanMany"},
                      {"Exec", "XtExec"}},
    // curandCreateGeneratorHost generates on the host: no stream.
    LibraryHandleInfo{L::Curand, "curandGenerator_t", "curand", "curandSetStream",
                      {"curandCreateGenerator"}, {"Generate"}},
    LibraryHandleInfo{L::Cudnn, "cudnnHandle_t", "cudnn", "cudnnSetStream",
                      {"cudnnCreate"}, {}},
};

constexpr std::array StreamCalls = {
    LibraryStreamCall{L::CublasLt, "cublasLtMatmul", 15, StreamDefault::Required},
    LibraryStreamCall{L::CublasLt, "cublasLtMatrixTransform", 10, StreamDefault::Required},
    LibraryStreamCall{L::Nccl, "ncclAllGather", 5, StreamDefault::Required},
    LibraryStreamCall{L::Nccl, "ncclAllReduce", 6, StreamDefault::Required},
    LibraryStreamCall{L::Nccl, "ncclAlltoAll", 5, StreamDefault::Required},
    LibraryStreamCall{L::Nccl, "ncclBcast", 5, StreamDefault::Required},
    LibraryStreamCall{L::Nccl, "ncclBroadcast", 6, StreamDefault::Required},
    LibraryStreamCall{L::Nccl, "ncclGather", 6, StreamDefault::Required},
    LibraryStreamCall{L::Nccl, "ncclRecv", 5, StreamDefault::Required},
    LibraryStreamCall{L::Nccl, "ncclReduce", 7, StreamDefault::Required},
    LibraryStreamCall{L::Nccl, "ncclReduceScatter", 6, StreamDefault::Required},
    LibraryStreamCall{L::Nccl, "ncclScatter", 6, StreamDefault::Required},
    LibraryStreamCall{L::Nccl, "ncclSend", 5, StreamDefault::Required},
};

// Sorted: looked up by binary search.
constexpr std::array<std::string_view, 46> ThrustAlgorithms = {
    "adjacent_difference", "all_of", "any_of", "copy", "copy_if", "copy_n",
    "count", "count_if", "equal", "exclusive_scan", "exclusive_scan_by_key",
    "fill", "fill_n", "find", "find_if", "for_each", "for_each_n", "gather",
    "generate", "inclusive_scan", "inclusive_scan_by_key", "inner_product",
    "max_element", "merge", "min_element", "minmax_element", "none_of",
    "partition", "reduce", "reduce_by_key", "remove", "remove_if", "replace",
    "replace_if", "reverse", "scatter", "sequence", "set_difference", "sort",
    "sort_by_key", "stable_sort", "stable_sort_by_key", "tabulate", "transform",
    "transform_reduce", "unique",
};

// Sorted. CCCL 3's cub/device/*.cuh declare all but DeviceSpmv, which
// CUDA 11 and 12's CUB (and hipCUB) still have.
constexpr std::array<std::string_view, 18> CubDeviceAlgorithms = {
    "DeviceAdjacentDifference", "DeviceCopy", "DeviceFor", "DeviceHistogram",
    "DeviceMemcpy", "DeviceMerge", "DeviceMergeSort", "DevicePartition",
    "DeviceRadixSort", "DeviceReduce", "DeviceRunLengthEncode", "DeviceScan",
    "DeviceSegmentedRadixSort", "DeviceSegmentedReduce", "DeviceSegmentedSort",
    "DeviceSelect", "DeviceSpmv", "DeviceTransform",
};

bool startsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

} // namespace

const char *libraryName(Library library) {
  switch (library) {
  case L::Cublas: return "cuBLAS";
  case L::CublasLt: return "cuBLASLt";
  case L::Cusparse: return "cuSPARSE";
  case L::CusolverDn: return "cuSOLVER";
  case L::CusolverSp: return "cuSOLVER";
  case L::Cufft: return "cuFFT";
  case L::Curand: return "cuRAND";
  case L::Cudnn: return "cuDNN";
  case L::Nccl: return "NCCL";
  case L::Cub: return "CUB";
  case L::Thrust: return "Thrust";
  }
  return "";
}

bool compiledIntoCaller(Library library) {
  return library == L::Cub || library == L::Thrust;
}

const LibraryHandleInfo *handleOfType(std::string_view typedefName) {
  for (const LibraryHandleInfo &handle : Handles)
    if (handle.handleType == typedefName)
      return &handle;
  return nullptr;
}

const LibraryHandleInfo *handleCreatedBy(std::string_view spelled) {
  std::string_view name = baseName(spelled);
  for (const LibraryHandleInfo &handle : Handles)
    for (std::string_view create : handle.create)
      if (!create.empty() && create == name)
        return &handle;
  return nullptr;
}

const LibraryHandleInfo *handleBoundBy(std::string_view spelled) {
  std::string_view name = baseName(spelled);
  for (const LibraryHandleInfo &handle : Handles)
    if (handle.bindStream == name)
      return &handle;
  return nullptr;
}

bool isHandleWork(const LibraryHandleInfo &handle, std::string_view spelled) {
  std::string_view name = baseName(spelled);
  if (!startsWith(name, handle.prefix))
    return false;
  std::string_view rest = name.substr(handle.prefix.size());
  if (!handle.workPrefixes[0].empty())
    return std::any_of(handle.workPrefixes.begin(), handle.workPrefixes.end(),
                       [&](std::string_view work) {
                         return !work.empty() && startsWith(rest, work);
                       });
  for (std::string_view setup : {"Create", "Destroy", "Set", "Get", "Logger"})
    if (startsWith(rest, setup))
      return false;
  // Workspace queries compute a size and launch nothing.
  return rest.find("bufferSize") == std::string_view::npos &&
         rest.find("BufferSize") == std::string_view::npos &&
         rest.find("WorkspaceSize") == std::string_view::npos;
}

const LibraryStreamCall *findLibraryStreamCall(std::string_view spelled) {
  std::string_view name = baseName(spelled);
  for (const LibraryStreamCall &call : StreamCalls)
    if (call.name == name)
      return &call;
  return nullptr;
}

bool isThrustAlgorithm(std::string_view name) {
  return std::binary_search(ThrustAlgorithms.begin(), ThrustAlgorithms.end(), name);
}

bool isCubDeviceAlgorithm(std::string_view space, std::string_view name) {
  return (space == "cub" || space == "hipcub") &&
         std::binary_search(CubDeviceAlgorithms.begin(), CubDeviceAlgorithms.end(), name);
}

CubAlgorithmRows allCubDeviceAlgorithms() {
  return {CubDeviceAlgorithms.data(), CubDeviceAlgorithms.size()};
}

LibraryHandleRows allLibraryHandles() { return {Handles.data(), Handles.size()}; }
LibraryStreamCallRows allLibraryStreamCalls() {
  return {StreamCalls.data(), StreamCalls.size()};
}

std::string_view groupEndOf(Library library) {
  return library == L::Nccl ? "ncclGroupEnd" : "";
}

namespace {
/// Prebuilt objects by the start of their file name. Read from the
/// libraries' wheels (nvidia-*-cu13, torch 2.11) and Debian 12's packages.
struct PrebuiltObject {
  std::string_view prefix, library;
};
constexpr PrebuiltObject PrebuiltObjects[] = {
    {"libcublasLt.", "cuBLASLt"}, {"libcublas.", "cuBLAS"},
    {"libcusparseLt.", "cuSPARSELt"}, {"libcusparse.", "cuSPARSE"},
    {"libcusolverMg.", "cuSOLVER"}, {"libcusolver.", "cuSOLVER"},
    {"libcufftw.", "cuFFT"}, {"libcufft.", "cuFFT"}, {"libcurand.", "cuRAND"},
    {"libcudnn", "cuDNN"}, {"libnccl.", "NCCL"}, {"libnvshmem", "NVSHMEM"},
    {"libcutensor", "cuTENSOR"}, {"libnpp", "NPP"}, {"libnvjpeg.", "nvJPEG"},
    {"libnvrtc", "NVRTC"}, {"libnvJitLink.", "nvJitLink"},
    {"libnvToolsExt.", "NVTX"}, {"libcufile.", "cuFile"},
    {"libcudart.", "CUDA runtime"}, {"libcupti.", "CUPTI"}, {"libcuda.", "CUDA driver"},
    {"libtorch", "PyTorch"}, {"libc10", "PyTorch"}, {"libcaffe2", "PyTorch"},
    {"libshm.", "PyTorch"}, {"libtriton.", "Triton"},
    {"libpython", "Python"},
    {"libmpi", "MPI"}, {"libopen-pal.", "MPI"}, {"libopen-rte.", "MPI"},
    {"libucp.", "UCX"}, {"libucs.", "UCX"}, {"libuct.", "UCX"},
    {"libc.so", "C/C++ runtime"}, {"libstdc++.", "C/C++ runtime"},
    {"libgcc_s.", "C/C++ runtime"}, {"libm.so", "C/C++ runtime"},
    {"ld-linux", "C/C++ runtime"}, {"libpthread.", "C/C++ runtime"},
    {"libgomp.", "OpenMP"}, {"libomp.", "OpenMP"},
};
/// Directories whose objects are always prebuilt: the framework wheels'.
constexpr PrebuiltObject PrebuiltDirectories[] = {
    {"/site-packages/torch/", "PyTorch"}, // torch/lib/*.so, torch/_C.*.so
    {"/dist-packages/torch/", "PyTorch"},
    {"/site-packages/nvidia/", "CUDA libraries"},
    {"/dist-packages/nvidia/", "CUDA libraries"},
};
} // namespace

bool isLibraryFunctionName(std::string_view name) {
  for (std::string_view prefix : {"cublas", "cufft", "curand", "cusparse", "cusolver", "nccl",
                                  "cudnn", "nvjpeg", "npp", "cutensor"})
    if (startsWith(name, prefix))
      return true;
  return false;
}

bool isLibrarySetUpCall(std::string_view name) {
  for (std::string_view part : {"Create", "Destroy", "Set", "Get", "Plan", "Query", "Version",
                                "Attach", "Register"})
    if (name.find(part) != std::string_view::npos)
      return true;
  return false;
}

namespace {
/// leavesNoWorkPending's rows, each with what it was read from.
///
/// ncclCommInitRank: read in NCCL's own source (github.com/NVIDIA/nccl,
/// tags v2.14.3-1, v2.19.3-1, v2.28.9-1 and 2.30.7 at 5067397):
/// ncclCommInitRank starts no group; ncclCommInitRankDev hands the
/// initialization to ncclAsyncLaunch (src/group.cc), which runs it on the
/// calling thread when ncclGroupDepth == 0 (`if (ncclGroupDepth == 0) ret
/// = func(job);`), whatever the communicator's blocking setting (the
/// NCCL_COMM_BLOCKING environment variable included). The initialization
/// (ncclCommInitRankFunc -> initTransportsRank) issues its asynchronous
/// copies and memsets on the communicator's deviceStream and ends with
/// devCommSetup, whose last step is
/// ncclStrongStreamSynchronize(&comm->sharedRes->deviceStream); its other
/// copies use a side stream they synchronize (ncclCudaCalloc,
/// ncclCudaMemcpy in src/include/alloc.h). Every stream NCCL creates is
/// cudaStreamCreateWithFlags(..., cudaStreamNonBlocking)
/// (src/misc/strongstream.cc, alloc.h, transport/p2p.cc). Inside a
/// ncclGroupStart/ncclGroupEnd pair the call only queues the job; the work
/// is ncclGroupEnd's, which stays a call that may do anything.
/// Not listed: ncclCommInitRankConfig, ncclCommInitRankScalable and
/// ncclCommInitAll open a group themselves, and with a non-blocking
/// configuration (config.blocking = 0, or NCCL_COMM_BLOCKING=0) their
/// ncclGroupEnd returns ncclInProgress while a thread of NCCL's still
/// initializes (groupLaunchNonBlocking).
constexpr std::string_view NothingPendingCalls[] = {"ncclCommInitRank"};
} // namespace

bool leavesNoWorkPending(std::string_view name) {
  for (std::string_view row : NothingPendingCalls)
    if (name == row)
      return true;
  return false;
}

std::string_view prebuiltLibraryOf(std::string_view objectPath) {
  std::size_t slash = objectPath.rfind('/');
  std::string_view file =
      slash == std::string_view::npos ? objectPath : objectPath.substr(slash + 1);
  for (const PrebuiltObject &object : PrebuiltObjects)
    if (startsWith(file, object.prefix))
      return object.library;
  // The interpreter: python, python3, python3.12 (not "python_app").
  if (startsWith(file, "python") &&
      file.substr(6).find_first_not_of("0123456789.") == std::string_view::npos)
    return "Python";
  for (const PrebuiltObject &dir : PrebuiltDirectories)
    if (objectPath.find(dir.prefix) != std::string_view::npos)
      return dir.library;
  return "";
}

} // namespace streamlint::api
