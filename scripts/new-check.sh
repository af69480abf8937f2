#!/usr/bin/env bash
# Scaffolds a new check: scripts/new-check.sh CHECK-ID [--call-graph]
#
# Creates checks/<Name>Check.{h,cpp}, docs/checks/<id>.md and
# testdata/checks/<id>.cu, registers the check in checks/AllChecks.cpp and
# checks/CMakeLists.txt (both kept sorted), and lists it as having no
# run-time evidence in analyzer/trace/Evidence.cpp until it declares some. With --call-graph the check
# declares NeedsCallGraph (whole-program reach) instead of AST matchers.
# The new check builds, runs and is listed; its test input expects nothing
# until you write the check. See ARCHITECTURE.md ("Adding a check").
set -euo pipefail

usage() { echo "usage: $0 CHECK-ID [--call-graph]   (CHECK-ID: lower-case words joined by '-')" >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 ]] || usage
id=$1
mode=${2:-}
[[ "$id" =~ ^[a-z][a-z0-9]*(-[a-z0-9]+)*$ ]] || usage
[[ -z "$mode" || "$mode" == "--call-graph" ]] || usage

root=$(cd "$(dirname "$0")/.." && pwd)
name=$(echo "$id" | awk -F- '{for (i = 1; i <= NF; ++i) printf "%s", toupper(substr($i, 1, 1)) substr($i, 2)}')Check
header="$root/checks/$name.h"
source="$root/checks/$name.cpp"
page="$root/docs/checks/$id.md"
input="$root/testdata/checks/$id.cu"
for file in "$header" "$source" "$page" "$input"; do
  if [[ -e "$file" ]]; then echo "$0: $file already exists" >&2; exit 1; fi
done
grep -q "\"$id\"" "$root"/checks/*.cpp && { echo "$0: a check '$id' is already registered" >&2; exit 1; }

if [[ "$mode" == "--call-graph" ]]; then
  needs="NeedsCallGraph"
  declare_hooks="  unsigned needs() const override { return NeedsCallGraph; }
  void checkCallGraph(reach::TranslationUnitReach &callGraph) override;"
  include_reach='#include "analyzer/reach/TranslationUnitReach.h"
'
  define_hooks="// Every call site of the TU, with its loops; sites whose verdict needs other
// TUs go to callGraph.defer() (see DeviceSyncCheck); facts of the check's
// own that other TUs decide go to its whole-program part: static part() and
// takePartFacts(), in ${name%Check}Part.{h,cpp} (see PageableMemcpyAsyncPart).
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

None yet: the probe does not observe this check.

## Limitations

TODO
EOF

cat > "$input" <<EOF
// Inline expectations for $id: "// CHECK: $id" on each line that must be
// flagged (see tests/README.md); any unexpected finding fails.
#include <cuda_runtime.h>

void nothingToFlagYet() {}
EOF

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
python3 - "$root/checks/CMakeLists.txt" "$name.cpp" <<'EOF'
import sys
path, source = sys.argv[1], sys.argv[2]
lines = open(path).read().split('\n')
block = [i for i, l in enumerate(lines) if l.startswith('  ') and l.strip().endswith('.cpp')]
at = block[-1] + 1
for i in block:
    if lines[i].strip() > source:
        at = i
        break
lines.insert(at, '  ' + source)
open(path, 'w').write('\n'.join(lines))
EOF

# Run-time evidence: explicitly none until the check declares some.
python3 - "$root/analyzer/trace/Evidence.cpp" "$id" <<'EOF'
import sys
path, id = sys.argv[1], sys.argv[2]
lines = open(path).read().split('\n')
start = next(i for i, l in enumerate(lines) if 'static const std::vector<std::string> none = {' in l)
lines.insert(start + 1, '      "%s",' % id)
open(path, 'w').write('\n'.join(lines))
EOF

echo "created checks/$name.h checks/$name.cpp docs/checks/$id.md testdata/checks/$id.cu"
echo "registered $name in checks/AllChecks.cpp and checks/CMakeLists.txt"
