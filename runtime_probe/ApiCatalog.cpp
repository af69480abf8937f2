#include "ApiCatalog.h"

namespace streamlint::probe {

std::uint16_t traitsOf(const api::ApiInfo *info, bool perThread) {
  std::uint16_t traits = TraitKnown;
  if (perThread)
    traits |= TraitPerThread;
  if (!info)
    return traits;
  if (info->launch)
    traits |= TraitLaunch;
  if (api::isStreamOrderedWork(*info))
    traits |= TraitStreamOrdered;
  if (api::isAsyncHostCopy(*info))
    traits |= TraitMemcpyAsync;
  if (api::allocatesMemory(*info) || api::freesMemory(*info))
    traits |= TraitAllocation;
  if (info->sync != api::SyncKind::None)
    traits |= TraitSynchronization;
  if (info->sync == api::SyncKind::Device)
    traits |= TraitDeviceWide;
  if (info->sync == api::SyncKind::DefaultStream)
    traits |= TraitImplicitStream;
  if (api::freesMemory(*info))
    traits |= TraitFrees;
  if (api::allocatesMemory(*info) && (info->memory == api::MemoryKind::Pinned ||
                                      info->memory == api::MemoryKind::Registered))
    traits |= TraitPinsHost;
  if (api::allocatesMemory(*info) && info->memory == api::MemoryKind::Managed)
    traits |= TraitManaged;
  if (info->family == api::Family::Driver)
    traits |= TraitDriverApi;
  return traits;
}

std::uint16_t classifyApi(std::string_view name) {
  api::ApiName parsed = api::parseApiName(name);
  return traitsOf(api::findApi(parsed.base), parsed.perThread);
}

} // namespace streamlint::probe
