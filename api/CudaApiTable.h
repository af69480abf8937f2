#pragma once
// The one table of CUDA API facts streamlint relies on: for each runtime and
// driver function the analyzer's checks, its reach analysis and the runtime
// probe know, which argument is the stream (and whether it defaults to 0),
// what the call synchronizes, what it allocates or frees, which arguments are
// host pointers, and how per-thread-default-stream and versioned builds spell
// it. Plain C++17, no clang or LLVM: the injected probe links it too.
//
// Facts were read from CUDA 13.0's cuda_runtime_api.h and cuda.h; the test
// tests/api/ApiTableHeaderTest.cpp checks every stream index, default and
// spelling against the installed toolkit's headers.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace streamlint::api {

enum class Family : std::uint8_t { Runtime, Driver };

/// What a call waits for before it returns.
enum class SyncKind : std::uint8_t {
  None,
  Device,       ///< all work on the device (cudaDeviceSynchronize)
  Stream,       ///< its stream argument; device-wide on the legacy stream
  Event,        ///< one event (cudaEventSynchronize): never device-wide
  DefaultStream ///< synchronous copy/memset: runs on the default stream, so
                ///< on the legacy one it waits for every blocking stream
};

/// Whether the call allocates or releases memory, and which kind. Aliases:
/// returns another address of memory that already exists, through its first
/// argument (cudaHostGetDevicePointer: the device's view of pinned memory).
enum class AllocKind : std::uint8_t { None, Allocates, Frees, Aliases };
enum class MemoryKind : std::uint8_t {
  None,
  Device,      ///< cudaMalloc, cuMemAlloc, pitched and 3D allocations
  Pinned,      ///< page-locked host memory (cudaMallocHost, cudaHostAlloc)
  Registered,  ///< existing host memory pinned in place (cudaHostRegister)
  Managed,     ///< unified memory (cudaMallocManaged)
  Array,       ///< CUDA arrays and mipmapped arrays
  StreamOrdered ///< cudaMallocAsync/cudaFreeAsync: cheap, from a pool
};

/// What the call does to a stream's life. Creates: writes a new stream
/// through its stream argument (a `cudaStream_t *`); Destroys: ends the
/// stream it is given.
enum class StreamLifecycle : std::uint8_t { None, Creates, Destroys };

/// What the call does with an event: records it on its stream
/// (cudaEventRecord) or makes its stream wait for it (cudaStreamWaitEvent).
enum class EventUse : std::uint8_t { None, Records, Waits };

/// How the per-thread-default-stream build spells the function.
enum class PerThreadSpelling : std::uint8_t { None, Ptsz, Ptds };

/// The argument that means "no stream given" when left out.
enum class StreamDefault : std::uint8_t {
  NoStream,   ///< the function takes no stream argument
  Required,   ///< a stream must be passed
  Null,       ///< `cudaStream_t stream = 0` in C++
  InConfig    ///< in the launch config struct (cudaLaunchKernelEx)
};

/// cudaMemcpyKind values, and the direction of a copy with no kind argument.
enum CopyDirection : std::int8_t {
  HostToHost = 0, HostToDevice = 1, DeviceToHost = 2, DeviceToDevice = 3,
  DefaultDirection = 4, NoDirection = -1
};

/// One CUDA API function, by its base name (no `_ptsz`/`_ptds`/`_vN`).
struct ApiInfo {
  std::string_view name;
  Family family = Family::Runtime;
  StreamDefault stream = StreamDefault::NoStream;
  std::int8_t streamIndex = -1;   ///< argument index, -1 if none or InConfig
  bool enqueues = false;          ///< puts work (or a wait) in stream order
  bool launch = false;            ///< launches a kernel
  SyncKind sync = SyncKind::None;
  AllocKind alloc = AllocKind::None;
  MemoryKind memory = MemoryKind::None;
  std::string_view pairedFree;    ///< for allocations: what releases them
  // Asynchronous copies with a host side.
  bool asyncHostCopy = false;
  std::int8_t hostDestination = -1; ///< argument that may be a host pointer
  std::int8_t hostSource = -1;
  std::int8_t kindIndex = -1;       ///< the cudaMemcpyKind argument
  CopyDirection fixedDirection = NoDirection; ///< cuMemcpyHtoDAsync & co.
  bool hostEndsInStruct = false;    ///< cudaMemcpy3DAsync: ends in its params
  std::int8_t callbackIndex = -1; ///< host-function argument (cudaLaunchHostFunc)
  PerThreadSpelling perThread = PerThreadSpelling::None;
  std::string_view version;       ///< "_v2" when the header maps the name to it
  bool removed = false;           ///< removed in CUDA 13 (a call is an error)
  // Streams and events.
  StreamLifecycle lifecycle = StreamLifecycle::None;
  std::int8_t flagsIndex = -1;    ///< Creates: its flags argument (-1: none,
                                  ///< the stream blocks on the legacy stream)
  EventUse event = EventUse::None;
  std::int8_t eventIndex = -1;    ///< the event argument
  /// Sets up or asks about a stream (queries, attributes, capture): takes a
  /// stream but orders no work on it.
  bool bookkeeping = false;
  /// Reads (and cudaGetLastError resets) the thread's sticky error state.
  bool errorState = false;
  /// Registers a host function passed inside a params struct (graph host
  /// nodes, user objects' destructors, log callbacks); `callbackIndex` is
  /// the registrars whose host function is an argument.
  bool hostFunctionInParams = false;
  /// Returns a driver entry point by name (cudaGetDriverEntryPoint,
  /// cuGetProcAddress): a registrar can be reached without an import.
  bool fetchesEntryPoint = false;
  /// Makes its argument the calling thread's current device (cudaSetDevice)
  /// or context (cuCtxSetCurrent): a loop doing it per iteration visits the
  /// devices once each (set-up and teardown), it does not repeat work.
  bool selectsDevice = false;
};

/// A spelled name taken apart: `cuMemcpyHtoDAsync_v2_ptsz`,
/// `cudaMemcpyAsync_ptsz_v7000` (CUPTI's names), `cudaMemcpy_ptds`.
struct ApiName {
  std::string_view base;      ///< every suffix stripped: `cudaMemcpyAsync`
  std::string_view asWritten; ///< a trailing `_ptsz`/`_ptds` stripped, as
                              ///< the user wrote it before the header's macro
  bool perThread = false;     ///< a `_ptsz`/`_ptds` suffix was present
};
/// The one name normalizer: strips trailing `_ptsz`, `_ptds` and `_v<digits>`
/// in any order.
ApiName parseApiName(std::string_view spelled);
inline std::string_view baseName(std::string_view spelled) {
  return parseApiName(spelled).base;
}

/// The row for any spelling of a function; nullptr when not in the table.
const ApiInfo *findApi(std::string_view spelled);

/// Every row, in table order.
struct ApiRows {
  const ApiInfo *first;
  std::size_t count;
  const ApiInfo *begin() const { return first; }
  const ApiInfo *end() const { return first + count; }
};
ApiRows allApis();

/// The names a declaration of `api` can have in a TU: the base name, the
/// versioned one (`cuMemAlloc_v2`) and their per-thread forms
/// (`cudaMemcpyAsync_ptsz`, `cuMemcpyHtoDAsync_v2_ptsz`).
std::vector<std::string> spellingsOf(const ApiInfo &api);

// What the checks and the probe ask of a row. Each check reads these, and
// the probe derives its traits from the same functions, so a call a check
// flags is one the probe classifies the same way (tests/api).

/// default-stream: stream-ordered runtime work whose stream decides what it
/// waits for (cudaStreamSynchronize's stream belongs to device-sync).
bool isStreamOrderedWork(const ApiInfo &api);
/// pageable-memcpy-async: an asynchronous copy with a host side.
bool isAsyncHostCopy(const ApiInfo &api);
/// alloc-in-loop: a driver round trip that allocates or frees memory
/// (stream-ordered pool allocation is the cure, not the misuse).
bool allocatesMemory(const ApiInfo &api);
bool freesMemory(const ApiInfo &api);
/// device-sync: may wait for the whole device (always for SyncKind::Device,
/// on the legacy stream for Stream and DefaultStream).
bool maySynchronizeDevice(const ApiInfo &api);
/// The ordering analysis: a call that takes a stream but orders no work on
/// it (stream creation and destruction, queries, attributes, capture).
bool ordersNoWork(const ApiInfo &api);
/// api-in-host-callback and the probe: registers a host function that later
/// runs on the driver's callback thread.
bool registersHostFunction(const ApiInfo &api);
/// Where memory comes from (analysis/ProvenanceIndex): the call returns a
/// pointer to device, pinned, managed or pool memory through its first
/// argument (arrays and registrations are not pointers it returns).
bool returnsMemoryThroughFirstArgument(const ApiInfo &api);
/// Loops over devices: selects the device (or context) the thread's later
/// calls go to, from its first argument.
bool selectsDevice(const ApiInfo &api);

/// cudaStreamLegacy and cudaStreamPerThread, as the runtime headers define them.
inline constexpr std::uintptr_t StreamLegacyHandle = 0x1;
inline constexpr std::uintptr_t StreamPerThreadHandle = 0x2;

/// Whether a stream handle seen at run time is the legacy default stream,
/// given whether the call was the per-thread (_ptsz/_ptds) variant.
bool isLegacyStreamHandle(std::uintptr_t stream, bool perThreadVariant);

} // namespace streamlint::api
