#include "api/CudaApiTable.h"

#include <array>

namespace streamlint::api {
namespace {

constexpr Family R = Family::Runtime;
constexpr Family D = Family::Driver;

// Row builders keep the table one line per function.
constexpr ApiInfo row(std::string_view name, Family family) {
  ApiInfo info;
  info.name = name;
  info.family = family;
  return info;
}
constexpr ApiInfo withStream(ApiInfo info, int index, StreamDefault fallback) {
  info.streamIndex = static_cast<std::int8_t>(index);
  info.stream = fallback;
  return info;
}
constexpr ApiInfo ordered(ApiInfo info, int index, StreamDefault fallback,
                          PerThreadSpelling perThread) {
  info = withStream(info, index, fallback);
  info.enqueues = true;
  info.perThread = perThread;
  return info;
}
constexpr ApiInfo launch(std::string_view name, int streamIndex, StreamDefault fallback,
                         PerThreadSpelling perThread = PerThreadSpelling::Ptsz) {
  ApiInfo info = ordered(row(name, R), streamIndex, fallback, perThread);
  info.launch = true;
  return info;
}
constexpr ApiInfo syncs(std::string_view name, Family family, SyncKind kind,
                        PerThreadSpelling perThread = PerThreadSpelling::None) {
  ApiInfo info = row(name, family);
  info.sync = kind;
  info.perThread = perThread;
  return info;
}
/// A synchronous copy or memset: on the default stream. `kind` is its
/// cudaMemcpyKind argument (-1: none), `direction` the copy's fixed direction.
constexpr ApiInfo syncCopy(std::string_view name, Family family, int kind,
                           CopyDirection direction = NoDirection,
                           std::string_view version = {}) {
  ApiInfo info = syncs(name, family, SyncKind::DefaultStream, PerThreadSpelling::Ptds);
  info.kindIndex = static_cast<std::int8_t>(kind);
  info.fixedDirection = direction;
  info.version = version;
  return info;
}
constexpr ApiInfo withoutPerThread(ApiInfo info) {
  info.perThread = PerThreadSpelling::None;
  return info;
}
constexpr ApiInfo streamSync(std::string_view name, Family family) {
  ApiInfo info = syncs(name, family, SyncKind::Stream, PerThreadSpelling::Ptsz);
  return withStream(info, 0, StreamDefault::Required);
}
constexpr ApiInfo memory(std::string_view name, Family family, AllocKind alloc,
                         MemoryKind kind, std::string_view pairedFree = {},
                         std::string_view version = {}) {
  ApiInfo info = row(name, family);
  info.alloc = alloc;
  info.memory = kind;
  info.pairedFree = pairedFree;
  info.version = version;
  return info;
}
constexpr ApiInfo streamOrderedMemory(std::string_view name, AllocKind alloc, int streamIndex) {
  ApiInfo info = memory(name, R, alloc, MemoryKind::StreamOrdered);
  return ordered(info, streamIndex, StreamDefault::Required, PerThreadSpelling::Ptsz);
}
/// An asynchronous copy: host-pointer arguments (-1: never host), the
/// cudaMemcpyKind argument, and the stream (defaulting to 0 in the runtime).
constexpr ApiInfo asyncCopy(std::string_view name, int destination, int source,
                            int kind, int streamIndex) {
  ApiInfo info = ordered(row(name, R), streamIndex, StreamDefault::Null,
                         PerThreadSpelling::Ptsz);
  info.asyncHostCopy = true;
  info.hostDestination = static_cast<std::int8_t>(destination);
  info.hostSource = static_cast<std::int8_t>(source);
  info.kindIndex = static_cast<std::int8_t>(kind);
  return info;
}
constexpr ApiInfo driverCopy(std::string_view name, int destination, int source,
                             CopyDirection direction) {
  ApiInfo info = ordered(row(name, D), 3, StreamDefault::Required, PerThreadSpelling::Ptsz);
  info.asyncHostCopy = true;
  info.hostDestination = static_cast<std::int8_t>(destination);
  info.hostSource = static_cast<std::int8_t>(source);
  info.fixedDirection = direction;
  info.version = "_v2";
  return info;
}
constexpr ApiInfo callbackRegistrar(std::string_view name, Family family) {
  ApiInfo info = ordered(row(name, family), 0, StreamDefault::Required, PerThreadSpelling::Ptsz);
  info.callbackIndex = 1;
  return info;
}
/// A stream's creation or destruction; its stream argument is the first.
constexpr ApiInfo streamLife(std::string_view name, Family family, StreamLifecycle what,
                             int flagsIndex = -1, std::string_view version = {}) {
  ApiInfo info = withStream(row(name, family), 0, StreamDefault::Required);
  info.lifecycle = what;
  info.flagsIndex = static_cast<std::int8_t>(flagsIndex);
  info.version = version;
  return info;
}
/// A query, attribute or capture call on its first argument, a stream.
constexpr ApiInfo streamBookkeeping(std::string_view name, Family family,
                                    std::string_view version = {},
                                    PerThreadSpelling perThread = PerThreadSpelling::Ptsz) {
  ApiInfo info = withStream(row(name, family), 0, StreamDefault::Required);
  info.bookkeeping = true;
  info.perThread = perThread;
  info.version = version;
  return info;
}
constexpr ApiInfo usesEvent(ApiInfo info, EventUse use, int eventIndex) {
  info.event = use;
  info.eventIndex = static_cast<std::int8_t>(eventIndex);
  return info;
}
constexpr ApiInfo errorStateQuery(std::string_view name) {
  ApiInfo info = row(name, R);
  info.errorState = true;
  return info;
}
/// Registers a host function given inside a params struct.
constexpr ApiInfo hostFunctionRegistrar(std::string_view name, Family family,
                                        std::string_view version = {}) {
  ApiInfo info = row(name, family);
  info.hostFunctionInParams = true;
  info.version = version;
  return info;
}
constexpr ApiInfo entryPointFetcher(std::string_view name, Family family,
                                    PerThreadSpelling perThread,
                                    std::string_view version = {}) {
  ApiInfo info = row(name, family);
  info.fetchesEntryPoint = true;
  info.perThread = perThread;
  info.version = version;
  return info;
}
constexpr ApiInfo removedApi(ApiInfo info) {
  info.removed = true;
  return info;
}
constexpr ApiInfo inStruct(ApiInfo info) {
  info.hostEndsInStruct = true;
  return info;
}
constexpr ApiInfo deviceSelector(std::string_view name, Family family) {
  ApiInfo info = row(name, family);
  info.selectsDevice = true;
  return info;
}

using SD = StreamDefault;
using PT = PerThreadSpelling;
using AK = AllocKind;
using MK = MemoryKind;

constexpr std::array Table = {
    // Device-wide and stream synchronization.
    syncs("cudaDeviceSynchronize", R, SyncKind::Device),
    removedApi(syncs("cudaThreadSynchronize", R, SyncKind::Device)),
    syncs("cuCtxSynchronize", D, SyncKind::Device),
    streamSync("cudaStreamSynchronize", R),
    streamSync("cuStreamSynchronize", D),
    syncs("cudaEventSynchronize", R, SyncKind::Event),
    syncs("cuEventSynchronize", D, SyncKind::Event),
    // Synchronous copies and memsets: on the default stream.
    syncCopy("cudaMemcpy", R, 3),
    syncCopy("cudaMemcpy2D", R, 6),
    syncCopy("cudaMemcpy3D", R, -1), // kind and ends in its params struct
    syncCopy("cudaMemcpyToSymbol", R, 4, HostToDevice),   // the kind's default
    syncCopy("cudaMemcpyFromSymbol", R, 4, DeviceToHost), // the kind's default
    withoutPerThread(syncCopy("cudaMemcpyPeer", R, -1, DeviceToDevice)),
    syncCopy("cudaMemcpy3DPeer", R, -1, DeviceToDevice),
    syncCopy("cudaMemcpyToArray", R, 5),
    syncCopy("cudaMemcpyFromArray", R, 5),
    syncCopy("cudaMemcpyArrayToArray", R, 7, DeviceToDevice),
    syncCopy("cudaMemcpy2DToArray", R, 7),
    syncCopy("cudaMemcpy2DFromArray", R, 7),
    syncCopy("cudaMemcpy2DArrayToArray", R, 8, DeviceToDevice),
    syncCopy("cudaMemset", R, -1),
    syncCopy("cudaMemset2D", R, -1),
    syncCopy("cudaMemset3D", R, -1),
    syncCopy("cuMemcpy", D, -1, DefaultDirection),
    syncCopy("cuMemcpyHtoD", D, -1, HostToDevice, "_v2"),
    syncCopy("cuMemcpyDtoH", D, -1, DeviceToHost, "_v2"),
    syncCopy("cuMemcpyDtoD", D, -1, DeviceToDevice, "_v2"),
    syncCopy("cuMemcpy2D", D, -1, NoDirection, "_v2"),
    syncCopy("cuMemcpy3D", D, -1, NoDirection, "_v2"),
    syncCopy("cuMemsetD8", D, -1, NoDirection, "_v2"),
    syncCopy("cuMemsetD16", D, -1, NoDirection, "_v2"),
    syncCopy("cuMemsetD32", D, -1, NoDirection, "_v2"),
    // Launches.
    launch("cudaLaunchKernel", 5, SD::Required),
    launch("cudaLaunchCooperativeKernel", 5, SD::Required),
    launch("cudaLaunchKernelEx", -1, SD::InConfig, PT::None), // template over ExC
    launch("cudaLaunchKernelExC", -1, SD::InConfig),
    launch("__cudaLaunchKernel", -1, SD::NoStream, PT::None), // CUDA 13 <<<>>> lowering
    // Other stream-ordered work.
    ordered(row("cudaGraphLaunch", R), 1, SD::Required, PT::Ptsz),
    usesEvent(ordered(row("cudaEventRecord", R), 1, SD::Null, PT::Ptsz), EventUse::Records, 0),
    usesEvent(ordered(row("cudaEventRecordWithFlags", R), 1, SD::Null, PT::Ptsz),
              EventUse::Records, 0),
    usesEvent(ordered(row("cudaStreamWaitEvent", R), 0, SD::Required, PT::Ptsz),
              EventUse::Waits, 1),
    ordered(row("cudaMemPrefetchAsync", R), 4, SD::Null, PT::Ptsz),
    ordered(row("cudaMemcpyPeerAsync", R), 5, SD::Null, PT::None),
    ordered(row("cudaMemcpy3DPeerAsync", R), 1, SD::Null, PT::Ptsz),
    ordered(row("cudaMemsetAsync", R), 3, SD::Null, PT::Ptsz),
    ordered(row("cudaMemset2DAsync", R), 5, SD::Null, PT::Ptsz),
    ordered(row("cudaMemset3DAsync", R), 3, SD::Null, PT::Ptsz),
    callbackRegistrar("cudaLaunchHostFunc", R),
    callbackRegistrar("cudaStreamAddCallback", R),
    callbackRegistrar("cuLaunchHostFunc", D),
    callbackRegistrar("cuStreamAddCallback", D),
    // Asynchronous copies with a host side: (dst, src, kind, stream).
    asyncCopy("cudaMemcpyAsync", 0, 1, 3, 4),
    asyncCopy("cudaMemcpy2DAsync", 0, 2, 6, 7),
    asyncCopy("cudaMemcpy2DToArrayAsync", -1, 3, 7, 8),
    asyncCopy("cudaMemcpy2DFromArrayAsync", 0, -1, 7, 8),
    asyncCopy("cudaMemcpyToArrayAsync", -1, 3, 5, 6),
    asyncCopy("cudaMemcpyFromArrayAsync", 0, -1, 5, 6),
    asyncCopy("cudaMemcpyToSymbolAsync", -1, 1, 4, 5),
    asyncCopy("cudaMemcpyFromSymbolAsync", 0, -1, 4, 5),
    inStruct(asyncCopy("cudaMemcpy3DAsync", -1, -1, -1, 1)),
    driverCopy("cuMemcpyHtoDAsync", -1, 1, HostToDevice),
    driverCopy("cuMemcpyDtoHAsync", 0, -1, DeviceToHost),
    // Allocation and release.
    memory("cudaMalloc", R, AK::Allocates, MK::Device, "cudaFree"),
    memory("cudaMallocPitch", R, AK::Allocates, MK::Device),
    memory("cudaMalloc3D", R, AK::Allocates, MK::Device),
    memory("cudaMallocHost", R, AK::Allocates, MK::Pinned, "cudaFreeHost"),
    memory("cudaHostAlloc", R, AK::Allocates, MK::Pinned, "cudaFreeHost"),
    memory("cudaHostRegister", R, AK::Allocates, MK::Registered),
    memory("cudaMallocManaged", R, AK::Allocates, MK::Managed, "cudaFree"),
    memory("cudaMallocArray", R, AK::Allocates, MK::Array),
    memory("cudaMalloc3DArray", R, AK::Allocates, MK::Array),
    memory("cudaMallocMipmappedArray", R, AK::Allocates, MK::Array),
    memory("cudaFree", R, AK::Frees, MK::Device),
    memory("cudaFreeHost", R, AK::Frees, MK::Pinned),
    memory("cudaHostUnregister", R, AK::Frees, MK::Registered),
    memory("cudaFreeArray", R, AK::Frees, MK::Array),
    memory("cudaFreeMipmappedArray", R, AK::Frees, MK::Array),
    streamOrderedMemory("cudaMallocAsync", AK::Allocates, 2),
    streamOrderedMemory("cudaMallocFromPoolAsync", AK::Allocates, 3),
    streamOrderedMemory("cudaFreeAsync", AK::Frees, 1),
    memory("cuMemAlloc", D, AK::Allocates, MK::Device, "cuMemFree", "_v2"),
    memory("cuMemAllocPitch", D, AK::Allocates, MK::Device, {}, "_v2"),
    memory("cuMemAllocHost", D, AK::Allocates, MK::Pinned, "cuMemFreeHost", "_v2"),
    memory("cuMemHostAlloc", D, AK::Allocates, MK::Pinned, "cuMemFreeHost"),
    memory("cuMemHostRegister", D, AK::Allocates, MK::Registered, {}, "_v2"),
    memory("cuMemAllocManaged", D, AK::Allocates, MK::Managed, "cuMemFree"),
    memory("cuMemFree", D, AK::Frees, MK::Device, {}, "_v2"),
    memory("cuMemFreeHost", D, AK::Frees, MK::Pinned),
    memory("cuMemHostUnregister", D, AK::Frees, MK::Registered),
    memory("cudaHostGetDevicePointer", R, AK::Aliases, MK::Device),
    memory("cuMemHostGetDevicePointer", D, AK::Aliases, MK::Device, {}, "_v2"),
    // Stream lifecycle. Creation writes the stream through argument 0.
    streamLife("cudaStreamCreate", R, StreamLifecycle::Creates),
    streamLife("cudaStreamCreateWithFlags", R, StreamLifecycle::Creates, 1),
    streamLife("cudaStreamCreateWithPriority", R, StreamLifecycle::Creates, 1),
    streamLife("cuStreamCreate", D, StreamLifecycle::Creates, 1),
    streamLife("cuStreamCreateWithPriority", D, StreamLifecycle::Creates, 1),
    streamLife("cudaStreamDestroy", R, StreamLifecycle::Destroys),
    streamLife("cuStreamDestroy", D, StreamLifecycle::Destroys, -1, "_v2"),
    // Stream bookkeeping: queries, attributes, capture, attaching managed
    // memory. They take a stream and order no work on it.
    streamBookkeeping("cudaStreamQuery", R),
    streamBookkeeping("cudaStreamGetPriority", R),
    streamBookkeeping("cudaStreamGetFlags", R),
    streamBookkeeping("cudaStreamGetId", R),
    streamBookkeeping("cudaStreamGetDevice", R),
    streamBookkeeping("cudaStreamGetAttribute", R),
    streamBookkeeping("cudaStreamSetAttribute", R),
    streamBookkeeping("cudaStreamBeginCapture", R),
    streamBookkeeping("cudaStreamBeginCaptureToGraph", R),
    streamBookkeeping("cudaStreamEndCapture", R),
    streamBookkeeping("cudaStreamIsCapturing", R),
    streamBookkeeping("cudaStreamGetCaptureInfo", R),
    streamBookkeeping("cudaStreamUpdateCaptureDependencies", R),
    streamBookkeeping("cudaStreamAttachMemAsync", R),
    streamBookkeeping("cuStreamQuery", D),
    streamBookkeeping("cuStreamGetPriority", D),
    streamBookkeeping("cuStreamGetFlags", D),
    streamBookkeeping("cuStreamGetId", D),
    streamBookkeeping("cuStreamGetCtx", D),
    streamBookkeeping("cuStreamGetDevice", D),
    streamBookkeeping("cuStreamGetGreenCtx", D, {}, PT::None),
    streamBookkeeping("cuStreamGetAttribute", D),
    streamBookkeeping("cuStreamSetAttribute", D),
    streamBookkeeping("cuStreamBeginCapture", D, "_v2"),
    streamBookkeeping("cuStreamBeginCaptureToGraph", D),
    streamBookkeeping("cuStreamEndCapture", D),
    streamBookkeeping("cuStreamIsCapturing", D),
    streamBookkeeping("cuStreamGetCaptureInfo", D, "_v3"),
    streamBookkeeping("cuStreamUpdateCaptureDependencies", D, "_v2"),
    streamBookkeeping("cuStreamAttachMemAsync", D),
    // The thread's sticky error state.
    errorStateQuery("cudaGetLastError"),
    errorStateQuery("cudaPeekAtLastError"),
    // Host functions registered inside a params struct (the registrars with
    // a host-function argument are the callbackRegistrar rows above).
    hostFunctionRegistrar("cudaGraphAddHostNode", R),
    hostFunctionRegistrar("cudaGraphHostNodeSetParams", R),
    hostFunctionRegistrar("cudaGraphExecHostNodeSetParams", R),
    hostFunctionRegistrar("cudaGraphAddNode", R),
    hostFunctionRegistrar("cudaGraphNodeSetParams", R),
    hostFunctionRegistrar("cudaGraphExecNodeSetParams", R),
    hostFunctionRegistrar("cudaUserObjectCreate", R),
    hostFunctionRegistrar("cudaLogsRegisterCallback", R),
    hostFunctionRegistrar("cuGraphAddHostNode", D),
    hostFunctionRegistrar("cuGraphHostNodeSetParams", D),
    hostFunctionRegistrar("cuGraphExecHostNodeSetParams", D),
    hostFunctionRegistrar("cuGraphAddNode", D, "_v2"),
    hostFunctionRegistrar("cuGraphNodeSetParams", D),
    hostFunctionRegistrar("cuGraphExecNodeSetParams", D),
    hostFunctionRegistrar("cuUserObjectCreate", D),
    // Driver entry points by name.
    entryPointFetcher("cudaGetDriverEntryPoint", R, PT::Ptsz),
    entryPointFetcher("cudaGetDriverEntryPointByVersion", R, PT::Ptsz),
    entryPointFetcher("cuGetProcAddress", D, PT::None, "_v2"),
    // Device selection: the thread's later calls go to this device/context.
    deviceSelector("cudaSetDevice", R),
    deviceSelector("cuCtxSetCurrent", D),
    // Removed in CUDA 13: a call is only a RecoveryExpr, named here so the
    // reach analysis still sees it.
    removedApi(row("cudaThreadExit", R)),
    removedApi(row("cudaThreadGetLimit", R)),
    removedApi(row("cudaThreadSetLimit", R)),
    removedApi(row("cudaThreadGetCacheConfig", R)),
    removedApi(row("cudaThreadSetCacheConfig", R)),
};

bool consumeSuffix(std::string_view &name, std::string_view suffix) {
  if (name.size() <= suffix.size() ||
      name.substr(name.size() - suffix.size()) != suffix)
    return false;
  name.remove_suffix(suffix.size());
  return true;
}

/// Strips one trailing `_v<digits>` (`_v2`, CUPTI's `_v7000`).
bool consumeVersion(std::string_view &name) {
  std::size_t pos = name.rfind("_v");
  if (pos == std::string_view::npos || pos == 0 || pos + 2 == name.size())
    return false;
  for (std::size_t i = pos + 2; i < name.size(); ++i)
    if (name[i] < '0' || name[i] > '9')
      return false;
  name = name.substr(0, pos);
  return true;
}

bool consumePerThread(std::string_view &name) {
  return consumeSuffix(name, "_ptsz") || consumeSuffix(name, "_ptds");
}

} // namespace

ApiName parseApiName(std::string_view spelled) {
  ApiName result;
  std::string_view base = spelled;
  for (bool progress = true; progress;) {
    progress = consumePerThread(base);
    result.perThread |= progress;
    progress = progress || consumeVersion(base);
  }
  result.base = base;
  result.asWritten = spelled;
  consumePerThread(result.asWritten);
  return result;
}

const ApiInfo *findApi(std::string_view spelled) {
  std::string_view base = parseApiName(spelled).base;
  for (const ApiInfo &info : Table) // ~150 rows; callers cache per callee
    if (info.name == base)
      return &info;
  return nullptr;
}

ApiRows allApis() { return {Table.data(), Table.size()}; }

std::vector<std::string> spellingsOf(const ApiInfo &api) {
  std::vector<std::string> names{std::string(api.name)};
  if (!api.version.empty())
    names.push_back(std::string(api.name) + std::string(api.version));
  std::size_t plain = names.size();
  const char *suffix = api.perThread == PerThreadSpelling::Ptsz   ? "_ptsz"
                       : api.perThread == PerThreadSpelling::Ptds ? "_ptds"
                                                                  : nullptr;
  for (std::size_t i = 0; suffix && i < plain; ++i)
    names.push_back(names[i] + suffix);
  return names;
}

bool isStreamOrderedWork(const ApiInfo &api) {
  return api.family == Family::Runtime && api.enqueues;
}

bool isAsyncHostCopy(const ApiInfo &api) { return api.asyncHostCopy; }

bool allocatesMemory(const ApiInfo &api) {
  return api.alloc == AllocKind::Allocates && api.memory != MemoryKind::StreamOrdered;
}

bool freesMemory(const ApiInfo &api) {
  return api.alloc == AllocKind::Frees && api.memory != MemoryKind::StreamOrdered;
}

bool maySynchronizeDevice(const ApiInfo &api) {
  return api.sync == SyncKind::Device || api.sync == SyncKind::Stream ||
         api.sync == SyncKind::DefaultStream;
}

bool selectsDevice(const ApiInfo &api) { return api.selectsDevice; }

bool ordersNoWork(const ApiInfo &api) {
  return api.bookkeeping || api.lifecycle != StreamLifecycle::None;
}

bool registersHostFunction(const ApiInfo &api) {
  return api.callbackIndex >= 0 || api.hostFunctionInParams;
}

bool returnsMemoryThroughFirstArgument(const ApiInfo &api) {
  if (api.alloc == AllocKind::Aliases)
    return true;
  return api.alloc == AllocKind::Allocates &&
         (api.memory == MemoryKind::Device || api.memory == MemoryKind::Pinned ||
          api.memory == MemoryKind::Managed || api.memory == MemoryKind::StreamOrdered);
}

bool isLegacyStreamHandle(std::uintptr_t stream, bool perThreadVariant) {
  if (stream == StreamLegacyHandle)
    return true;
  if (stream == 0)
    return !perThreadVariant;
  return false;
}

} // namespace streamlint::api
