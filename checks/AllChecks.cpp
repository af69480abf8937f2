// The one table of streamlint's checks, sorted by id.
#include "checks/CheckRegistry.h"

#include "checks/DefaultStreamCheck.h"
#include "checks/DeviceSyncCheck.h"

namespace streamlint {

void registerAllChecks(CheckRegistry &registry) {
  registry.add<DefaultStreamCheck>();
  registry.add<DeviceSyncCheck>();
}

} // namespace streamlint
