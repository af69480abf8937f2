// The one table of streamlint's checks, sorted by id.
#include "checks/CheckRegistry.h"

#include "analyzer/analysis/OrderingPart.h"

#include "checks/AllocInLoopCheck.h"
#include "checks/ApiInHostCallbackCheck.h"
#include "checks/DefaultStreamCheck.h"
#include "checks/DeviceSyncCheck.h"
#include "checks/LibraryDefaultStreamCheck.h"
#include "checks/PageableMemcpyAsyncCheck.h"

namespace streamlint {

void registerAllChecks(CheckRegistry &registry) {
  registry.add<AllocInLoopCheck>();
  registry.add<ApiInHostCallbackCheck>();
  registry.add<DefaultStreamCheck>();
  registry.add<DeviceSyncCheck>();
  registry.add<LibraryDefaultStreamCheck>();
  registry.add<PageableMemcpyAsyncCheck>();
  // Shared by default-stream, device-sync and library-default-stream.
  registry.addSharedPart(ordering::orderingPart());
}

} // namespace streamlint
