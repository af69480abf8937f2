// Which run of leading directives each TU of a group takes as its preamble
// (SharedPrefix.h, sharedDirectivesOf): the runs form a trie; a run may be
// built where no #if is open and a file was included, and pays only when
// two TUs or more take it. Of those, the set to build is the one that
// saves the most parsing:
//   each TU saves the cost of the run it takes, and
//   each run built costs kBuildCost times its own cost once.
// A tree walk finds the best set exactly: at each run, build it (the TUs
// below that take nothing deeper take it) or not (they take the nearest
// built run above, or none).
#include "analyzer/driver/SharedPrefix.h"

#include <map>
#include <memory>
#include <set>

namespace streamlint {
namespace {

/// A preamble's build, in parses of the same prefix: the parse plus writing
/// the PCH. Measured with --preambles and STREAMLINT_PHASE_TIMES=1 against
/// clang++ -fsyntax-only of the prefix alone: 1.05x on the torch extension's
/// bindings (torch/extension.h), 1.4x on apex's multi_tensor_adam.cu prefix.
constexpr double kBuildCost = 1.25;

struct RunNode {
  std::map<std::string, std::unique_ptr<RunNode>> next; // by the following directive
  RunNode *parent = nullptr;
  size_t depth = 0;       // directives in the run
  unsigned takers = 0;    // TUs whose prefix begins with the run
  bool cuttable = false;  // nothing open after it, a file included
  double cost = 0;        // of parsing the run
  std::vector<size_t> ending; // TUs whose deepest candidate this is
  bool build = false;

  /// Built only where cuttable and two TUs or more begin with it.
  bool candidate() const { return cuttable && takers >= 2; }
};

class RunTrie {
public:
  explicit RunTrie(const std::vector<std::vector<PrefixDirective>> &prefixes)
      : prefixes_(prefixes), deepest_(prefixes.size(), nullptr) {
    for (size_t i = 0; i < prefixes.size(); ++i)
      insert(i);
    for (size_t i = 0; i < prefixes.size(); ++i) {
      RunNode *node = &root_;
      for (const PrefixDirective &directive : prefixes[i]) {
        node = node->next[directive.text].get();
        if (node->candidate())
          deepest_[i] = node;
      }
      if (deepest_[i])
        deepest_[i]->ending.push_back(i);
    }
  }

  /// Whether the choice depends on what the runs cost: some TU may take
  /// one of two candidate runs that other TUs take too, and not the same
  /// TUs. Otherwise each TU takes its deepest candidate, whatever they cost.
  bool choiceDependsOnCost() const {
    for (size_t i = 0; i < prefixes_.size(); ++i)
      for (RunNode *node = deepest_[i]; node; node = node->parent)
        if (node != deepest_[i] && node->candidate() && node->takers != deepest_[i]->takers)
          return true;
    return false;
  }

  /// The TUs' deepest candidate runs, none the beginning of another: what
  /// must be costed for every candidate to have a cost.
  std::vector<std::vector<std::string>> longestRuns() const {
    std::set<const RunNode *> deepest(deepest_.begin(), deepest_.end());
    deepest.erase(nullptr);
    std::set<const RunNode *> inner;
    for (const RunNode *node : deepest)
      for (const RunNode *above = node->parent; above; above = above->parent)
        inner.insert(above);
    std::vector<std::vector<std::string>> runs;
    for (size_t i = 0; i < prefixes_.size(); ++i)
      if (deepest_[i] && !inner.count(deepest_[i]) && deepest.erase(deepest_[i]))
        runs.push_back(textsOf(i, deepest_[i]->depth));
    return runs;
  }

  /// Gives the nodes along `run` their costs (cumulative, one per
  /// directive); false if `costs` does not cover it.
  bool setCosts(const std::vector<std::string> &run, const std::vector<double> &costs) {
    if (costs.size() != run.size())
      return false;
    RunNode *node = &root_;
    for (size_t k = 0; k < run.size(); ++k) {
      node = node->next[run[k]].get();
      node->cost = costs[k];
    }
    return true;
  }
  /// Costs each run by its number of directives.
  void costByDepth() { costByDepth(root_); }

  /// The run each TU takes; empty for none.
  std::vector<std::vector<std::string>> choose() {
    std::map<std::pair<const RunNode *, const RunNode *>, double> memo;
    decide(root_, nullptr, memo);
    std::vector<std::vector<std::string>> shared(prefixes_.size());
    for (size_t i = 0; i < prefixes_.size(); ++i)
      for (const RunNode *node = deepest_[i]; node; node = node->parent)
        if (node->build) {
          shared[i] = textsOf(i, node->depth);
          break;
        }
    return shared;
  }

private:
  void insert(size_t tu) {
    RunNode *node = &root_;
    bool included = false;
    for (const PrefixDirective &directive : prefixes_[tu]) {
      std::unique_ptr<RunNode> &slot = node->next[directive.text];
      if (!slot) {
        slot = std::make_unique<RunNode>();
        slot->parent = node;
        slot->depth = node->depth + 1;
      }
      node = slot.get();
      included |= directive.includes;
      node->cuttable = directive.closesAll && included;
      ++node->takers;
    }
  }

  void costByDepth(RunNode &node) {
    node.cost = static_cast<double>(node.depth);
    for (auto &[text, next] : node.next)
      costByDepth(*next);
  }

  std::vector<std::string> textsOf(size_t tu, size_t count) const {
    std::vector<std::string> texts;
    for (size_t k = 0; k < count; ++k)
      texts.push_back(prefixes_[tu][k].text);
    return texts;
  }

  /// The parsing the runs at and below `node` save at best when the
  /// nearest run built above it is `above` (null: none); marks what to
  /// build on the best choice when `mark`.
  double value(const RunNode &node, const RunNode *above,
               std::map<std::pair<const RunNode *, const RunNode *>, double> &memo) {
    auto key = std::make_pair(&node, above);
    if (auto found = memo.find(key); found != memo.end())
      return found->second;
    double best = valueWithout(node, above, memo);
    if (node.candidate())
      best = std::max(best, valueWith(node, memo));
    memo[key] = best;
    return best;
  }
  double valueWithout(const RunNode &node, const RunNode *above,
                      std::map<std::pair<const RunNode *, const RunNode *>, double> &memo) {
    double saved = static_cast<double>(node.ending.size()) * (above ? above->cost : 0);
    for (const auto &[text, next] : node.next)
      saved += value(*next, above, memo);
    return saved;
  }
  double valueWith(const RunNode &node,
                   std::map<std::pair<const RunNode *, const RunNode *>, double> &memo) {
    double saved = (static_cast<double>(node.ending.size()) - kBuildCost) * node.cost;
    for (const auto &[text, next] : node.next)
      saved += value(*next, &node, memo);
    return saved;
  }
  /// Marks the runs of the best choice below `node` (value() filled `memo`).
  void decide(RunNode &node, const RunNode *above,
              std::map<std::pair<const RunNode *, const RunNode *>, double> &memo) {
    node.build = &node != &root_ && node.candidate() &&
                 valueWith(node, memo) > valueWithout(node, above, memo);
    for (auto &[text, next] : node.next)
      decide(*next, node.build ? &node : above, memo);
  }

  const std::vector<std::vector<PrefixDirective>> &prefixes_;
  RunNode root_;
  std::vector<RunNode *> deepest_; // each TU's deepest candidate; null if none
};

} // namespace

std::vector<std::vector<std::string>>
sharedDirectivesOf(const std::vector<std::vector<PrefixDirective>> &prefixes,
                   const RunCosts &costs) {
  RunTrie trie(prefixes);
  bool costed = false;
  if (costs && trie.choiceDependsOnCost()) {
    costed = true;
    for (const std::vector<std::string> &run : trie.longestRuns())
      costed = costed && trie.setCosts(run, costs(run));
  }
  if (!costed)
    trie.costByDepth();
  return trie.choose();
}

} // namespace streamlint
