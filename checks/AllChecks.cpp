// The one table of streamlint's checks, sorted by id.
#include "checks/CheckRegistry.h"

#include "checks/AllocInLoopCheck.h"
#include "checks/ApiInHostCallbackCheck.h"
#include "checks/DeviceSyncCheck.h"

namespace streamlint {

void registerAllChecks(CheckRegistry &registry) {
  registry.add<AllocInLoopCheck>();
  registry.add<ApiInHostCallbackCheck>();
  registry.add<DeviceSyncCheck>();
}

} // namespace streamlint
