#pragma once
// The CUDA libraries' part of the API table: how each library's handle is
// created and bound to a stream, which of its calls do work on that stream,
// which calls take their own stream argument, and the Thrust algorithms.
// Plain C++17, no clang: read by library-default-stream and its tests.
//
// Facts were read from CUDA 13.0's cublas_api.h, cublasLt.h, cusparse.h,
// cusolverDn.h, cusolverSp.h, cufft.h, curand.h, cudnn_graph.h, nccl.h and
// CCCL 3's thrust/ and cub/ headers; tests/api/LibraryApiHeaderTest.cpp
// checks the rows against the installed headers.

#include "api/CudaApiTable.h"

#include <array>
#include <cstdint>
#include <string_view>

namespace streamlint::api {

enum class Library : std::uint8_t {
  Cublas, CublasLt, Cusparse, CusolverDn, CusolverSp, Cufft, Curand, Cudnn,
  Nccl, Cub, Thrust
};
/// The library's name as its documentation writes it ("cuBLAS").
const char *libraryName(Library library);

/// Whether the library's code is compiled into the caller's translation unit
/// (CUB, Thrust: headers). Only then does `--default-stream per-thread` make
/// a 0 stream the per-thread one; the shared libraries were compiled without
/// it, so a NULL stream reaching them is the legacy stream.
bool compiledIntoCaller(Library library);

/// A library handle (or cuFFT plan, cuRAND generator): its work runs on the
/// stream last bound to it, the legacy default stream until then.
struct LibraryHandleInfo {
  Library library;
  std::string_view handleType;    ///< typedef name: "cublasHandle_t"
  std::string_view prefix;        ///< every function of the library: "cublas"
  std::string_view bindStream;    ///< (handle, stream): "cublasSetStream"
  std::array<std::string_view, 5> create; ///< (&handle, ...) creators
  /// Calls that do work, after `prefix`; empty: every call taking the
  /// handle first except set-up (Create, Destroy, Set, Get, *bufferSize).
  std::array<std::string_view, 2> workPrefixes;
};

/// Rows, by the handle's typedef name, a creator's or the binder's base name.
const LibraryHandleInfo *handleOfType(std::string_view typedefName);
const LibraryHandleInfo *handleCreatedBy(std::string_view spelled);
const LibraryHandleInfo *handleBoundBy(std::string_view spelled);
/// Whether `spelled` (a function taking `handle`'s type first) does work on
/// the handle's stream rather than set it up or query it.
bool isHandleWork(const LibraryHandleInfo &handle, std::string_view spelled);

/// A function of a CUDA library by its name's prefix (cublas, cufft, curand,
/// cusparse, cusolver, nccl, cudnn, nvjpeg, npp, cutensor).
bool isLibraryFunctionName(std::string_view name);
/// A library function that sets up or asks rather than does work, by the
/// libraries' naming (cublasCreate, cufftPlan1d, cusparseSetStream,
/// cudnnGetVersion, ncclCommQuery...): the ordering analysis treats it as
/// ordering nothing.
bool isLibrarySetUpCall(std::string_view name);

/// A library call that returns with no work pending that a later operation
/// of the program could wait for: whatever device work it issues is done
/// when it returns, or on the library's own non-blocking streams, which no
/// legacy-stream operation of the program ever ordered itself with. The
/// ordering analysis treats it as ordering nothing, where an unknown
/// library call "may issue CUDA work on any stream". Each row's evidence
/// is in LibraryApiTable.cpp; a call not listed stays unknown.
bool leavesNoWorkPending(std::string_view name);

/// A library call with its own stream argument.
struct LibraryStreamCall {
  Library library;
  std::string_view name;
  std::int8_t streamIndex;
  StreamDefault fallback;
};
const LibraryStreamCall *findLibraryStreamCall(std::string_view spelled);

/// Thrust algorithms that run on the device for a device policy or device
/// iterators (`thrust::for_each`, `thrust::sort`, ...), by unqualified name.
bool isThrustAlgorithm(std::string_view name);

/// CUB's device-wide algorithm classes (`cub::DeviceReduce`, ...; hipCUB
/// mirrors them under `hipcub::`). Their two-phase overloads take
/// `(void *d_temp_storage, size_t &temp_storage_bytes, ...)` first: with
/// d_temp_storage null the call only writes the size it needs and enqueues
/// nothing; the trailing stream defaults to 0. Overloads without the
/// temporary storage (DeviceFor::ForEach, DeviceTransform::Transform) run
/// their work on the call.
inline constexpr int CubTempStorageIndex = 0;
/// Whether `space::name` is one of them: `space` is "cub" or "hipcub"
/// (inline namespaces skipped), `name` the class ("DeviceReduce").
bool isCubDeviceAlgorithm(std::string_view space, std::string_view name);
/// The class names, sorted (for tests).
struct CubAlgorithmRows {
  const std::string_view *first;
  std::size_t count;
  const std::string_view *begin() const { return first; }
  const std::string_view *end() const { return first + count; }
};
CubAlgorithmRows allCubDeviceAlgorithms();

/// Every handle row and per-call row, in table order (for tests).
struct LibraryHandleRows {
  const LibraryHandleInfo *first;
  std::size_t count;
  const LibraryHandleInfo *begin() const { return first; }
  const LibraryHandleInfo *end() const { return first + count; }
};
LibraryHandleRows allLibraryHandles();
struct LibraryStreamCallRows {
  const LibraryStreamCall *first;
  std::size_t count;
  const LibraryStreamCall *begin() const { return first; }
  const LibraryStreamCall *end() const { return first + count; }
};
LibraryStreamCallRows allLibraryStreamCalls();

/// The call that launches the work queued since the matching group start
/// (`ncclGroupEnd` for NCCL, which queues a group's collectives there on
/// their streams); "" for libraries without groups.
std::string_view groupEndOf(Library library);

/// The prebuilt library (not the program's own code) a loaded object is, by
/// its file name and directory: "cuBLAS" for `libcublas.so.13`, "NCCL" for
/// `libnccl.so.2`, "PyTorch" for `libtorch_cuda.so` or anything under a
/// `site-packages/torch/`, "Python" for `libpython3.12.so` or the
/// `python3` interpreter, "C/C++ runtime" for libc, libstdc++ and the
/// loader; "" for the program's own objects (its executable, a PyTorch
/// extension built with torch.utils.cpp_extension, its own libraries).
/// The probe's symbolization never places a call site in such an object,
/// whatever line tables it carries, and names the call into it.
std::string_view prebuiltLibraryOf(std::string_view objectPath);

} // namespace streamlint::api
