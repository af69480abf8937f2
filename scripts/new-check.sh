#!/usr/bin/env bash
# Scaffolds a new check: scripts/new-check.sh CHECK-ID [--call-graph | --part]
#
# Creates checks/<Name>Check.{h,cpp}, docs/checks/<id>.md and
# testdata/checks/<id>.cu and registers the check in checks/AllChecks.cpp
# and checks/CMakeLists.txt (both kept sorted). Its doc page states that it
# has no run-time evidence until it declares some in checks/CheckEvidence.cpp.
# With --call-graph the check declares NeedsCallGraph (whole-program reach)
# instead of AST matchers; --part does too and adds the check's own
# whole-program part: its facts in the check's header, their JSON, merge and
# findings in checks/<Name>Part.cpp. The new check builds, runs and is
# listed; its test input expects nothing until you write the check. See
# ARCHITECTURE.md ("Adding a check").
set -euo pipefail

usage() { echo "usage: $0 CHECK-ID [--call-graph | --part]   (CHECK-ID: lower-case words joined by '-')" >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 ]] || usage
id=$1
mode=${2:-}
[[ "$id" =~ ^[a-z][a-z0-9]*(-[a-z0-9]+)*$ ]] || usage
[[ -z "$mode" || "$mode" == "--call-graph" || "$mode" == "--part" ]] || usage

root=$(cd "$(dirname "$0")/.." && pwd)
name=$(echo "$id" | awk -F- '{for (i = 1; i <= NF; ++i) printf "%s", toupper(substr($i, 1, 1)) substr($i, 2)}')Check
base=${name%Check}
header="$root/checks/$name.h"
source="$root/checks/$name.cpp"
page="$root/docs/checks/$id.md"
input="$root/testdata/checks/$id.cu"
partSource=""
[[ "$mode" == "--part" ]] && partSource="$root/checks/${base}Part.cpp"
for file in "$header" "$source" "$page" "$input" $partSource; do
  if [[ -e "$file" ]]; then echo "$0: $file already exists" >&2; exit 1; fi
done
grep -q "\"$id\"" "$root"/checks/*.cpp && { echo "$0: a check '$id' is already registered" >&2; exit 1; }

facts=""
if [[ "$mode" == "--part" ]]; then
  facts="
/// This TU's facts of $id's whole-program part (${base}Part.cpp): what
/// other TUs decide. No clang types: they travel as JSON through the
/// project index and CI shards.
struct ${base}Facts : PartFacts {
  /// TODO: the check's facts; here, findings the whole program decides.
  std::vector<Finding> pending;
  nlohmann::json toJson() const override;
  PartFactsPtr withoutFixes() const override;
};
"
  declare_hooks="  unsigned needs() const override { return NeedsCallGraph; }
  void checkCallGraph(reach::TranslationUnitReach &callGraph) override;
  /// Its whole-program part (${base}Part.cpp).
  static std::optional<WholeProgramPart> part();
  PartFactsPtr takePartFacts() override { return std::move(facts_); }

private:
  std::shared_ptr<${base}Facts> facts_ = std::make_shared<${base}Facts>();"
  include_reach='#include "analyzer/reach/TranslationUnitReach.h"
'
  define_hooks="// Every call site of the TU, with its loops; what other TUs decide goes to
// this TU's facts, which the part (${base}Part.cpp) merges over the program.
void $name::checkCallGraph(reach::TranslationUnitReach &callGraph) {
  for (const reach::CallSite &site : callGraph.calls()) {
    // TODO: keep the finding of a site whose verdict needs other TUs:
    // if (auto finding = callGraph.pendingFinding(id(), site, \"TODO: message\"))
    //   facts_->pending.push_back(std::move(*finding));
    (void)site;
  }
}"
elif [[ "$mode" == "--call-graph" ]]; then
  declare_hooks="  unsigned needs() const override { return NeedsCallGraph; }
  void checkCallGraph(reach::TranslationUnitReach &callGraph) override;"
  include_reach='#include "analyzer/reach/TranslationUnitReach.h"
'
  define_hooks="// Every call site of the TU, with its loops; sites whose verdict needs other
// TUs go to callGraph.defer() (see DeviceSyncCheck); facts of the check's
// own that other TUs decide go to its whole-program part (scaffold one with
// --part; see PageableMemcpyAsyncPart).
void $name::checkCallGraph(reach::TranslationUnitReach &callGraph) {
  for (const reach::CallSite &site : callGraph.calls()) {
    (void)site; // TODO: report misuse at site.expr
  }
}"
else
  needs="NeedsAstMatches"
  declare_hooks="  void registerMatchers(clang::ast_matchers::MatchFinder &finder) override;
  void check(const clang::ast_matchers::MatchFinder::MatchResult &result) override;"
  include_reach=""
  define_hooks="void $name::registerMatchers(MatchFinder &finder) {
  // TODO: match what this check flags, e.g. calls by the API table's rows:
  // callExpr(callee(functionDecl(hasName(\"cudaFoo\")))).bind(\"call\")
  (void)finder;
}

void $name::check(const MatchFinder::MatchResult &result) {
  const auto *call = result.Nodes.getNodeAs<clang::CallExpr>(\"call\");
  if (!call)
    return;
  report(Severity::Warning, call->getSourceRange(), \"TODO: what happens and why it costs\", call);
}"
fi

cat > "$header" <<EOF
#pragma once
// $id: TODO one line on the misuse this check finds.

#include "checks/Check.h"
${include_reach}
namespace streamlint {
$facts
/// TODO: what this check flags, in the user's words.
class $name : public Check {
public:
  explicit $name(TranslationUnitContext &context);
  static RuleInfo rule();
  static std::vector<OptionSpec> options();
$declare_hooks
};

} // namespace streamlint
EOF

cat > "$source" <<EOF
#include "checks/$name.h"

#include "clang/ASTMatchers/ASTMatchers.h"

using namespace clang::ast_matchers;

namespace streamlint {

RuleInfo $name::rule() {
  RuleInfo rule;
  rule.id = "$id";
  rule.shortDescription = "TODO: one line";
  rule.fullDescription = "TODO: what happens at run time and what it costs.";
  rule.helpText = "TODO: what to do instead.";
  rule.helpUri = "docs/checks/$id.md";
  return rule;
}

// Declared options: name, type, default, choices, the value --strict sets,
// one-line meaning. Read them once, below, into const members.
std::vector<OptionSpec> $name::options() { return {}; }

$name::$name(TranslationUnitContext &context) : Check(rule().id, context, options()) {}

$define_hooks

} // namespace streamlint
EOF

cat > "$page" <<EOF
# $id

TODO: what this check flags.

## Why

TODO: what it costs at run time, with a measured figure and where it was
measured.

## Example

\`\`\`cpp
// TODO: before and after
\`\`\`

## Options

None.

## Run-time evidence

None yet: the probe does not observe this check. (Declare its evidence in
checks/CheckEvidence.cpp, then say here what the probe counts.)

## Limitations

TODO
EOF

cat > "$input" <<EOF
// Inline expectations for $id: "// CHECK: $id" on each line that must be
// flagged (see tests/README.md); any unexpected finding fails.
#include <cuda_runtime.h>

void nothingToFlagYet() {}
EOF

if [[ -n "$partSource" ]]; then
cat > "$partSource" <<EOF
// $id's whole-program part (analyzer/WholeProgramPart.h): each TU's facts
// as JSON, and after every TU the findings they resolve to.
#include "checks/$name.h"

#include "analyzer/reach/SummaryJson.h"

#include <set>

namespace streamlint {

nlohmann::json ${base}Facts::toJson() const {
  nlohmann::json findings = nlohmann::json::array();
  for (const Finding &finding : pending)
    findings.push_back(reach::findingJson(finding));
  return {{"pending", findings}};
}

PartFactsPtr ${base}Facts::withoutFixes() const {
  auto copy = std::make_shared<${base}Facts>(*this);
  for (Finding &finding : copy->pending)
    finding.fixes.clear();
  return copy;
}

std::optional<WholeProgramPart> $name::part() {
  WholeProgramPart part; // keyed by the check's id (CheckRegistry::add)
  part.read = [](const nlohmann::json &j) -> PartFactsPtr {
    auto facts = std::make_shared<${base}Facts>();
    for (const nlohmann::json &finding : j.at("pending"))
      facts->pending.push_back(reach::findingFrom(finding));
    return facts;
  };
  // Every TU's facts, in any order; a header's may come from several TUs.
  part.resolve = [](const std::vector<PartFactsPtr> &units, const ProgramView &) {
    std::vector<Finding> findings;
    std::set<std::string> seen;
    for (const PartFactsPtr &unit : units)
      for (const Finding &finding : static_cast<const ${base}Facts &>(*unit).pending)
        // TODO: decide with every TU's facts (and the program's call graph).
        if (seen.insert(finding.location.file + ":" + std::to_string(finding.location.line))
                .second)
          findings.push_back(finding);
    return findings;
  };
  return part;
}

} // namespace streamlint
EOF
fi

# Registration: the include and the add<>() call, kept sorted.
python3 - "$root/checks/AllChecks.cpp" "$name" <<'EOF'
import sys
path, name = sys.argv[1], sys.argv[2]
lines = open(path).read().split('\n')
include = '#include "checks/%s.h"' % name
add = '  registry.add<%s>();' % name
def insert_sorted(lines, new, prefix):
    block = [i for i, l in enumerate(lines) if l.startswith(prefix)]
    if not block:
        sys.exit('%s: no "%s" lines to add to' % (path, prefix))
    at = block[-1] + 1
    for i in block:
        if lines[i] > new:
            at = i
            break
    lines.insert(at, new)

# The registry header stays first; check headers follow it, sorted.
checks = [i for i, l in enumerate(lines) if l.startswith('#include "checks/') and 'CheckRegistry.h' not in l]
at = checks[-1] + 1
for i in checks:
    if lines[i] > include:
        at = i
        break
lines.insert(at, include)
insert_sorted(lines, add, '  registry.add<')
open(path, 'w').write('\n'.join(lines))
EOF
python3 - "$root/checks/CMakeLists.txt" "$name.cpp" ${partSource:+"${base}Part.cpp"} <<'EOF'
import sys
path, sources = sys.argv[1], sys.argv[2:]
lines = open(path).read().split('\n')
for source in sources:
    # streamlint_checks' source list: the first block of indented .cpp lines.
    block = [i for i, l in enumerate(lines) if l.startswith('  ') and l.strip().endswith('.cpp')]
    at = block[-1] + 1
    for i in block:
        if lines[i].strip() > source:
            at = i
            break
    lines.insert(at, '  ' + source)
open(path, 'w').write('\n'.join(lines))
EOF

echo "created checks/$name.h checks/$name.cpp${partSource:+ checks/${base}Part.cpp} docs/checks/$id.md testdata/checks/$id.cu"
echo "registered $name in checks/AllChecks.cpp and checks/CMakeLists.txt"
