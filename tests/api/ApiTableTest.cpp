// The CUDA API table: the one name normalizer, lookups by any spelling, and
// the predicates the checks and the probe share.
#include "api/CudaApiTable.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace streamlint::api {
namespace {

TEST(ApiName, StripsPerThreadAndVersionSuffixesInAnyOrder) {
  struct Case { const char *spelled, *base, *asWritten; bool perThread; };
  for (const Case &c : std::vector<Case>{
           {"cudaMemcpy_ptds", "cudaMemcpy", "cudaMemcpy", true},
           {"cudaMemcpyAsync_ptsz", "cudaMemcpyAsync", "cudaMemcpyAsync", true},
           {"cuMemAlloc_v2", "cuMemAlloc", "cuMemAlloc_v2", false},
           {"cuMemcpyHtoDAsync_v2_ptsz", "cuMemcpyHtoDAsync", "cuMemcpyHtoDAsync_v2", true},
           {"cudaMemcpyAsync_ptsz_v7000", "cudaMemcpyAsync", "cudaMemcpyAsync_ptsz_v7000", true},
           {"cuStreamGetCaptureInfo_v3", "cuStreamGetCaptureInfo", "cuStreamGetCaptureInfo_v3", false},
           {"cudaFoo_vX", "cudaFoo_vX", "cudaFoo_vX", false},
           {"_v2", "_v2", "_v2", false},
           {"cudaMalloc", "cudaMalloc", "cudaMalloc", false}}) {
    SCOPED_TRACE(c.spelled);
    ApiName name = parseApiName(c.spelled);
    EXPECT_EQ(name.base, c.base);
    EXPECT_EQ(name.asWritten, c.asWritten);
    EXPECT_EQ(name.perThread, c.perThread);
  }
}

TEST(ApiTable, OneRowPerFunctionFoundByEverySpelling) {
  std::set<std::string_view> names;
  for (const ApiInfo &info : allApis()) {
    SCOPED_TRACE(std::string(info.name));
    EXPECT_TRUE(names.insert(info.name).second) << "listed twice";
    EXPECT_EQ(parseApiName(info.name).base, info.name) << "row name is not a base name";
    for (const std::string &spelling : spellingsOf(info)) {
      SCOPED_TRACE(spelling);
      EXPECT_EQ(findApi(spelling), &info);
    }
  }
  EXPECT_EQ(findApi("cudaGetDevice"), nullptr); // cudaGetLastError is a row (issue 24)
  EXPECT_EQ(findApi("myMalloc"), nullptr);
}

TEST(ApiTable, RowsAreConsistent) {
  for (const ApiInfo &info : allApis()) {
    SCOPED_TRACE(std::string(info.name));
    // A stream index exactly when a stream argument exists.
    bool hasArgument = info.stream == StreamDefault::Required || info.stream == StreamDefault::Null;
    EXPECT_EQ(info.streamIndex >= 0, hasArgument);
    // Driver functions have no default arguments (C API).
    if (info.family == Family::Driver)
      EXPECT_NE(info.stream, StreamDefault::Null);
    if (info.asyncHostCopy) {
      EXPECT_TRUE(info.enqueues);
      EXPECT_TRUE(info.hostEndsInStruct || info.hostSource >= 0 || info.hostDestination >= 0);
      EXPECT_TRUE(info.hostEndsInStruct || info.kindIndex >= 0 ||
                  info.fixedDirection != NoDirection);
    }
    if (!info.pairedFree.empty()) {
      const ApiInfo *release = findApi(info.pairedFree);
      ASSERT_NE(release, nullptr);
      EXPECT_TRUE(freesMemory(*release));
      EXPECT_EQ(release->family, info.family);
    }
    if (info.callbackIndex >= 0)
      EXPECT_TRUE(info.enqueues);
    if (info.launch)
      EXPECT_TRUE(info.enqueues);
  }
}

TEST(ApiTable, FactsTheChecksRelyOn) {
  // device-sync
  EXPECT_EQ(findApi("cudaDeviceSynchronize")->sync, SyncKind::Device);
  EXPECT_EQ(findApi("cuCtxSynchronize")->sync, SyncKind::Device);
  EXPECT_EQ(findApi("cudaStreamSynchronize_ptsz")->sync, SyncKind::Stream);
  EXPECT_EQ(findApi("cudaStreamSynchronize")->streamIndex, 0);
  EXPECT_EQ(findApi("cudaMemset2D_ptds")->sync, SyncKind::DefaultStream);
  EXPECT_FALSE(maySynchronizeDevice(*findApi("cudaEventSynchronize")));
  EXPECT_TRUE(findApi("cudaThreadSynchronize")->removed);
  // alloc-in-loop: stream-ordered allocation is the cure, not the misuse.
  EXPECT_TRUE(allocatesMemory(*findApi("cuMemAlloc_v2")));
  EXPECT_TRUE(freesMemory(*findApi("cudaHostUnregister")));
  EXPECT_FALSE(allocatesMemory(*findApi("cudaMallocAsync")));
  EXPECT_FALSE(freesMemory(*findApi("cudaFreeAsync_ptsz")));
  EXPECT_EQ(findApi("cudaMallocManaged")->pairedFree, "cudaFree");
  EXPECT_EQ(findApi("cudaHostAlloc")->pairedFree, "cudaFreeHost");
  // default-stream: runtime stream-ordered work, not stream synchronization.
  EXPECT_TRUE(isStreamOrderedWork(*findApi("cudaMallocAsync")));
  EXPECT_TRUE(isStreamOrderedWork(*findApi("cudaLaunchKernelExC_ptsz")));
  EXPECT_EQ(findApi("cudaLaunchKernelEx")->stream, StreamDefault::InConfig);
  EXPECT_FALSE(isStreamOrderedWork(*findApi("cudaStreamSynchronize")));
  EXPECT_FALSE(isStreamOrderedWork(*findApi("cuMemcpyHtoDAsync")));
  EXPECT_EQ(findApi("cudaMemcpyAsync")->stream, StreamDefault::Null);
  EXPECT_EQ(findApi("cudaMemcpyAsync")->streamIndex, 4);
  // pageable-memcpy-async
  const ApiInfo *copy = findApi("cudaMemcpy2DAsync_ptsz");
  EXPECT_TRUE(isAsyncHostCopy(*copy));
  EXPECT_EQ(copy->hostDestination, 0);
  EXPECT_EQ(copy->hostSource, 2);
  EXPECT_EQ(copy->kindIndex, 6);
  EXPECT_EQ(findApi("cuMemcpyDtoHAsync_v2")->fixedDirection, DeviceToHost);
  EXPECT_TRUE(findApi("cudaMemcpy3DAsync")->hostEndsInStruct);
  EXPECT_FALSE(isAsyncHostCopy(*findApi("cudaMemcpyPeerAsync")));
  // api-in-host-callback
  EXPECT_EQ(findApi("cuLaunchHostFunc")->callbackIndex, 1);
  EXPECT_EQ(findApi("cudaStreamAddCallback_ptsz")->callbackIndex, 1);
}

TEST(ApiTable, Spellings) {
  EXPECT_EQ(spellingsOf(*findApi("cudaMemcpyAsync")),
            (std::vector<std::string>{"cudaMemcpyAsync", "cudaMemcpyAsync_ptsz"}));
  EXPECT_EQ(spellingsOf(*findApi("cudaMemcpy")),
            (std::vector<std::string>{"cudaMemcpy", "cudaMemcpy_ptds"}));
  EXPECT_EQ(spellingsOf(*findApi("cuMemcpyHtoDAsync")),
            (std::vector<std::string>{"cuMemcpyHtoDAsync", "cuMemcpyHtoDAsync_v2",
                                      "cuMemcpyHtoDAsync_ptsz", "cuMemcpyHtoDAsync_v2_ptsz"}));
  EXPECT_EQ(spellingsOf(*findApi("cuMemFree")),
            (std::vector<std::string>{"cuMemFree", "cuMemFree_v2"}));
}

TEST(ApiTable, LegacyStreamHandles) {
  EXPECT_TRUE(isLegacyStreamHandle(0, false));
  EXPECT_FALSE(isLegacyStreamHandle(0, true));
  EXPECT_TRUE(isLegacyStreamHandle(StreamLegacyHandle, true));
  EXPECT_FALSE(isLegacyStreamHandle(StreamPerThreadHandle, false));
}

// Loops over devices (analyzer/analysis/DeviceLoop.h) read this fact.
TEST(ApiTable, DeviceSelectionIsAFact) {
  ASSERT_NE(findApi("cudaSetDevice"), nullptr);
  EXPECT_TRUE(selectsDevice(*findApi("cudaSetDevice")));
  EXPECT_TRUE(selectsDevice(*findApi("cuCtxSetCurrent")));
  EXPECT_FALSE(selectsDevice(*findApi("cudaDeviceSynchronize")));
}

} // namespace
} // namespace streamlint::api

namespace streamlint::api {
namespace {

// Issue 24: what the ordering analysis, provenance and the probe used to
// know by name is in the table.
TEST(ApiTable, StreamLifecycleAndEventsAreFacts) {
  EXPECT_EQ(findApi("cudaStreamCreate")->lifecycle, StreamLifecycle::Creates);
  EXPECT_EQ(findApi("cudaStreamCreate")->flagsIndex, -1); // default flags: blocking
  for (const char *name : {"cudaStreamCreateWithFlags", "cudaStreamCreateWithPriority",
                           "cuStreamCreate", "cuStreamCreateWithPriority"}) {
    EXPECT_EQ(findApi(name)->lifecycle, StreamLifecycle::Creates) << name;
    EXPECT_EQ(findApi(name)->flagsIndex, 1) << name;
  }
  for (const char *name : {"cudaStreamDestroy", "cuStreamDestroy", "cuStreamDestroy_v2"})
    EXPECT_EQ(findApi(name)->lifecycle, StreamLifecycle::Destroys) << name;
  for (const char *name : {"cudaEventRecord", "cudaEventRecord_ptsz",
                           "cudaEventRecordWithFlags"}) {
    EXPECT_EQ(findApi(name)->event, EventUse::Records) << name;
    EXPECT_EQ(findApi(name)->eventIndex, 0) << name;
  }
  EXPECT_EQ(findApi("cudaStreamWaitEvent")->event, EventUse::Waits);
  EXPECT_EQ(findApi("cudaStreamWaitEvent")->eventIndex, 1);
}

TEST(ApiTable, BookkeepingIsAFlagNotAName) {
  for (const ApiInfo &info : allApis()) {
    SCOPED_TRACE(std::string(info.name));
    if (info.bookkeeping) {
      // Bookkeeping takes a stream and is none of the things checks flag.
      EXPECT_GE(info.streamIndex, 0);
      EXPECT_FALSE(info.enqueues || info.launch || info.asyncHostCopy);
      EXPECT_EQ(info.sync, SyncKind::None);
      EXPECT_EQ(info.alloc, AllocKind::None);
    }
    if (ordersNoWork(info))
      EXPECT_FALSE(isStreamOrderedWork(info));
  }
  for (const char *name : {"cudaStreamQuery", "cudaStreamGetPriority", "cudaStreamBeginCapture",
                           "cudaStreamEndCapture", "cudaStreamAttachMemAsync",
                           "cuStreamGetCaptureInfo_v3", "cuStreamQuery_ptsz",
                           "cudaStreamCreate", "cudaStreamDestroy"})
    EXPECT_TRUE(ordersNoWork(*findApi(name))) << name;
  // Work on a stream, whatever its name says.
  for (const char *name : {"cudaStreamWaitEvent", "cudaStreamAddCallback",
                           "cuStreamAddCallback", "cudaMemsetAsync", "cudaEventRecord"})
    EXPECT_FALSE(ordersNoWork(*findApi(name))) << name;
  for (const char *name : {"cudaGetLastError", "cudaPeekAtLastError"})
    EXPECT_TRUE(findApi(name)->errorState) << name;
  EXPECT_FALSE(findApi("cudaStreamQuery")->errorState);
}

TEST(ApiTable, HostFunctionRegistrarsAndEntryPointFetchers) {
  for (const char *name :
       {"cudaLaunchHostFunc", "cudaStreamAddCallback", "cuLaunchHostFunc_ptsz",
        "cuStreamAddCallback", "cudaGraphAddHostNode", "cudaGraphExecHostNodeSetParams",
        "cudaGraphAddNode", "cudaUserObjectCreate", "cudaLogsRegisterCallback",
        "cuGraphAddNode_v2", "cuGraphNodeSetParams", "cuUserObjectCreate"})
    EXPECT_TRUE(registersHostFunction(*findApi(name))) << name;
  for (const char *name : {"cudaGetDriverEntryPoint", "cudaGetDriverEntryPointByVersion_ptsz",
                           "cuGetProcAddress_v2"})
    EXPECT_TRUE(findApi(name)->fetchesEntryPoint) << name;
  EXPECT_FALSE(registersHostFunction(*findApi("cudaMemcpyAsync")));
}

TEST(ApiTable, ProvenanceReadsAllocationKinds) {
  // cudaMallocManaged is managed memory (not pinned); every spelling of an
  // allocation the table lists returns memory through its first argument.
  EXPECT_EQ(findApi("cudaMallocManaged")->memory, MemoryKind::Managed);
  for (const char *name : {"cudaMalloc", "cudaMallocPitch", "cudaMalloc3D", "cudaMallocHost",
                           "cudaHostAlloc", "cudaMallocManaged", "cudaMallocAsync_ptsz",
                           "cudaMallocFromPoolAsync_ptsz", "cuMemAlloc_v2", "cuMemAllocHost_v2",
                           "cuMemHostAlloc", "cuMemAllocManaged", "cudaHostGetDevicePointer"})
    EXPECT_TRUE(returnsMemoryThroughFirstArgument(*findApi(name))) << name;
  for (const char *name : {"cudaHostRegister", "cudaMallocArray", "cudaFree", "cudaMemcpy"})
    EXPECT_FALSE(returnsMemoryThroughFirstArgument(*findApi(name))) << name;
  // Aliases allocate nothing: no alloc-in-loop finding, no probe churn.
  EXPECT_FALSE(allocatesMemory(*findApi("cudaHostGetDevicePointer")));
}

} // namespace
} // namespace streamlint::api
