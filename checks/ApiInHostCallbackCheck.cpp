#include "checks/ApiInHostCallbackCheck.h"

#include "analyzer/reach/CudaApi.h"



namespace streamlint {

RuleInfo ApiInHostCallbackCheck::rule() {
  RuleInfo rule;
  rule.id = "api-in-host-callback";
  rule.shortDescription = "CUDA API call inside a host callback";
  rule.fullDescription =
      "Functions enqueued with cudaLaunchHostFunc or cudaStreamAddCallback "
      "(and the driver's cuLaunchHostFunc/cuStreamAddCallback) run on a "
      "driver thread that must not call the CUDA API: such calls can "
      "deadlock the stream or fail with cudaErrorNotPermitted.";
  rule.helpText = "Keep the callback to host work; enqueue CUDA work in "
                  "stream order from a host thread instead (e.g. signal it "
                  "from the callback, or record an event and wait on it).";
  rule.helpUri = "docs/checks/api-in-host-callback.md";
  return rule;
}

ApiInHostCallbackCheck::ApiInHostCallbackCheck(TranslationUnitContext &context)
    : Check(rule().id, context) {}

void ApiInHostCallbackCheck::checkCallGraph(reach::TranslationUnitReach &callGraph) {
  // Any CUDA call may run in a callback registered in another TU: each is
  // deferred and reported only when the whole-program pass finds a chain
  // from a registration to it.
  for (const reach::CallSite &site : callGraph.calls()) {
    if (!site.cudaApi)
      continue;
    std::string what = site.kernelLaunch
                           ? "kernel launch '" + site.name + "<<<...>>>'"
                           : "'" + std::string(api::baseName(site.name)) + "'";
    std::optional<Finding> finding = callGraph.pendingFinding(id(), site, what + " ");
    if (!finding)
      continue;
    reach::PendingSite pending;
    pending.finding = std::move(*finding);
    // After where it runs ("in host callback 'f' registered with ...").
    pending.messageTail = ": a host callback must not call the CUDA API (it can "
                          "deadlock or fail with cudaErrorNotPermitted); keep the callback "
                          "to host work and enqueue CUDA work in stream order from a host "
                          "thread (signal it from the callback, or record an event and "
                          "wait on it)";
    pending.function = site.callerUsr;
    pending.root = reach::ReachRoot::Callback;
    callGraph.defer(std::move(pending));
  }
}

} // namespace streamlint
